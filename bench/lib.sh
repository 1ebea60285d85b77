# Sourced first by every bench script (`source "$(dirname "$0")/lib.sh"`): strict mode, the
# repository root as the working folder, and the start every run shares. A script sets its
# PORT (and DURATION) defaults, then calls what it needs:
#   need wrk sqlite3             stops early, saying how to install a missing tool
#   office --participants N…     the release binary, WORK and DB, the database seeded once
#   open_office [FLAGS…]         the server started on it, TOKEN the Administrator's
# or, piece by piece:
#   build_release                BIN, or the release binary of this tree built now
#   work_in                      WORK (the KEEP folder, or a new temporary one), DB its file
#   seed_once --participants N…  seeds DB unless WORK already holds it (a KEEP folder)
#   serve [FLAGS…]               the server on DB in the background: SERVER, BASE
#   sign_in EMAIL PASSWORD       prints an access token
#   measure PATH [CLIENTS]       wrk's latency report of PATH, as $TOKEN (bench/bearer.lua)
#   load                         the machine's load averages, the figures' context
# Every script takes:
#   BIN=path/to/mentorpay   measure that binary instead of building one
# and those that seed a large database:
#   KEEP=/some/dir          seed into that folder once and reuse it on later runs (a newer
#                           binary migrates it on its first start)

set -euo pipefail
cd "$(dirname "$0")/.."

export MENTORPAY_JWT_SECRET="bench secret that is long enough 0123456789"
export MENTORPAY_ADMIN_EMAIL=bench@example.org MENTORPAY_ADMIN_PASSWORD="bench password 123"
export MENTORPAY_LOG=warn

# The seeds' calendar (src/demo/calendar.rs), relative to today like the seed itself: the last
# fiscal year (FY0_*, where most seeded work falls) and the current one (FY1_*), July to June.
FY1_FIRST=$(( $(date -u +%Y) - ($(date -u +%-m) < 7 ? 1 : 0) ))
FY0_FIRST=$(( FY1_FIRST - 1 ))
FY0_NAME="FY $FY0_FIRST-$(printf %02d $(( FY1_FIRST % 100 )))" FY0_START=$FY0_FIRST-07-01 FY0_END=$FY1_FIRST-06-30
FY1_NAME="FY $FY1_FIRST-$(printf %02d $(( (FY1_FIRST + 1) % 100 )))" FY1_START=$FY1_FIRST-07-01 FY1_END=$(( FY1_FIRST + 1 ))-06-30
export FY0_NAME FY0_START FY0_END FY1_NAME FY1_START FY1_END

need() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install -y $tool" >&2; exit 1; }
  done
}

build_release() {
  if [ -z "${BIN:-}" ]; then
    MENTORPAY_SKIP_UI=1 cargo build --release --locked
    BIN=target/release/mentorpay
  fi
}

work_in() {
  WORK=${KEEP:-$(mktemp -d)}
  mkdir -p "$WORK"
  DB="sqlite://$WORK/bench.db?mode=rwc"
}

seed_once() {
  if [ ! -f "$WORK/bench.db" ]; then
    /usr/bin/time -f "seed: %e s wall, %M KB max RSS" "$BIN" seed --database-url "$DB" --data-dir "$WORK/data" "$@"
  fi
}

# The server stops when the script exits, and a temporary WORK goes with it. The first start
# on an older database migrates it (a minute or two at a million rows): the wait is long.
serve() {
  "$BIN" serve --database-url "$DB" --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" "$@" 2>>"$WORK/server.log" &
  SERVER=$!
  BASE="http://127.0.0.1:$PORT"
  trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
  for _ in $(seq 1500); do
    curl -sf "$BASE/api/v1/health" >/dev/null && return
    kill -0 "$SERVER" || { cat "$WORK/server.log"; exit 1; }
    sleep 0.2
  done
  echo "the server did not answer in five minutes" >&2
  exit 1
}

sign_in() {
  curl -sf -H 'Content-Type: application/json' -d "{\"email\":\"$1\",\"password\":\"$2\"}" \
    "$BASE/api/v1/identity/login" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/'
}

# Two wrk threads: the box has two cores, shared by wrk and the server.
measure() {
  wrk -t2 -c"${2:-32}" -d"$DURATION" --latency -s bench/bearer.lua "$BASE$1"
}

office() {
  build_release
  work_in
  seed_once "$@"
}

# Exported for wrk's bench/bearer.lua.
open_office() {
  serve "$@"
  TOKEN=$(sign_in "$MENTORPAY_ADMIN_EMAIL" "$MENTORPAY_ADMIN_PASSWORD")
  export TOKEN
  load
}

load() {
  echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min; $(nproc) cores)"
}
