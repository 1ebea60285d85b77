#!/usr/bin/env bash
# Payment request list and summary under load (issue 4): release build, 1,000,000 seeded
# requests, 32 concurrent clients with wrk. Targets: list p99 < 25 ms, summary p99 < 50 ms.
# Figures go to docs/benchmarks-requests.md.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 1; }

WORK=$(mktemp -d)
DB="sqlite://$WORK/bench.db?mode=rwc"
PORT=${PORT:-18080}
export MENTORPAY_SKIP_UI=1 MENTORPAY_JWT_SECRET="bench secret that is long enough 0123456789"
export MENTORPAY_ADMIN_EMAIL=bench@example.org MENTORPAY_ADMIN_PASSWORD="bench password 123"

cargo build --release
BIN=target/release/mentorpay
time "$BIN" seed --database-url "$DB" --data-dir "$WORK/data" --participants 20000 --requests 1000000

"$BIN" serve --database-url "$DB" --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --log-format json 2>"$WORK/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/api/v1/health" >/dev/null && break; sleep 0.2; done

TOKEN=$(curl -sf -H 'Content-Type: application/json' \
  -d "{\"email\":\"$MENTORPAY_ADMIN_EMAIL\",\"password\":\"$MENTORPAY_ADMIN_PASSWORD\"}" \
  "http://127.0.0.1:$PORT/api/v1/identity/login" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
export TOKEN

run() { # name, path
  echo "== $1: $2"
  wrk -t4 -c32 -d20s --latency -s bench/bearer.lua "http://127.0.0.1:$PORT$2" | tee "$WORK/$1.txt"
}
run list "/api/v1/payment-requests?MentorProgramId=3&FormStatus=Submitted&IsSubmittedOnSortedAscending=false&Page=2&Size=25"
run list-approved "/api/v1/payment-requests?FormStatus=Approved&ApprovedStart=2025-07-01&ApprovedEnd=2026-06-30&IsApprovedAmountSortedAscending=false"
run summary "/api/v1/payment-requests/summary?mentorProgramId=3"
run summary-all "/api/v1/payment-requests/summary"
