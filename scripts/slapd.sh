#!/usr/bin/env bash
# A throw-away OpenLDAP directory (Debian's slapd) on loopback, for the tests: the way
# postgres.sh keeps PostgreSQL, never for real data.
#
#   slapd.sh start DIR   create a directory in DIR, seed it (tests/ldap/seed.ldif), start it;
#                        prints its two URLs, one a line: ldap://127.0.0.1:PORT (StartTLS
#                        offered) and ldaps://127.0.0.1:PORT
#   slapd.sh stop DIR    stop it
#
# TLS: a throw-away CA (DIR/tls/ca.pem) signs the server's certificate, for 127.0.0.1 and
# localhost; a second CA (DIR/tls/other-ca.pem) signs nothing, for the tests of a wrong CA
# file. Keys are P-256 (quick to make), made with the openssl command line.
#
# Suffix dc=agency,dc=test; the service account cn=mentorpay,ou=services,dc=agency,dc=test
# (password "service-secret") may read every entry; people bind as themselves. The memberof
# overlay keeps each person's memberOf from the groupOfNames entries, as Active Directory
# does. slapd runs as whoever calls (root included: unlike PostgreSQL it does not refuse).
# `make deps` installs Debian's slapd, ldap-utils and openssl when they are missing.
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

# A CA (its key and self-signed certificate) named $2, in $1.
make_ca() {
    openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
        -keyout "$1/$2-key.pem" -out "$1/$2.pem" -days 2 -subj "/CN=$3" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        2>>"$1/openssl.log"
}

# The CA of $1/ca.pem and the server's key and certificate it signs.
make_certificates() {
    local tls=$1
    mkdir -p "$tls"
    make_ca "$tls" ca "Agency test CA"
    make_ca "$tls" other-ca "Another CA"
    openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
        -keyout "$tls/server-key.pem" -out "$tls/server.csr" -subj "/CN=localhost" \
        2>>"$tls/openssl.log"
    printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" \
        "extendedKeyUsage=serverAuth" "subjectAltName=IP:127.0.0.1,DNS:localhost" >"$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca-key.pem" \
        -CAcreateserial -out "$tls/server.pem" -days 2 -extfile "$tls/server.ext" \
        2>>"$tls/openssl.log"
}

start() {
    local dir=$1 port tls_port url ldaps_url
    if [ ! -x "$SLAPD" ] || ! command -v ldapadd >/dev/null || ! command -v openssl >/dev/null; then
        echo "slapd.sh: slapd, ldapadd or openssl not found (apt-get install -y slapd ldap-utils openssl)" >&2
        exit 1
    fi
    mkdir -p "$dir/data"
    make_certificates "$dir/tls" || { cat "$dir/tls/openssl.log" >&2; exit 1; }
    port=$(free_port)
    tls_port=$(free_port)
    while [ "$tls_port" = "$port" ]; do tls_port=$(free_port); done
    url="ldap://127.0.0.1:$port"
    ldaps_url="ldaps://127.0.0.1:$tls_port"
    cat >"$dir/slapd.conf" <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
pidfile $dir/slapd.pid
TLSCACertificateFile $dir/tls/ca.pem
TLSCertificateFile $dir/tls/server.pem
TLSCertificateKeyFile $dir/tls/server-key.pem
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
    "$SLAPD" -f "$dir/slapd.conf" -h "$url/ $ldaps_url/" >"$dir/slapd.log" 2>&1 \
        || { cat "$dir/slapd.log" >&2; exit 1; }
    for _ in $(seq 1 100); do
        if ldapsearch -x -H "$url" -b "" -s base >/dev/null 2>&1; then break; fi
        sleep 0.05
    done
    ldapadd -x -H "$url" -D "cn=admin,dc=agency,dc=test" -w admin-secret \
        -f "$here/tests/ldap/seed.ldif" >"$dir/seed.log" 2>&1 \
        || { cat "$dir/seed.log" >&2; exit 1; }
    echo "$url"
    echo "$ldaps_url"
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
