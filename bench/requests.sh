#!/usr/bin/env bash
# Payment request list and summary under load: release build, 1,000,000 seeded
# requests over 20,000 participants, 32 concurrent clients with wrk (2 threads: the box has
# two cores, shared with the server). Targets: list p99 < 25 ms, summary < 50 ms.
# Figures go to docs/benchmarks.md.
#   BIN, KEEP: see bench/lib.sh
#   DURATION=20s            per measured URL
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
need wrk
: "${PORT:=18080}" "${DURATION:=20s}"
office --participants 20000 --requests 1000000
open_office

run() { # label, path
  local total
  total=$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE$2" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["totalCount"] if isinstance(d, dict) else sum(e["count"] for e in d))')
  echo "== $1 ($total requests match): $2"
  measure "$2" | grep -E "Latency  |50%|90%|99%|Requests/sec|Non-2xx"
}
run "list: program + status, by submitted date, page 2" "/api/v1/payment-requests?MentorProgramId=3&FormStatus=Submitted&IsSubmittedOnSortedAscending=false&Page=2&Size=25"
run "list: program + two statuses + form type, by submitted date" "/api/v1/payment-requests?MentorProgramId=1&FormStatus=Approved,ReadyForProcessing&FormType=F3&IsSubmittedOnSortedAscending=true&Size=25"
run "list: approved in a fiscal year, by approved amount" "/api/v1/payment-requests?FormStatus=Approved&ApprovedStart=$FY0_START&ApprovedEnd=$FY0_END&IsApprovedAmountSortedAscending=false&Size=25"
run "summary: one program" "/api/v1/payment-requests/summary?mentorProgramId=3"
run "summary: every program" "/api/v1/payment-requests/summary"
