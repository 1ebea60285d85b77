# Sourced by the scripts that check a built binary over HTTP (fuzz-api.sh, release-check.sh):
#   serve_scratch BIN PASSWORD [FLAGS…]
# starts BIN on a new SQLite database in a temporary folder, on a free loopback port, with the
# Administrator admin@example.org / PASSWORD, and waits until it answers. Sets WORK (the folder,
# server.log is in it) and BASE (the server's address); when the script exits, the server
# stops and the folder goes.
serve_scratch() {
    local bin=$1 password=$2 port
    shift 2
    WORK=$(mktemp -d)
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    MENTORPAY_LOG=warn "$bin" serve --listen "127.0.0.1:$port" \
        --database-url "sqlite://$WORK/mentorpay.db?mode=rwc" --data-dir "$WORK/data" \
        --admin-email admin@example.org --admin-password "$password" "$@" >"$WORK/server.log" 2>&1 &
    SERVER=$!
    trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
    BASE="http://127.0.0.1:$port"
    for _ in $(seq 1 150); do
        curl -fsS "$BASE/api/v1/health" >/dev/null 2>&1 && return 0
        kill -0 "$SERVER" 2>/dev/null || break
        sleep 0.2
    done
    echo "$(basename "$bin") did not answer on $BASE; server log:" >&2
    tail -20 "$WORK/server.log" >&2
    exit 1
}
