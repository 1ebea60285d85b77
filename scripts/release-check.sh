#!/usr/bin/env bash
# Checks a release binary the way a department server would meet it: no glibc symbol newer
# than the floor we promise, `--version` names the build, and a fresh start serves a sign-in.
# Usage: scripts/release-check.sh dist/mentorpay-VERSION-x86_64-linux-gnu [GLIBC_FLOOR]
set -euo pipefail
bin=$(realpath "$1")
floor=${2:-2.28}

newest=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
if [ "$(printf '%s\n%s\n' "$newest" "$floor" | sort -V | tail -1)" != "$floor" ]; then
    echo "release-check: $bin needs glibc $newest, newer than $floor" >&2
    exit 1
fi
echo "release-check: newest glibc symbol $newest (floor $floor)"

version=$("$bin" --version)
echo "release-check: $version"
grep -Eq '^mentorpay [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]{12}, built [0-9]{4}-[0-9]{2}-[0-9]{2}\)$' <<<"$version" || {
    echo "release-check: --version does not name the release, commit and build date" >&2
    exit 1
}

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password='release check password 1'
MENTORPAY_LOG=warn "$bin" serve --listen "127.0.0.1:$port" \
    --database-url "sqlite://$work/mentorpay.db?mode=rwc" --data-dir "$work/data" \
    --admin-email admin@example.org --admin-password "$password" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 150); do
    curl -fsS "$base/api/v1/health" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "$base/login" | grep -q '<div id="root"' || {
    echo "release-check: the embedded UI is not served" >&2
    exit 1
}
curl -fsS -H 'content-type: application/json' \
    -d "{\"email\":\"admin@example.org\",\"password\":\"$password\"}" "$base/api/v1/identity/login" |
    grep -q '"accessToken"' || {
    echo "release-check: signing in failed; server log:" >&2
    tail -20 "$work/server.log" >&2
    exit 1
}
echo "release-check: started $(basename "$bin") on a new database and signed in"
