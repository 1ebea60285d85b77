#!/usr/bin/env bash
# Payment request list and summary under load: release build, 1,000,000 seeded
# requests over 20,000 participants, 32 concurrent clients with wrk (2 threads: the box has
# two cores, shared with the server). Targets: list p99 < 25 ms, summary < 50 ms.
# Figures go to docs/benchmarks.md.
#   BIN=path/to/mentorpay   measure that binary instead of building one
#   KEEP=/some/dir          seed into that folder once and reuse it on later runs
#   DURATION=20s            per measured URL
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 1; }

WORK=${KEEP:-$(mktemp -d)}
mkdir -p "$WORK"
DB="sqlite://$WORK/bench.db?mode=rwc"
PORT=${PORT:-18080}
DURATION=${DURATION:-20s}
export MENTORPAY_JWT_SECRET="bench secret that is long enough 0123456789"
export MENTORPAY_ADMIN_EMAIL=bench@example.org MENTORPAY_ADMIN_PASSWORD="bench password 123"
export MENTORPAY_LOG=warn

if [ -z "${BIN:-}" ]; then
  MENTORPAY_SKIP_UI=1 cargo build --release --locked
  BIN=target/release/mentorpay
fi
if [ ! -f "$WORK/bench.db" ]; then
  /usr/bin/time -f "seed: %e s wall, %M KB max RSS" "$BIN" seed --database-url "$DB" --data-dir "$WORK/data" --participants 20000 --requests 1000000
fi

"$BIN" serve --database-url "$DB" --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" 2>"$WORK/server.log" &
SERVER=$!
if [ -n "${KEEP:-}" ]; then trap 'kill $SERVER 2>/dev/null' EXIT; else trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT; fi
# The first start on an older database migrates it (a minute at 1M rows).
for _ in $(seq 900); do curl -sf "http://127.0.0.1:$PORT/api/v1/health" >/dev/null && break; kill -0 $SERVER || { cat "$WORK/server.log"; exit 1; }; sleep 0.2; done

TOKEN=$(curl -sf -H 'Content-Type: application/json' \
  -d "{\"email\":\"$MENTORPAY_ADMIN_EMAIL\",\"password\":\"$MENTORPAY_ADMIN_PASSWORD\"}" \
  "http://127.0.0.1:$PORT/api/v1/identity/login" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
export TOKEN

run() { # label, path
  local total
  total=$(curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT$2" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["totalCount"] if isinstance(d, dict) else sum(e["count"] for e in d))')
  echo "== $1 ($total requests match): $2"
  wrk -t2 -c32 -d"$DURATION" --latency -s bench/bearer.lua "http://127.0.0.1:$PORT$2" | grep -E "Latency  |50%|90%|99%|Requests/sec|Non-2xx"
}
run "list: program + status, by submitted date, page 2" "/api/v1/payment-requests?MentorProgramId=3&FormStatus=Submitted&IsSubmittedOnSortedAscending=false&Page=2&Size=25"
run "list: program + two statuses + form type, by submitted date" "/api/v1/payment-requests?MentorProgramId=1&FormStatus=Approved,ReadyForProcessing&FormType=F3&IsSubmittedOnSortedAscending=true&Size=25"
run "list: approved in a fiscal year, by approved amount" "/api/v1/payment-requests?FormStatus=Approved&ApprovedStart=2025-07-01&ApprovedEnd=2026-06-30&IsApprovedAmountSortedAscending=false&Size=25"
run "summary: one program" "/api/v1/payment-requests/summary?mentorProgramId=3"
run "summary: every program" "/api/v1/payment-requests/summary"
