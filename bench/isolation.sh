#!/usr/bin/env bash
# Heavy reads beside everyday calls, on the big office (bench/big-office.sh): 30 clients pull
# report pages over the first calendar quarter of the last fiscal year (10 each on mentor-program reimbursements, all
# approvals and actual vs budget) while 8 clients call a signed-in tiny list (funds).
# Targets: the tiny list p99 <= 50 ms with no errors; every report page answers (no errors,
# no timeouts at 10 s) with p99 <= 2 s; the server's peak RSS <= 160 MiB.
# Figures go to docs/benchmarks.md ("Heavy reads beside everyday calls").
#   BIN, KEEP: see bench/lib.sh
#   DURATION=30s            length of the measured run
#   ARGS="--report-slots 4" extra flags for the server (to compare shares)
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
need wrk sqlite3
export MENTORPAY_ACCESS_TOKEN_TTL=7200
: "${PORT:=18091}" "${DURATION:=30s}"
office --participants 100000 --requests 1000000
# shellcheck source=bench/big-office.sh
source bench/big-office.sh
# shellcheck disable=SC2086
open_office ${ARGS:-}
echo "server flags: ${ARGS:-(defaults)}"

Q1="StartDate=$FY1_FIRST-01-01&EndDate=$FY1_FIRST-03-31&Size=25"
drive() { # label, clients, path: wrk with one thread, its report kept in WORK
  wrk -t1 -c"$2" -d"$DURATION" --timeout 10s --latency -s bench/bearer.lua "$BASE$3" >"$WORK/wrk-$1.txt" 2>&1
}

echo "== the tiny list alone (8 clients)"
DURATION=10s drive alone 8 /api/v1/funds
grep -E "99%|Requests/sec" "$WORK/wrk-alone.txt"

drive reimbursements 10 "/api/v1/reports/mentor-program-reimbursements?$Q1" &
drive approvals 10 "/api/v1/reports/all-approvals?$Q1" &
drive actual 10 "/api/v1/reports/actual-vs-budget?$Q1" &
sleep 2 # the report clients are all busy before the tiny list is measured
drive funds 8 /api/v1/funds &
wait $(jobs -p | grep -v "^$SERVER$")

for name in funds reimbursements approvals actual; do
  echo "== $name"
  grep -E "99%|Requests/sec|Non-2xx|Socket errors" "$WORK/wrk-$name.txt" || true
done
grep -E '^(VmHWM|VmRSS)' /proc/$SERVER/status | sed 's/^/server /'
