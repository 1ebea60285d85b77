#!/usr/bin/env bash
# Soak (not part of make test): ten minutes of steady mixed load (reads,
# writes, exports) from a bounded client (bench/soak.py: 8 threads with keep-alive
# connections) on loopback against a seeded database, the server's memory sampled every
# 10 s. Passes with zero 5xx and transport errors; the memory table shows whether it stays
# flat. Figures go to docs/benchmarks.md.
#   BIN: see bench/lib.sh
#   SECONDS_TOTAL=600       length of the run
#   CLIENTS=8               concurrent clients
#   DATABASE_URL=postgres://…  soak on PostgreSQL (an empty database) instead of a SQLite file
#   PG=1                    soak on a throw-away PostgreSQL cluster (scripts/postgres.sh)
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
if [ "${PG:-}" = 1 ] && [ -z "${DATABASE_URL:-}" ]; then
  exec bash scripts/postgres.sh run bash -c 'DATABASE_URL=$MENTORPAY_TEST_DATABASE_URL exec bash bench/soak.sh'
fi
export MENTORPAY_ACCESS_TOKEN_TTL=7200 MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE=1000
PORT=${PORT:-18090}
build_release
KEEP= # a fresh database each run
work_in
DB=${DATABASE_URL:-$DB}
# A realistic office: 5,000 participants and 50,000 requests in every status.
seed_once --participants 5000 --requests 50000
serve

echo "box: $(nproc) cores, load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
code=0
python3 bench/soak.py --port "$PORT" --pid "$SERVER" --seconds "${SECONDS_TOTAL:-600}" --clients "${CLIENTS:-8}" || code=$?
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
if grep -q '"status":5\|status=5[0-9][0-9]' "$WORK/server.log"; then
  echo "server log has 5xx lines:"; grep 'status=5\|"status":5' "$WORK/server.log" | head -20
fi
exit $code
