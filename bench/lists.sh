#!/usr/bin/env bash
# Every list shape under load next to the health route, in one run: release build,
# `mentorpay seed --participants 100000 --requests 1000000`, then `wrk -t2 -c32` (32 clients,
# 2 threads: the box has two cores, shared by wrk and the server) against each URL in turn,
# and a table of req/s, p99 and the targets:
#   - the signed-in tiny list (funds) at >= 50 % of the health route's req/s;
#   - every request-list shape, the participant searches and the summary at p99 <= 25 ms;
#   - the request list (program + Submitted) at >= 15 % of the health route's req/s;
#   - the requests waiting for a second Administrator (`WaitingForMe=true`, every seeded
#     Submitted request's step is hers to take) and her home summary at p99 <= 25 ms.
# Figures go to docs/benchmarks.md.
#   BIN, KEEP: see bench/lib.sh
#   DURATION=15s            per measured URL
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
need wrk sqlite3
: "${PORT:=18081}" "${DURATION:=15s}"
office --participants 100000 --requests 1000000
APPROVER=approver@example.org APPROVER_PASSWORD="approver password 123"
if ! sqlite3 "$WORK/bench.db" "SELECT 1 FROM users WHERE email = '$APPROVER'" | grep -q 1; then
  MENTORPAY_NEW_USER_PASSWORD=$APPROVER_PASSWORD "$BIN" user --database-url "$DB" --data-dir "$WORK/data" \
    create --email "$APPROVER" --first-name Second --last-name Approver >/dev/null
fi
open_office

RESULTS=$(mktemp)
run() { # key, label, path
  local count out rps p99
  count=$(curl -sf -H "Authorization: Bearer $TOKEN" "$BASE$3" | python3 -c '
import json, sys
d = json.load(sys.stdin)
if isinstance(d, dict) and "totalCount" in d:
    print(str(d["totalCount"]) + ("" if d.get("totalCountIsExact", True) else "+"))
elif isinstance(d, list):
    print(sum(e.get("count", 1) for e in d))
else:
    print("-")')
  out=$(measure "$3")
  if grep -q "Non-2xx" <<<"$out"; then echo "$2: non-2xx answers" >&2; grep "Non-2xx" <<<"$out" >&2; fi
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$count" "$rps" "$p99" >>"$RESULTS"
  printf '%-62s %10s matches %10s req/s  p99 %s\n' "$2" "$count" "$rps" "$p99"
}
P=/api/v1/payment-requests
run health "health (the box's ceiling)" "/api/v1/health"
run funds "funds (signed in, a tiny list)" "/api/v1/funds"
run list "requests: program + Submitted, newest first, page 2" "$P?MentorProgramId=3&FormStatus=Submitted&IsSubmittedOnSortedAscending=false&Page=2&Size=25"
run shape "requests: program + two statuses + form type" "$P?MentorProgramId=1&FormStatus=Approved,ReadyForProcessing&FormType=F3&IsSubmittedOnSortedAscending=true&Size=25"
run shape "requests: form type only, newest first" "$P?FormType=F7&Size=25"
run shape "requests: approved in a fiscal year, by amount" "$P?FormStatus=Approved&ApprovedStart=$FY0_START&ApprovedEnd=$FY0_END&IsApprovedAmountSortedAscending=false&Size=25"
run shape "participants: Active + FullName contains \"an\"" "/api/v1/participants?Status=Active&FullName=an&Size=25"
run shape "participants: FullName contains \"mar\" (trigram index)" "/api/v1/participants?FullName=mar&Size=25"
run shape "participants: Active + Email contains \"son\"" "/api/v1/participants?Status=Active&Email=son&Size=25"
run shape "summary of one program" "$P/summary?mentorProgramId=3"
TOKEN=$(sign_in "$APPROVER" "$APPROVER_PASSWORD")
run shape "requests waiting for a second Administrator, page 1" "$P?WaitingForMe=true&Size=25"
run shape "requests waiting for her in one program, oldest first" "$P?WaitingForMe=true&MentorProgramId=3&IsSubmittedOnSortedAscending=true&Size=25"
run shape "her home: the summary with what waits for her" "$P/summary"

python3 - "$RESULTS" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
def ms(v):  # wrk prints 850.00us, 1.23ms, 1.02s
    for unit, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if v.endswith(unit):
            return float(v[: -len(unit)]) * factor
    return float(v)
health = float(next(r for r in rows if r[0] == "health")[3])
print("\n| call | matches | req/s | % of health | p99 | target |\n|---|---|---|---|---|---|")
for key, label, count, rps, p99 in rows:
    share = 100 * float(rps) / health
    if key == "funds":
        target = f">= 50 % of health: {'met' if share >= 50 else 'NOT met'}"
    elif key == "list":
        ok = share >= 15 and ms(p99) <= 25
        target = f">= 15 % of health, p99 <= 25 ms: {'met' if ok else 'NOT met'}"
    elif key == "shape":
        target = f"p99 <= 25 ms: {'met' if ms(p99) <= 25 else 'NOT met'}"
    else:
        target = ""
    print(f"| {label} | {count} | {float(rps):,.0f} | {share:.0f} % | {p99} | {target} |")
PY
rm -f "$RESULTS"
