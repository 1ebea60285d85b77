#!/usr/bin/env bash
# Participant import at its limit: release build, a fresh temporary database, the real server,
# a 10,000-row CSV (every column filled, each row adding a participation). Times the dry run
# (the preview), the real run (all rows created in one transaction) and the same file again
# (every row unchanged). Needs curl and python3.
# BIN: see bench/lib.sh
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
: "${ROWS:=10000}" "${PORT:=18091}"
KEEP= # a fresh database each run
build_release
work_in
DIR=$WORK
open_office
curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d "{\"name\":\"$FY1_NAME\",\"startDate\":\"$FY1_START\",\"endDate\":\"$FY1_END\"}" \
  $BASE/api/v1/system-settings/fiscal-years
python3 - "$DIR/people.csv" "$ROWS" "$FY1_NAME" "${FY1_FIRST}-08-01" <<'PY'
import csv, sys
path, rows, year, start = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
header = ["firstName", "lastName", "email", "phone", "address", "status", "roleCode",
          "districtSetType", "districtId", "caucusRegion", "workplaceSettings", "languages",
          "educationLevels", "permitLevels", "mentorProgram", "fiscalYear", "programRole",
          "college", "startDate"]
with open(path, "w", newline="", encoding="utf-8-sig") as f:
    w = csv.writer(f)
    w.writerow(header)
    for i in range(rows):
        w.writerow([f"Ana{i}", "Núñez", f"person{i}@example.org", "(916) 555-0100",
                    "1 Capitol Mall, Sacramento", "Active", "Mentor", "Assembly", str(i % 80 + 1),
                    "Bay Area", "Child care center;Head Start", "english;SPANISH",
                    "Bachelor's degree", "Teacher", "Director Mentor Program", year,
                    "Mentor", "canada college", start])
PY
ls -l "$DIR/people.csv" | awk '{print "file: " $5 " bytes"}'
run() { # label, DryRun
  curl -s -o "$DIR/out.json" -w "$1: HTTP %{http_code} in %{time_total} s\n" \
    -H "Authorization: Bearer $TOKEN" -F "file=@$DIR/people.csv" \
    "$BASE/api/v1/participants/import?DryRun=$2"
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("  rows %s created %s updated %s unchanged %s errors %s" % (r["rows"], r["created"], r["updated"], r["unchanged"], len(r["errors"])))' "$DIR/out.json"
}
run "preview (dry run, $ROWS new rows)" true
run "import (real run, $ROWS rows created)" false
run "same file again (dry run, all unchanged)" true
