#!/usr/bin/env bash
# Notifications under load, on the release build and a seeded SQLite database (12,000 requests,
# about 3,000 of them approved), with the test SMTP server (tests/smtp/sink.py, aiosmtpd from
# .venv-test: `make test-venv`) as the relay:
#  1. a batch of 500 approved requests moved to ready for processing, timed with their creator's
#     mail off (nothing queued) and then on (500 mails queued in the batch's transaction);
#     targets: the two close, and the batch well under a second;
#  2. 2,000 queued mails drained through the relay by one server; target: under a minute.
# The mails of step 1 and three more batches are queued while the relay is unreachable, so
# they wait; the server is stopped, the waiting mails made due again, and the clock runs from
# the start of a server that reaches the relay until the relay has received all 2,000.
# Figures go to docs/benchmarks.md.
#   BIN: see bench/lib.sh
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
need sqlite3
PYTHON=.venv-test/bin/python
[ -x "$PYTHON" ] || { echo "$PYTHON missing: make test-venv installs aiosmtpd" >&2; exit 1; }
export MENTORPAY_ACCESS_TOKEN_TTL=7200 MENTORPAY_SMTP_HOST=127.0.0.1 MENTORPAY_SMTP_SECURITY=none
PORT=${PORT:-18095}
SMTP_PORT=${SMTP_PORT:-18025}
BASE="http://127.0.0.1:$PORT"
API="$BASE/api/v1"
build_release
KEEP= # a fresh database each run
work_in
seed_once --participants 1000 --requests 12000

SERVER= SINK=
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
  [ -n "$SINK" ] && kill "$SINK" 2>/dev/null && wait "$SINK" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

serve_relay() { # smtp port, retry seconds
  MENTORPAY_SMTP_PORT=$1 MENTORPAY_MAIL_RETRY_SECONDS=$2 \
    "$BIN" serve --database-url "$DB" --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" 2>>"$WORK/server.log" &
  SERVER=$!
  for _ in $(seq 300); do curl -sf "$API/health" >/dev/null && return; kill -0 $SERVER || { cat "$WORK/server.log"; exit 1; }; sleep 0.2; done
}
stop() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
call() { # token, method, path, [body]
  curl -sf -X "$2" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' ${4:+-d "$4"} "$API$3"
}
waiting() { call "$ADMIN" GET "/system-settings/outbox?Size=1" | json 'd["waiting"]'; }

# 1. The relay is unreachable (nothing listens on SMTP_PORT yet): mails wait, retried in an hour.
serve_relay "$SMTP_PORT" 3600
ADMIN=$(sign_in "$MENTORPAY_ADMIN_EMAIL" "$MENTORPAY_ADMIN_PASSWORD")
# The seed's requests were all created by the Administrator; another Administrator moves them,
# so each move is news to their creator.
call "$ADMIN" POST /identity/users '{"email":"mover@example.org","firstName":"Mo","lastName":"Mover","roles":["Administrator"],"password":"mover password 123"}' >/dev/null
MOVER=$(sign_in mover@example.org "mover password 123")
batch() { # label: moves the next 500 approved requests, prints the time
  local ids start end
  ids=$(call "$MOVER" GET "/payment-requests?FormStatus=Approved&Size=500" | json '",".join(str(r["id"]) for r in d["items"])')
  start=$(date +%s%N)
  call "$MOVER" POST /payment-requests/move-to-statuses/ready-for-processing/batch "{\"ids\":[$ids]}" | json 'len(d["moved"])' >"$WORK/moved"
  end=$(date +%s%N)
  printf "%-44s %s requests moved in %d ms, %s mails waiting\n" "$1" "$(cat "$WORK/moved")" $(((end - start) / 1000000)) "$(waiting)"
}
call "$ADMIN" PUT /identity/me/notifications '{"mode":"off"}' >/dev/null
batch "batch of 500, the creator's mail off:"
call "$ADMIN" PUT /identity/me/notifications '{"mode":"instant"}' >/dev/null
batch "batch of 500, the creator's mail on:"
for n in 2 3 4; do batch "batch $n of 500 with mail, for the drain:"; done
stop

# 2. The waiting mails due now; a server that reaches the relay drains them.
sqlite3 "$WORK/bench.db" "UPDATE outbox_mails SET status = 'pending', next_attempt_at = created_at, claimed_until = NULL WHERE status IN ('pending', 'sending');"
QUEUED=$(sqlite3 "$WORK/bench.db" "SELECT count(*) FROM outbox_mails WHERE status = 'pending';")
"$PYTHON" tests/smtp/sink.py "$SMTP_PORT" "$WORK/mails.jsonl" >"$WORK/sink.out" &
SINK=$!
for _ in $(seq 100); do grep -q ready "$WORK/sink.out" 2>/dev/null && break; sleep 0.1; done
start=$(date +%s%N)
serve_relay "$SMTP_PORT" 1
received() { cat "$WORK/mails.jsonl" 2>/dev/null | wc -l; }
while [ "$(received)" -lt "$QUEUED" ]; do
  [ $(($(date +%s%N) - start)) -lt 300000000000 ] || { echo "not drained in 5 minutes" >&2; exit 1; }
  sleep 0.1
done
end=$(date +%s%N)
ADMIN=$(sign_in "$MENTORPAY_ADMIN_EMAIL" "$MENTORPAY_ADMIN_PASSWORD")
sleep 2
printf "drain: %s mails received by the relay in %.1f s (server start included); %s received in all, %s still waiting\n" \
  "$QUEUED" "$(echo "($end - $start) / 1000000000" | bc -l)" "$(received)" "$(waiting)"
