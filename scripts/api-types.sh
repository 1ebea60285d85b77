#!/usr/bin/env bash
# The frontend's API types are generated from the binary's OpenAPI document with
# openapi-typescript (pinned in frontend/package.json) into frontend/src/api/schema.d.ts.
# `scripts/api-types.sh BIN` regenerates it; `scripts/api-types.sh BIN --check` (make test)
# fails when the checked-in file differs from what the current document produces.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/debug/mentorpay}
OUT=frontend/src/api/schema.d.ts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MENTORPAY_LOG=error "$BIN" openapi > "$work/openapi.json"
(cd frontend && npx --no-install openapi-typescript "$work/openapi.json" -o "$work/schema.d.ts" >/dev/null)
if [ "${2:-}" = "--check" ]; then
    if ! diff -u "$OUT" "$work/schema.d.ts" > "$work/diff"; then
        head -40 "$work/diff"
        echo "$OUT is not what the OpenAPI document produces: run scripts/api-types.sh $BIN and commit it" >&2
        exit 1
    fi
    echo "API types match the OpenAPI document"
else
    cp "$work/schema.d.ts" "$OUT"
    echo "wrote $OUT"
fi
