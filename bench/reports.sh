#!/usr/bin/env bash
# Reports at scale: release build, 100,000 participants and 1,000,000 seeded
# requests. Targets: a report's first page p99 < 50 ms at 32 clients (wrk -t2 -c32); a
# 100,000-row CSV export first byte < 200 ms and done < 0.5 s; the same rows as XLSX < 3 s
# with the server's peak RSS < 150 MB; a 10,000-row PDF < 5 s. Figures go to
# docs/benchmarks.md ("Reports").
#   BIN, KEEP: see bench/lib.sh
#   DURATION=20s            per measured URL
#   RUNS=3                  runs of each export (each printed, and their median)
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
need wrk sqlite3
: "${PORT:=18090}" "${DURATION:=20s}"
office --participants 100000 --requests 1000000
# shellcheck source=bench/big-office.sh
source bench/big-office.sh
open_office
AUTH="Authorization: Bearer $TOKEN"

count() { curl -sf -H "$AUTH" "$BASE$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["totalCount"])'; }

# The first EndDate from 1 October of the last fiscal year at which approvals reach $1 rows (reimbursements): a
# doubling search for a day count past it, then bisection to the day.
window_for() {
  local want=$1 lo=0 hi=1 mid
  n_at() { count "/api/v1/reports/mentor-program-reimbursements?StartDate=$FY0_FIRST-10-01&EndDate=$(date -d "$FY0_FIRST-10-01 + $1 days" +%F)&Size=1"; }
  while [ "$(n_at $hi)" -lt "$want" ]; do lo=$hi; hi=$(( hi * 2 )); done
  while [ $(( hi - lo )) -gt 1 ]; do
    mid=$(( (lo + hi) / 2 ))
    if [ "$(n_at $mid)" -ge "$want" ]; then hi=$mid; else lo=$mid; fi
  done
  echo "StartDate=$FY0_FIRST-10-01&EndDate=$(date -d "$FY0_FIRST-10-01 + $hi days" +%F) $(n_at $hi)"
}

export_run() { # label, path: RUNS runs (3), each one's time and their median, since the box is shared
  local out code first total size firsts=() totals=()
  for _ in $(seq "${RUNS:-3}"); do
    out=$(curl -s -o "$WORK/export.bin" -w '%{http_code} %{time_starttransfer} %{time_total} %{size_download}' -H "$AUTH" "$BASE$2")
    read -r code first total size <<<"$out"
    firsts+=("$(echo "$first*1000/1" | bc)"); totals+=("$(echo "$total*1000/1" | bc)")
  done
  local median_first median_total
  median_first=$(printf '%s\n' "${firsts[@]}" | sort -n | sed -n "$(( (${#firsts[@]} + 1) / 2 ))p")
  median_total=$(printf '%s\n' "${totals[@]}" | sort -n | sed -n "$(( (${#totals[@]} + 1) / 2 ))p")
  printf '== %s: HTTP %s, first byte %s ms, done %s ms (median of %s ms), %s bytes\n' "$1" "$code" "$median_first" "$median_total" "$(IFS=/; echo "${totals[*]}")" "$size"
}

lines() { echo "   (CSV lines: $(( $(wc -l < "$WORK/export.bin") - 1 )))"; }

# Exports first, on a fresh server, so the peak RSS is the XLSX export's.
read -r W100 N100 <<<"$(window_for 100000)"
echo "100k window: $W100 ($N100 rows)"
grep VmHWM /proc/$SERVER/status | sed 's/^/server before exports: /'
export_run "XLSX, $N100 rows" "/api/v1/reports/mentor-program-reimbursements/retrieve?ReportFormat=Xlsx&$W100"
grep VmHWM /proc/$SERVER/status | sed 's/^/server peak after the XLSX export: /'
export_run "CSV, $N100 rows" "/api/v1/reports/mentor-program-reimbursements/retrieve?ReportFormat=Csv&$W100"; lines
export_run "CSV, participants (100,000 rows, 5 name lists each)" "/api/v1/reports/participants/retrieve?ReportFormat=Csv"
# The other row exports at about the same size: every approval of the window, the request
# details of one program in two statuses, and every request of the commonest form type with
# its form's fields (about 72,000 at this size).
export_run "CSV, all approvals of the same window" "/api/v1/reports/all-approvals/retrieve?ReportFormat=Csv&$W100"; lines
export_run "CSV, request details, one program, two statuses" "/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Csv&MentorProgramId=2&FormStatus=ReadyForProcessing,Processed"; lines
export_run "CSV, every F1 request with its form fields" "/api/v1/reports/payment-requests/F1/Csv/retrieve"; lines
read -r W10 N10 <<<"$(window_for 10000)"
export_run "PDF, $N10 rows" "/api/v1/reports/mentor-program-reimbursements/retrieve?ReportFormat=Pdf&$W10"
command -v pdfinfo >/dev/null && pdfinfo "$WORK/export.bin" | grep -E "^Pages" | sed 's/^/   /'
grep VmHWM /proc/$SERVER/status | sed 's/^/server peak after every export: /'
# The heap and the binary's pages, apart.
echo "   of which now: $(grep -E '^(RssAnon|RssFile)' /proc/$SERVER/status | tr -s ' \t' ' ' | paste -sd, -)"

run() { # label, path
  echo "== $1 ($(count "$2") rows match): $2"
  measure "$2" | grep -E "Latency  |50%|90%|99%|Requests/sec|Non-2xx"
}
# The oldest fiscal year (the list is newest first): the last fiscal year holds most seeded requests.
FY=$(curl -sf -H "$AUTH" "$BASE/api/v1/system-settings/fiscal-years" | python3 -c 'import json,sys; y=json.load(sys.stdin); print(y[-1]["id"] if y else "")')
FYQ=${FY:+&FiscalYearId=$FY}
run "reimbursements, first page, default sort" "/api/v1/reports/mentor-program-reimbursements?Size=25"
run "reimbursements, one program" "/api/v1/reports/mentor-program-reimbursements?MentorProgramId=2&Size=25"
run "reimbursements, one program and fiscal year" "/api/v1/reports/mentor-program-reimbursements?MentorProgramId=2$FYQ&Size=25"
run "participants, first page" "/api/v1/reports/participants?Size=25"
run "approvals by request type, all years" "/api/v1/reports/approvals-by-request-type?Size=25"
run "approvals by request type, one fiscal year" "/api/v1/reports/approvals-by-request-type?Size=25$FYQ"
run "actual vs budget, all years" "/api/v1/reports/actual-vs-budget?Size=25"
run "actual vs budget, one fiscal year" "/api/v1/reports/actual-vs-budget?Size=25$FYQ"
run "approvals by accounts, one fiscal year" "/api/v1/reports/approvals-by-accounts?Size=25$FYQ"
run "all approvals, first page" "/api/v1/reports/all-approvals?Size=25"
run "all approvals, one program and fiscal year" "/api/v1/reports/all-approvals?MentorProgramId=2$FYQ&Size=25"
# Date windows (the exports' ~100,000-approval window): no kept totals answer them, and at
# 32 clients every call outlasts wrk's timeout, so each is timed alone, three calls in a row.
alone() { # label, path
  printf '== %s, alone: %s s\n' "$1" "$(for _ in 1 2 3; do curl -s -o /dev/null -w '%{time_total} ' -H "$AUTH" "$BASE$2"; done)"
}
alone "reimbursements, a window of $N100 approvals" "/api/v1/reports/mentor-program-reimbursements?Size=25&$W100"
alone "approvals by request type, the same window" "/api/v1/reports/approvals-by-request-type?Size=25&$W100"
alone "actual vs budget, the same window" "/api/v1/reports/actual-vs-budget?Size=25&$W100"
alone "approvals by accounts, the same window" "/api/v1/reports/approvals-by-accounts?Size=25&$W100"
alone "all approvals, the same window" "/api/v1/reports/all-approvals?Size=25&$W100"
echo "machine load after: $(cut -d' ' -f1-3 /proc/loadavg)"
