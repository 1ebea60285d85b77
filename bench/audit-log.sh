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
#   BIN, KEEP: see bench/lib.sh
#   DURATION=15s            per measured URL
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
need wrk sqlite3
: "${PORT:=18083}" "${DURATION:=15s}"
office --participants 100000 --requests 1000000
serve

# Three entries a request (created, submitted, approved), after whatever the start wrote.
if [ "$(sqlite3 "$WORK/bench.db" 'SELECT COUNT(*) FROM audit_log')" -lt 1000000 ]; then
  /usr/bin/time -f "audit entries: %e s" sqlite3 "$WORK/bench.db" <<SQL
BEGIN;
INSERT INTO audit_log (id, at, actor_id, actor_email, actor_name, ip, entity_type, entity_id, action, before, after, hash)
  SELECT (SELECT COALESCE(MAX(id), 0) FROM audit_log) + ROW_NUMBER() OVER (ORDER BY r.id, s.n),
    strftime('%Y-%m-%dT%H:%M:%fZ', '$FY0_START', '+' || (r.id * 3 + s.n) || ' seconds'),
    1 + r.id % 40, 'user' || (1 + r.id % 40) || '@example.org', 'Bench User', '10.0.0.1',
    'payment_request', r.id, s.action, s.before, s.after, 'bench'
  FROM payment_requests r,
    (SELECT 0 AS n, 'created' AS action, NULL AS before, '{"status":"Draft"}' AS after
     UNION ALL SELECT 1, 'submitted', '{"status":"Draft"}', '{"status":"Submitted"}'
     UNION ALL SELECT 2, 'approved', '{"status":"Submitted"}', '{"status":"Approved"}') s;
COMMIT;
ANALYZE;
SQL
fi

TOKEN=$(sign_in "$MENTORPAY_ADMIN_EMAIL" "$MENTORPAY_ADMIN_PASSWORD")
export TOKEN
load

run() { # label, path
  local out
  out=$(measure "$2")
  if grep -q "Non-2xx" <<<"$out"; then echo "$1: non-2xx answers" >&2; grep "Non-2xx" <<<"$out" >&2; fi
  printf '%-50s %10s req/s  p99 %s (target <= 50 ms)\n' "$1" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1 == "99%" {print $2}' <<<"$out")"
}
A=/api/v1/audit-log
run "first page, unfiltered" "$A?Page=1&Size=25"
run "one request's history" "$A?EntityType=payment_request&EntityId=500000&Size=25"
run "one user's entries" "$A?ActorId=7&Size=25"
run "one action" "$A?Action=approved&Size=25"
