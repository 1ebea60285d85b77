#!/usr/bin/env bash
# Memory of large PDF exports: the release binary on 200,000 seeded requests, then N
# request-details PDFs of every request downloaded at once. Prints the server's resident size
# before (VmRSS) and its peak after (VmHWM). Target: four at once keep the server under 160 MiB.
#   ARGS="--export-slots 4"   server flags (the default lets two exports stream at once)
#   BIN=path/to/mentorpay   measure that binary instead of building one
#   KEEP=/some/dir          seed into that folder once and reuse it
#   N=4                     downloads at once
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${KEEP:-$(mktemp -d)}
mkdir -p "$WORK"
N=${N:-4}
PORT=${PORT:-18097}
BASE="http://127.0.0.1:$PORT"
DB="sqlite://$WORK/bench.db?mode=rwc"
export MENTORPAY_JWT_SECRET="bench secret that is long enough 0123456789"
export MENTORPAY_ADMIN_EMAIL=bench@example.org MENTORPAY_ADMIN_PASSWORD="bench password 123"
export MENTORPAY_LOG=warn
if [ -z "${BIN:-}" ]; then
  MENTORPAY_SKIP_UI=1 cargo build --release --locked
  BIN=target/release/mentorpay
fi
if [ ! -f "$WORK/bench.db" ]; then
  /usr/bin/time -f "seed: %e s" "$BIN" seed --database-url "$DB" --data-dir "$WORK/data" --participants 5000 --requests 200000
fi
# shellcheck disable=SC2086
"$BIN" serve --listen "127.0.0.1:$PORT" --database-url "$DB" --data-dir "$WORK/data" ${ARGS:-} >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
for _ in $(seq 300); do curl -sf "$BASE/api/v1/health" >/dev/null && break; sleep 0.2; done
TOKEN=$(curl -sf -H 'Content-Type: application/json' \
  -d "{\"email\":\"$MENTORPAY_ADMIN_EMAIL\",\"password\":\"$MENTORPAY_ADMIN_PASSWORD\"}" \
  "$BASE/api/v1/identity/login" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
grep VmRSS /proc/$SERVER/status | sed 's/^/server idle: /'
URL="$BASE/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Pdf"
started=$SECONDS
for i in $(seq "$N"); do
  curl -sf -H "Authorization: Bearer $TOKEN" -o "$WORK/export-$i.pdf" "$URL" &
done
wait $(jobs -p | grep -v "^$SERVER$") 2>/dev/null || true
echo "$N PDFs in $((SECONDS - started)) s, $(stat -c %s "$WORK/export-1.pdf") bytes each"
grep VmHWM /proc/$SERVER/status | sed "s/^/server peak with $N at once: /"
