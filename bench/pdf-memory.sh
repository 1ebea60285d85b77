#!/usr/bin/env bash
# Memory of large PDF exports: the release binary on 200,000 seeded requests, then N
# request-details PDFs of every request downloaded at once. Prints the server's resident size
# before (VmRSS) and its peak after (VmHWM). Target: four at once keep the server under 160 MiB.
#   ARGS="--export-slots 4"   server flags (the default lets two exports stream at once)
#   BIN, KEEP: see bench/lib.sh
#   N=4                     downloads at once
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
: "${N:=4}" "${PORT:=18097}"
office --participants 5000 --requests 200000
# shellcheck disable=SC2086
open_office ${ARGS:-}
grep VmRSS /proc/$SERVER/status | sed 's/^/server idle: /'
URL="$BASE/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Pdf"
started=$SECONDS
for i in $(seq "$N"); do
  curl -sf -H "Authorization: Bearer $TOKEN" -o "$WORK/export-$i.pdf" "$URL" &
done
wait $(jobs -p | grep -v "^$SERVER$") 2>/dev/null || true
echo "$N PDFs in $((SECONDS - started)) s, $(stat -c %s "$WORK/export-1.pdf") bytes each"
grep VmHWM /proc/$SERVER/status | sed "s/^/server peak with $N at once: /"
