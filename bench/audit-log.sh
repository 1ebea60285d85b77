#!/usr/bin/env bash
# The audit trail's first page at office scale: release build, `mentorpay seed --participants
# 100000 --requests 1000000`, then three audit entries per request written straight into the
# file (the seed writes no trail; a bench fixture, so their hashes are not a chain and verify
# would say so), then `wrk -t2 -c32` (32 clients) against:
#   - the first page, unfiltered (newest first; its count is the last id);
#   - one request's history (EntityType + EntityId);
#   - one user's entries (ActorId) and one action;
# Target: p99 <= 50 ms each. Figures go to docs/benchmarks.md. Do not run it on a shared,
# busy machine: the figures would say more about the neighbours than about the trail.
#   BIN=path/to/mentorpay   measure that binary instead of building one
#   KEEP=/some/dir          seed into that folder once and reuse it on later runs
#   DURATION=15s            per measured URL
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk missing: apt-get install -y wrk" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 missing: apt-get install -y sqlite3" >&2; exit 1; }

WORK=${KEEP:-$(mktemp -d)}
mkdir -p "$WORK"
DB="sqlite://$WORK/bench.db?mode=rwc"
PORT=${PORT:-18083}
DURATION=${DURATION:-15s}
export MENTORPAY_JWT_SECRET="bench secret that is long enough 0123456789"
export MENTORPAY_ADMIN_EMAIL=bench@example.org MENTORPAY_ADMIN_PASSWORD="bench password 123"
export MENTORPAY_LOG=warn

if [ -z "${BIN:-}" ]; then
  MENTORPAY_SKIP_UI=1 cargo build --release --locked
  BIN=target/release/mentorpay
fi
if [ ! -f "$WORK/bench.db" ]; then
  /usr/bin/time -f "seed: %e s wall, %M KB max RSS" "$BIN" seed --database-url "$DB" --data-dir "$WORK/data" \
    --participants 100000 --requests 1000000
fi

"$BIN" serve --database-url "$DB" --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" 2>"$WORK/server.log" &
SERVER=$!
if [ -n "${KEEP:-}" ]; then trap 'kill $SERVER 2>/dev/null' EXIT; else trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT; fi
for _ in $(seq 1500); do curl -sf "http://127.0.0.1:$PORT/api/v1/health" >/dev/null && break; kill -0 $SERVER || { cat "$WORK/server.log"; exit 1; }; sleep 0.2; done

# Three entries a request (created, submitted, approved), after whatever the start wrote.
if [ "$(sqlite3 "$WORK/bench.db" 'SELECT COUNT(*) FROM audit_log')" -lt 1000000 ]; then
  /usr/bin/time -f "audit entries: %e s" sqlite3 "$WORK/bench.db" <<'SQL'
BEGIN;
INSERT INTO audit_log (id, at, actor_id, actor_email, actor_name, ip, entity_type, entity_id, action, before, after, hash)
  SELECT (SELECT COALESCE(MAX(id), 0) FROM audit_log) + ROW_NUMBER() OVER (ORDER BY r.id, s.n),
    strftime('%Y-%m-%dT%H:%M:%fZ', '2025-07-01', '+' || (r.id * 3 + s.n) || ' seconds'),
    1 + r.id % 40, 'user' || (1 + r.id % 40) || '@example.org', 'Bench User', '10.0.0.1',
    'payment-request', r.id, s.action, s.before, s.after, 'bench'
  FROM payment_requests r,
    (SELECT 0 AS n, 'created' AS action, NULL AS before, '{"status":"Draft"}' AS after
     UNION ALL SELECT 1, 'submitted', '{"status":"Draft"}', '{"status":"Submitted"}'
     UNION ALL SELECT 2, 'approved', '{"status":"Submitted"}', '{"status":"Approved"}') s;
COMMIT;
ANALYZE;
SQL
fi

TOKEN=$(curl -sf -H 'Content-Type: application/json' \
  -d "{\"email\":\"$MENTORPAY_ADMIN_EMAIL\",\"password\":\"$MENTORPAY_ADMIN_PASSWORD\"}" \
  "http://127.0.0.1:$PORT/api/v1/identity/login" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
export TOKEN
echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"

run() { # label, path
  local out
  out=$(wrk -t2 -c32 -d"$DURATION" --latency -s bench/bearer.lua "http://127.0.0.1:$PORT$2")
  if grep -q "Non-2xx" <<<"$out"; then echo "$1: non-2xx answers" >&2; grep "Non-2xx" <<<"$out" >&2; fi
  printf '%-50s %10s req/s  p99 %s (target <= 50 ms)\n' "$1" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1 == "99%" {print $2}' <<<"$out")"
}
A=/api/v1/audit-log
run "first page, unfiltered" "$A?Page=1&Size=25"
run "one request's history" "$A?EntityType=payment-request&EntityId=500000&Size=25"
run "one user's entries" "$A?ActorId=7&Size=25"
run "one action" "$A?Action=approved&Size=25"
