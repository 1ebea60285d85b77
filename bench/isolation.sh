#!/usr/bin/env bash
# Heavy reads beside everyday calls, on the big office (bench/big-office.sh): 30 clients pull
# report pages over the first quarter of 2026 (10 each on mentor-program reimbursements, all
# approvals and actual vs budget) while 8 clients call a signed-in tiny list (funds).
# Targets: the tiny list p99 <= 50 ms with no errors; every report page answers (no errors,
# no timeouts at 10 s) with p99 <= 2 s; the server's peak RSS <= 160 MiB.
# Figures go to docs/benchmarks.md ("Heavy reads beside everyday calls").
#   BIN=path/to/mentorpay   measure that binary instead of building one
#   KEEP=/some/dir          seed into that folder once and reuse it on later runs
#   DURATION=30s            length of the measured run
#   ARGS="--report-slots 4" extra flags for the server (to compare shares)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 missing: apt-get install -y sqlite3" >&2; exit 1; }

WORK=${KEEP:-$(mktemp -d)}
mkdir -p "$WORK"
DB="sqlite://$WORK/bench.db?mode=rwc"
PORT=${PORT:-18091}
DURATION=${DURATION:-30s}
BASE="http://127.0.0.1:$PORT"
export MENTORPAY_JWT_SECRET="bench secret that is long enough 0123456789"
export MENTORPAY_ADMIN_EMAIL=bench@example.org MENTORPAY_ADMIN_PASSWORD="bench password 123"
export MENTORPAY_LOG=warn MENTORPAY_ACCESS_TOKEN_TTL=7200

if [ -z "${BIN:-}" ]; then
  MENTORPAY_SKIP_UI=1 cargo build --release --locked
  BIN=target/release/mentorpay
fi
# shellcheck source=bench/big-office.sh
source bench/big-office.sh

# shellcheck disable=SC2086
"$BIN" serve --database-url "$DB" --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" ${ARGS:-} 2>"$WORK/server.log" &
SERVER=$!
if [ -n "${KEEP:-}" ]; then trap 'kill $SERVER 2>/dev/null' EXIT; else trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT; fi
for _ in $(seq 900); do curl -sf "$BASE/api/v1/health" >/dev/null && break; kill -0 $SERVER || { cat "$WORK/server.log"; exit 1; }; sleep 0.2; done
TOKEN=$(curl -sf -H 'Content-Type: application/json' \
  -d "{\"email\":\"$MENTORPAY_ADMIN_EMAIL\",\"password\":\"$MENTORPAY_ADMIN_PASSWORD\"}" \
  "$BASE/api/v1/identity/login" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
export TOKEN
echo "machine load before measuring: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
echo "server flags: ${ARGS:-(defaults)}"

Q1="StartDate=2026-01-01&EndDate=2026-03-31&Size=25"
measure() { # label, clients, path
  wrk -t1 -c"$2" -d"$DURATION" --timeout 10s --latency -s bench/bearer.lua "$BASE$3" >"$WORK/wrk-$1.txt" 2>&1
}

echo "== the tiny list alone (8 clients)"
DURATION=10s measure alone 8 /api/v1/funds
grep -E "99%|Requests/sec" "$WORK/wrk-alone.txt"

measure reimbursements 10 "/api/v1/reports/mentor-program-reimbursements?$Q1" &
measure approvals 10 "/api/v1/reports/all-approvals?$Q1" &
measure actual 10 "/api/v1/reports/actual-vs-budget?$Q1" &
sleep 2 # the report clients are all busy before the tiny list is measured
measure funds 8 /api/v1/funds &
wait $(jobs -p | grep -v "^$SERVER$")

for name in funds reimbursements approvals actual; do
  echo "== $name"
  grep -E "99%|Requests/sec|Non-2xx|Socket errors" "$WORK/wrk-$name.txt" || true
done
grep -E '^(VmHWM|VmRSS)' /proc/$SERVER/status | sed 's/^/server /'
