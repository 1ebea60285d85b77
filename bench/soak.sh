#!/usr/bin/env bash
# Soak (not part of make test): ten minutes of steady mixed load (reads,
# writes, exports) from a bounded client (bench/soak.py: 8 threads with keep-alive
# connections) on loopback against a seeded database, the server's memory sampled every
# 10 s. Passes with zero 5xx and transport errors; the memory table shows whether it stays
# flat. Figures go to docs/benchmarks.md.
#   BIN=path/to/mentorpay   measure that binary instead of building the release one
#   SECONDS_TOTAL=600       length of the run
#   CLIENTS=8               concurrent clients
#   DATABASE_URL=postgres://…  soak on PostgreSQL (an empty database) instead of a SQLite file
#   PG=1                    soak on a throw-away PostgreSQL cluster (scripts/postgres.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${PG:-}" = 1 ] && [ -z "${DATABASE_URL:-}" ]; then
  exec bash scripts/postgres.sh run bash -c 'DATABASE_URL=$MENTORPAY_TEST_DATABASE_URL exec bash bench/soak.sh'
fi

WORK=$(mktemp -d)
PORT=${PORT:-18090}
export MENTORPAY_JWT_SECRET="bench secret that is long enough 0123456789"
export MENTORPAY_ADMIN_EMAIL=bench@example.org MENTORPAY_ADMIN_PASSWORD="bench password 123"
export MENTORPAY_LOG=warn MENTORPAY_ACCESS_TOKEN_TTL=7200 MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE=1000
DB=${DATABASE_URL:-"sqlite://$WORK/soak.db?mode=rwc"}

if [ -z "${BIN:-}" ]; then
  MENTORPAY_SKIP_UI=1 cargo build --release --locked
  BIN=target/release/mentorpay
fi
# A realistic office: 5,000 participants and 50,000 requests in every status.
/usr/bin/time -f "seed: %e s wall" "$BIN" seed --database-url "$DB" --data-dir "$WORK/data" --participants 5000 --requests 50000

"$BIN" serve --database-url "$DB" --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" 2>"$WORK/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$PORT/api/v1/health" >/dev/null && break; kill -0 $SERVER || { cat "$WORK/server.log"; exit 1; }; sleep 0.2; done

echo "box: $(nproc) cores, load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
code=0
python3 bench/soak.py --port "$PORT" --pid "$SERVER" --seconds "${SECONDS_TOTAL:-600}" --clients "${CLIENTS:-8}" || code=$?
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
if grep -q '"status":5\|status=5[0-9][0-9]' "$WORK/server.log"; then
  echo "server log has 5xx lines:"; grep 'status=5\|"status":5' "$WORK/server.log" | head -20
fi
exit $code
