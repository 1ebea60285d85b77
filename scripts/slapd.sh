#!/usr/bin/env bash
# A throw-away OpenLDAP directory (Debian's slapd) on loopback, for the tests: the way
# postgres.sh keeps PostgreSQL, never for real data.
#
#   slapd.sh start DIR   create a directory in DIR, seed it (tests/ldap/seed.ldif), start it;
#                        prints its URL (ldap://127.0.0.1:PORT)
#   slapd.sh stop DIR    stop it
#
# Suffix dc=agency,dc=test; the service account cn=mentorpay,ou=services,dc=agency,dc=test
# (password "service-secret") may read every entry; people bind as themselves. The memberof
# overlay keeps each person's memberOf from the groupOfNames entries, as Active Directory
# does. slapd runs as whoever calls (root included: unlike PostgreSQL it does not refuse).
# `make deps` installs Debian's slapd and ldap-utils when they are missing.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
SLAPD=${SLAPD:-/usr/sbin/slapd}

free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 12000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    echo "slapd.sh: no free port found" >&2
    exit 1
}

start() {
    local dir=$1 port url
    if [ ! -x "$SLAPD" ] || ! command -v ldapadd >/dev/null; then
        echo "slapd.sh: slapd or ldapadd not found (apt-get install -y slapd ldap-utils)" >&2
        exit 1
    fi
    mkdir -p "$dir/data"
    port=$(free_port)
    url="ldap://127.0.0.1:$port"
    cat >"$dir/slapd.conf" <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
pidfile $dir/slapd.pid
access to attrs=userPassword by self write by anonymous auth by * none
access to * by dn.exact="cn=mentorpay,ou=services,dc=agency,dc=test" read by self read by * none
database mdb
maxsize 16777216
suffix "dc=agency,dc=test"
rootdn "cn=admin,dc=agency,dc=test"
rootpw admin-secret
directory $dir/data
overlay memberof
CONF
    "$SLAPD" -f "$dir/slapd.conf" -h "$url/" >"$dir/slapd.log" 2>&1 \
        || { cat "$dir/slapd.log" >&2; exit 1; }
    for _ in $(seq 1 100); do
        if ldapsearch -x -H "$url" -b "" -s base >/dev/null 2>&1; then break; fi
        sleep 0.05
    done
    ldapadd -x -H "$url" -D "cn=admin,dc=agency,dc=test" -w admin-secret \
        -f "$here/tests/ldap/seed.ldif" >"$dir/seed.log" 2>&1 \
        || { cat "$dir/seed.log" >&2; exit 1; }
    echo "$url"
}

stop() {
    local dir=$1
    if [ -f "$dir/slapd.pid" ]; then
        kill "$(cat "$dir/slapd.pid")" 2>/dev/null || true
    fi
}

case "${1:-}" in
    start) start "$2" ;;
    stop) stop "$2" ;;
    *) echo "usage: slapd.sh start|stop DIR" >&2; exit 2 ;;
esac
