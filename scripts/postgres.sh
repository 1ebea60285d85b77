#!/usr/bin/env bash
# A throw-away PostgreSQL cluster on loopback, for the tests (never for production data).
#
#   postgres.sh run CMD…   start a cluster in a new temporary folder, run CMD with
#                          MENTORPAY_TEST_DATABASE_URL pointing at it, then stop and remove it
#   postgres.sh start DIR  create (first time) and start a cluster kept in DIR; prints its URL
#   postgres.sh stop DIR   stop that cluster (fast shutdown), keeping its files
#
# Root cannot run the server, so as root the cluster belongs to Debian's unprivileged
# `postgres` user (runuser); anyone else runs it as themselves. It listens on 127.0.0.1 only,
# on a free port, with its socket inside DIR, password authentication (a random password in
# the URL), and durability off (fsync, full pages): the data is thrown away anyway.
# `make deps` installs Debian's `postgresql` when the server binaries are missing.
set -euo pipefail

pg_bin() {
    local dir=${PG_BINDIR:-}
    if [ -z "$dir" ]; then
        dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    fi
    if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
        echo "postgres.sh: PostgreSQL server binaries not found (apt-get install -y postgresql, or set PG_BINDIR)" >&2
        exit 1
    fi
    echo "$dir"
}

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# A port nobody listens on (bash's /dev/tcp: a refused connection means free).
free_port() {
    local port
    for _ in $(seq 1 200); do
        # Below Linux's ephemeral range (32768 and up): a cluster restarted on its port must find
        # it free, and an outgoing connection made meanwhile could otherwise take it.
        port=$((20000 + RANDOM % 12000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    echo "postgres.sh: no free port found" >&2
    exit 1
}

start() {
    local dir=$1 bin
    bin=$(pg_bin)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$dir/password"
        [ "$(id -u)" = 0 ] && chown postgres: "$dir/password"
        chmod 600 "$dir/password"
        as_owner "$bin/initdb" -D "$dir/data" -U mentorpay --pwfile="$dir/password" -A scram-sha-256 \
            -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
        free_port >"$dir/port"
    fi
    local port
    port=$(cat "$dir/port")
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o \
        "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=400 -c shared_buffers=64MB \
         -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null \
        || { tail -n 20 "$dir/server.log" >&2; exit 1; }
    echo "postgres://mentorpay:$(cat "$dir/password")@127.0.0.1:$port/postgres"
}

stop() {
    local dir=$1
    as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}

run() {
    local dir url code=0
    dir=$(mktemp -d "${TMPDIR:-/tmp}/mentorpay-pg.XXXXXX")
    # shellcheck disable=SC2064
    trap "stop '$dir' 2>/dev/null || true; rm -rf '$dir'" EXIT
    url=$(start "$dir")
    echo "postgres.sh: throw-away cluster on 127.0.0.1:$(cat "$dir/port") ($dir)" >&2
    MENTORPAY_TEST_DATABASE_URL=$url "$@" || code=$?
    return "$code"
}

case "${1:-}" in
    run) shift; run "$@" ;;
    start) start "$2" ;;
    stop) stop "$2" ;;
    *) echo "usage: $0 run CMD… | start DIR | stop DIR" >&2; exit 2 ;;
esac
