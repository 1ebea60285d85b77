#!/usr/bin/env bash
# Runs schemathesis (pinned, in its own virtual environment) against the built binary
# with a signed-in Administrator: every operation of /api/v1/openapi.json, every check.
# Bounded: a few examples per operation. Usage: scripts/fuzz-api.sh [path/to/mentorpay]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scratch-server.sh"
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
BIN=${1:-target/debug/mentorpay}
VENV=.venv-schemathesis
MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-10}

if [ ! -x "$VENV/bin/st" ] || ! "$VENV/bin/st" --version | grep -q "$SCHEMATHESIS_VERSION"; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

password='fuzzing admin password 1'
serve_scratch "$BIN" "$password" --access-token-ttl 86400 --refresh-token-ttl 86400 --login-attempts-per-minute 10000
token=$(curl -fsS -H 'content-type: application/json' \
    -d "{\"email\":\"admin@example.org\",\"password\":\"$password\"}" "$BASE/api/v1/identity/login" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])')

status=0
"$VENV/bin/st" --no-color --config-file scripts/schemathesis.toml run "$BASE/api/v1/openapi.json" \
    --checks all \
    --phases examples,coverage,fuzzing \
    --max-examples "$MAX_EXAMPLES" \
    --workers 1 \
    --header "Authorization: Bearer $token" \
    --generation-deterministic \
    "${@:2}" || status=$?
if [ $status -ne 0 ]; then
    echo "--- server log (last 40 lines)"
    tail -40 "$WORK/server.log"
fi
exit $status
