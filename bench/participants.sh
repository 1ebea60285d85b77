#!/usr/bin/env bash
# Participant list at scale: release build, 100k seeded participants in a temporary
# database, the real server, an authenticated filtered + sorted page requested many times.
# Prints p50/p95/p99 in milliseconds. Needs curl and python3 (both in Debian's base image).
# BIN: see bench/lib.sh
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
: "${N:=100000}" "${REQUESTS:=500}" "${PORT:=18089}"
KEEP= # a fresh database each run
office --participants "$N"
open_office
python3 - "$PORT" "$TOKEN" "$REQUESTS" <<'PY'
import http.client, json, statistics, sys, time
port, token, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
queries = {
    "filtered+sorted (program, status, name contains, by name)":
        "/api/v1/participants?MentorProgramId=1&Status=Active&FullName=an&SortBy=fullName&Page=3&Size=25",
    "filtered+sorted (status, role, by updatedAt desc)":
        "/api/v1/participants?Status=Active&RoleCode=Mentor&SortBy=updatedAt&SortDescending=true&Page=2&Size=25",
    "filtered (language + permit level), by email":
        "/api/v1/participants?LanguageIds=2&PermitLevelIds=4&SortBy=email&Size=25",
    "unfiltered first page": "/api/v1/participants?Size=25",
}
conn = http.client.HTTPConnection("127.0.0.1", port)
headers = {"Authorization": f"Bearer {token}"}
for label, path in queries.items():
    times = []
    for i in range(n + 20):
        t = time.perf_counter()
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        body = r.read()
        if i >= 20:  # warm-up excluded
            times.append((time.perf_counter() - t) * 1000)
        assert r.status == 200, (r.status, body[:200])
    total = json.loads(body)["totalCount"]
    q = statistics.quantiles(times, n=100)
    print(f"{label}: {n} requests, totalCount {total}: p50 {q[49]:.2f} ms, p95 {q[94]:.2f} ms, p99 {q[98]:.2f} ms")
PY
