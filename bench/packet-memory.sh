#!/usr/bin/env bash
# Memory of a large packet: the release binary, 200 F2 requests with one receipt each (a PDF,
# a PNG and a JPEG in turn), approved, released and paid in one vendor payment, then that
# payment's packet downloaded. Prints the server's resident size before (VmRSS) and its peak
# after (VmHWM). Target: the server stays under 150 MiB.
#   BIN: see bench/lib.sh
#   N=200                   requests in the payment
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
: "${N:=200}" "${PORT:=18098}"
KEEP= # a fresh database each run: it files its own requests
build_release
work_in
serve
ADMIN=$(sign_in "$MENTORPAY_ADMIN_EMAIL" "$MENTORPAY_ADMIN_PASSWORD")
call() { # METHOD PATH [BODY] as the admin, or as $AS
  curl -sf -X "$1" -H "Authorization: Bearer ${AS:-$ADMIN}" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$BASE/api/v1$2"
}
field() { sed -E "s/.*\"$1\":\"?([^\",}]+)\"?.*/\1/"; }
id_of() { sed -E 's/^\{"id":([0-9]+).*/\1/'; }
first_id() { sed -E 's/^\[\{"id":([0-9]+).*/\1/'; }
TODAY=$(date -u +%F)
Y=$(date -u +%Y); M=$(date -u +%-m); [ "$M" -ge 7 ] || Y=$((Y - 1))
FY=$(call POST /system-settings/fiscal-years "{\"name\":\"FY bench\",\"startDate\":\"$Y-07-01\",\"endDate\":\"$((Y + 1))-06-30\"}" | id_of)
PROGRAM=$(call GET /mentor-programs | first_id)
FUND=$(call GET /funds | first_id)
ACCOUNT=$(call GET /expense-accounts | first_id)
CODE=$(call GET /approval-codes | tr '}' '\n' | grep '"paymentRequestType":"F2"' | head -1 | sed -E 's/.*"id":([0-9]+).*/\1/')
PARTICIPATION=$(call POST /participants "{\"firstName\":\"Pat\",\"lastName\":\"Bench\",\"email\":\"pat@example.org\",\"status\":\"Active\",\"roleCode\":\"Mentor\",\"participations\":[{\"mentorProgramId\":$PROGRAM,\"fiscalYearId\":$FY,\"roleCode\":\"Mentor\",\"startDate\":\"$Y-07-01\"}]}" \
  | sed -E 's/.*"participations":\[\{"id":([0-9]+).*/\1/')
call POST /identity/users '{"email":"approver@example.org","firstName":"Ann","lastName":"Approver","roles":["Administrator"],"password":"approver pass 123"}' >/dev/null
APPROVER=$(sign_in approver@example.org "approver pass 123")
RECEIPTS=(tests/fixtures/receipts/receipt.pdf tests/fixtures/receipts/receipt.png tests/fixtures/receipts/receipt.jpg)
TYPES=(application/pdf image/png image/jpeg)
IDS=""
for i in $(seq "$N"); do
  k=$((i % 3)); f=${RECEIPTS[$k]}; t=${TYPES[$k]}
  slot=$(call POST /fileupload/generate-upload-urls "{\"files\":[{\"fileName\":\"receipt-$i\",\"contentType\":\"$t\",\"size\":$(stat -c %s "$f")}]}")
  curl -sf -X PUT -H "Content-Type: $t" --data-binary "@$f" "$BASE$(echo "$slot" | field uploadUrl | sed 's/\\u0026/\&/g')" >/dev/null
  id=$(call POST /payment-requests/F2 "{\"participationId\":$PARTICIPATION,\"description\":\"Bench $i\",\"details\":{\"items\":[{\"date\":\"$TODAY\",\"description\":\"Books\",\"amount\":12.5}],\"fileIds\":[\"$(echo "$slot" | field fileId)\"]}}" | id_of)
  call POST "/payment-requests/F2/$id/submit" '{}' >/dev/null
  AS=$APPROVER call POST "/payment-requests/F2/$id/approve" "{\"approvedAmount\":12.5,\"approvalCodeId\":$CODE,\"fundId\":$FUND,\"expenseAccountId\":$ACCOUNT,\"acknowledgeWarnings\":true}" >/dev/null
  IDS="$IDS${IDS:+,}$id"
done
call POST /payment-requests/move-to-statuses/ready-for-processing/batch "{\"ids\":[$IDS]}" >/dev/null
PREVIEW=$(call GET "/reports/vendor-payments?FiscalYearId=$FY&StartDate=$TODAY&EndDate=$TODAY")
REPORT=$(call POST /reports/vendor-payments "{\"fiscalYearId\":$FY,\"startDate\":\"$TODAY\",\"endDate\":\"$TODAY\",\"expectedCount\":$(echo "$PREVIEW" | field totalCount),\"expectedTotal\":$(echo "$PREVIEW" | sed -E 's/.*"totals":\{[^}]*"amount":([0-9.]+).*/\1/')}" | id_of)
grep VmRSS /proc/$SERVER/status | sed 's/^/server before the packet: /'
started=$SECONDS
curl -sf -H "Authorization: Bearer $ADMIN" -o "$WORK/packet.pdf" "$BASE/api/v1/reports/vendor-payments/history/$REPORT/packet"
echo "packet of $N requests in $((SECONDS - started)) s: $(pdfinfo "$WORK/packet.pdf" | grep Pages), $(stat -c %s "$WORK/packet.pdf") bytes"
grep VmHWM /proc/$SERVER/status | sed "s/^/server peak: /"
