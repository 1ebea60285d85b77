#!/usr/bin/env bash
# Runs schemathesis (pinned, in its own virtual environment) against the built binary
# with a signed-in Administrator: every operation of /api/v1/openapi.json, every check.
# Bounded: a few examples per operation. Usage: scripts/fuzz-api.sh [path/to/mentorpay]
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
BIN=${1:-target/debug/mentorpay}
VENV=.venv-schemathesis
MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-10}

if [ ! -x "$VENV/bin/st" ] || ! "$VENV/bin/st" --version | grep -q "$SCHEMATHESIS_VERSION"; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password='fuzzing admin password 1'
MENTORPAY_LOG=warn "$BIN" serve --listen "127.0.0.1:$port" --database-url "sqlite://$work/fuzz.db?mode=rwc" \
    --data-dir "$work/data" --admin-email admin@example.org --admin-password "$password" \
    --access-token-ttl 86400 --refresh-token-ttl 86400 --login-attempts-per-minute 10000 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT

base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -fsS "$base/api/v1/health" >/dev/null 2>&1 && break
    sleep 0.2
done
token=$(curl -fsS -H 'content-type: application/json' \
    -d "{\"email\":\"admin@example.org\",\"password\":\"$password\"}" "$base/api/v1/identity/login" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])')

status=0
"$VENV/bin/st" --no-color --config-file scripts/schemathesis.toml run "$base/api/v1/openapi.json" \
    --checks all \
    --phases examples,coverage,fuzzing \
    --max-examples "$MAX_EXAMPLES" \
    --workers 1 \
    --header "Authorization: Bearer $token" \
    --generation-deterministic \
    "${@:2}" || status=$?
if [ $status -ne 0 ]; then
    echo "--- server log (last 40 lines)"
    tail -40 "$work/server.log"
fi
exit $status
