#!/usr/bin/env bash
# Checks a release binary the way a department server would meet it: no glibc symbol newer
# than the floor we promise, `--version` names the build, and a fresh start serves a sign-in.
# Usage: scripts/release-check.sh dist/mentorpay-VERSION-x86_64-linux-gnu [GLIBC_FLOOR]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scratch-server.sh"
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

password='release check password 1'
serve_scratch "$bin" "$password"
curl -fsS "$BASE/login" | grep -q '<div id="root"' || {
    echo "release-check: the embedded UI is not served" >&2
    exit 1
}
curl -fsS -H 'content-type: application/json' \
    -d "{\"email\":\"admin@example.org\",\"password\":\"$password\"}" "$BASE/api/v1/identity/login" |
    grep -q '"accessToken"' || {
    echo "release-check: signing in failed; server log:" >&2
    tail -20 "$WORK/server.log" >&2
    exit 1
}
echo "release-check: started $(basename "$bin") on a new database and signed in"
