#!/usr/bin/env python3
"""Soak client: a steady mixed load of reads, writes and exports from a
bounded set of clients (threads with keep-alive connections) on loopback, for a fixed time,
while the server's memory (VmRSS) is sampled every 10 s. Stdlib only.

Usage: soak.py --port P --pid PID [--seconds 600] [--clients 8]

Each client loops over a weighted mix:
  reads   (~55%): request index and details list (filters, sorts), participant list (random page, filter, sort),
                  summary, budgets, one request by id
  writes  (~40%): create a participant with a participation, edit it (with its version);
                  create an F5 request, edit it, submit, approve (another user), move back
                  to submitted, send for revision, delete a draft
  exports (~5%):  every GET `/api/v1/reports/.../retrieve` the server's OpenAPI document lists
                  without a path parameter (CSV, one in four XLSX), when the reports are there
Expected answers are 2xx, and 409 where two clients race for the same row. Any 5xx or
transport error is counted and makes the exit status 1. Prints a Markdown report.
"""

import argparse
import datetime
import http.client
import json
import random
import statistics
import sys
import threading
import time

from proc import rss_kib

EMAIL, PASSWORD = "bench@example.org", "bench password 123"
APPROVER, APPROVER_PASSWORD = "soak-approver@example.org", "soak approver pass 1"


class Client:
    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = None

    def call(self, method, path, body=None):
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                r = self.conn.getresponse()
                raw = r.read()
                return r.status, raw
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed between calls: reconnect once.
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise

    def json(self, method, path, body=None, ok=(200, 201)):
        status, raw = self.call(method, path, body)
        if status not in ok:
            raise SystemExit(f"set-up: {method} {path} -> {status} {raw[:300]!r}")
        return json.loads(raw) if raw else None

    def login(self, email, password):
        self.token = None
        self.token = self.json("POST", "/api/v1/identity/login", {"email": email, "password": password})["accessToken"]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency = {}  # kind -> [ms]
        self.status = {}  # class -> count
        self.errors = []  # (kind, path, status or error, body)
        self.refusals = {}  # (kind, 4xx status) -> (count, one body)
        self.total = 0

    def add(self, kind, path, status, ms, body=b""):
        with self.lock:
            self.total += 1
            self.latency.setdefault(kind, []).append(ms)
            klass = f"{status // 100}xx" if isinstance(status, int) else "transport"
            self.status[klass] = self.status.get(klass, 0) + 1
            if not isinstance(status, int) or status >= 500:
                self.errors.append((kind, path, status, body[:200]))
            elif status >= 400:
                count, first = self.refusals.get((kind, status), (0, body[:160]))
                self.refusals[(kind, status)] = (count + 1, first)


def person(n):
    return {
        "firstName": "Soak", "lastName": f"Person {n}", "email": f"soak-{n}@example.org", "phone": "(916) 555-0100",
        "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": "Mentor",
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    }


class World:
    """What the set-up found or made: a fiscal year covering today, reference ids, exports."""

    def __init__(self, port):
        admin = Client(port)
        admin.login(EMAIL, PASSWORD)
        today = datetime.date.today()
        years = admin.json("GET", "/api/v1/system-settings/fiscal-years")
        years = years if isinstance(years, list) else years.get("items", [])
        covering = [y for y in years if y["startDate"] <= today.isoformat() <= y["endDate"]]
        if covering:
            self.fy = covering[0]
        else:
            start = datetime.date(today.year if today.month >= 7 else today.year - 1, 7, 1)
            end = datetime.date(start.year + 1, 6, 30)
            self.fy = admin.json("POST", "/api/v1/system-settings/fiscal-years",
                                 {"name": f"FY {start.year}-{str(end.year)[2:]} (soak)", "startDate": start.isoformat(), "endDate": end.isoformat()})
        self.programs = [p["id"] for p in admin.json("GET", "/api/v1/mentor-programs")]
        self.fund = admin.json("GET", "/api/v1/funds")[0]["id"]
        self.account = admin.json("GET", "/api/v1/expense-accounts")[0]["id"]
        codes = admin.json("GET", "/api/v1/approval-codes")
        self.code = next(c["id"] for c in codes if c["paymentRequestType"] == "F5")
        status, _ = admin.call("POST", "/api/v1/identity/users",
                               {"email": APPROVER, "firstName": "Soak", "lastName": "Approver", "roles": ["Administrator"], "password": APPROVER_PASSWORD})
        if status not in (201, 409):
            raise SystemExit(f"set-up: approver -> {status}")
        paths = admin.json("GET", "/api/v1/openapi.json")["paths"]
        self.exports = sorted(p for p, ops in paths.items() if p.startswith("/api/v1/reports/") and p.endswith("/retrieve") and "{" not in p and "get" in ops)


def worker(n, port, world, stats, stop):
    me, approver = Client(port), Client(port)
    me.login(EMAIL, PASSWORD)
    approver.login(APPROVER, APPROVER_PASSWORD)
    rng = random.Random(n)
    mine = []  # (participant id, version, participation id)
    requests = []  # dicts of my live requests

    def timed(kind, client, method, path, body=None):
        started = time.perf_counter()
        try:
            status, raw = client.call(method, path, body)
        except Exception as e:  # noqa: BLE001 - every failure is reported
            stats.add(kind, path, f"{type(e).__name__}: {e}", (time.perf_counter() - started) * 1000)
            return None, None
        stats.add(kind, path, status, (time.perf_counter() - started) * 1000, raw)
        return status, (json.loads(raw) if raw and raw[:1] in b"{[" else None)

    def read():
        page = rng.randint(1, 40)
        choice = rng.randrange(7)
        if choice == 0:
            timed("read: request index", me, "GET", f"/api/v1/payment-requests?Page={page}&Size=25")
        elif choice == 1:
            program = rng.choice(world.programs)
            timed("read: request index", me, "GET", f"/api/v1/payment-requests?MentorProgramId={program}&FormStatus=Submitted&IsSubmittedOnSortedAscending=false&Page={page}&Size=25")
        elif choice == 2:
            # What the details page asks: form types, a sort flag, a page.
            timed("read: request index", me, "GET", f"/api/v1/payment-requests?FormType=F1,F3,F5&IsApprovedAmountSortedAscending=false&Page={page}&Size=25")
        elif choice == 3:
            timed("read: participants", me, "GET", f"/api/v1/participants?Page={page}&Size=25&Status=Active")
        elif choice == 4:
            timed("read: summary", me, "GET", "/api/v1/payment-requests/summary")
        elif choice == 5:
            timed("read: budgets", me, "GET", f"/api/v1/budgets/{world.fy['id']}")
        elif requests:
            r = rng.choice(requests)
            timed("read: one request", me, "GET", f"/api/v1/payment-requests/F5/{r['id']}")

    def write():
        nonlocal mine
        if not mine or rng.random() < 0.1:
            body = person(f"{n}-{time.time_ns()}")
            body["participations"] = [{"mentorProgramId": rng.choice(world.programs), "fiscalYearId": world.fy["id"], "roleCode": "Mentor",
                                       "collegeId": 1, "startDate": world.fy["startDate"], "endDate": world.fy["endDate"]}]
            status, p = timed("write: participant create", me, "POST", "/api/v1/participants", body)
            if status == 201:
                mine.append([p["id"], p["version"], p["participations"][0]["id"], body])
                mine = mine[-20:]
            return
        roll = rng.random()
        if roll < 0.15:
            p = rng.choice(mine)
            body = dict(p[3], phone=f"(916) 555-{rng.randrange(10000):04d}", version=p[1])
            body.pop("participations", None)
            status, got = timed("write: participant edit", me, "PUT", f"/api/v1/participants/{p[0]}", body)
            if status == 200:
                p[1] = got["version"]
            return
        if roll < 0.4 or not requests:
            p = rng.choice(mine)
            body = {"participationId": p[2], "description": "Soak seminar", "requestedAmount": rng.randint(20, 200),
                    "details": {"seminarDate": world.fy["startDate"], "topic": "Play", "hours": 3}}
            status, r = timed("write: request create", me, "POST", "/api/v1/payment-requests/F5", body)
            if status == 201:
                requests.append(r)
                del requests[:-30]
            return
        r = rng.choice(requests)
        url = f"/api/v1/payment-requests/F5/{r['id']}"
        state = r["formStatus"]
        if state == "Draft" and rng.random() < 0.3:
            body = {"participationId": r["participationId"], "description": "Soak seminar, edited", "requestedAmount": rng.randint(20, 200),
                    "details": {"seminarDate": world.fy["startDate"], "topic": "Play", "hours": 2}, "version": r["version"]}
            status, got = timed("write: request edit", me, "PUT", url, body)
        elif state == "Draft" and rng.random() < 0.1:
            status, got = timed("write: request delete", me, "DELETE", url)
            if status in (200, 204):
                requests.remove(r)
            return
        elif state in ("Draft", "RevisionRequested"):
            status, got = timed("write: request move", me, "POST", f"{url}/submit", {})
        elif state == "Submitted" and rng.random() < 0.2:
            status, got = timed("write: request move", approver, "POST", f"{url}/send-for-revision", {"reason": "Soak: please check"})
        elif state == "Submitted":
            body = {"approvedAmount": min(r["requestedAmount"], 20), "approvalCodeId": world.code, "fundId": world.fund,
                    "expenseAccountId": world.account, "acknowledgeWarnings": True}
            status, got = timed("write: request approve", approver, "POST", f"{url}/approve", body)
        else:  # Approved: undo, so the request keeps cycling.
            status, got = timed("write: request move", approver, "POST", f"{url}/move-back-to-submitted", {})
        if status == 200 and isinstance(got, dict) and "formStatus" in got:
            r.update(got)
        elif status == 409:
            # Stale: somebody (or an earlier reply) moved it; read it again.
            s, fresh = timed("read: one request", me, "GET", url)
            if s == 200:
                r.update(fresh)

    def export():
        if world.exports:
            path = rng.choice(world.exports)
            fmt = "Xlsx" if rng.random() < 0.25 else "Csv"
            query = f"ReportFormat={fmt}&MinutesOffset=480"
            if path.endswith("/payment-requests-details/retrieve"):
                # Every request would be the whole table; a program's is what an office exports.
                query += f"&MentorProgramId={rng.choice(world.programs)}&FormType=F1,F5"
            elif path.endswith("/vendor-payments/retrieve"):
                query += f"&FiscalYearId={world.fy['id']}"
            timed(f"export: {fmt.lower()}", me, "GET", f"{path}?{query}")
        else:
            read()

    while not stop.is_set():
        roll = rng.random()
        if roll < 0.55:
            read()
        elif roll < 0.95:
            write()
        else:
            export()


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--clients", type=int, default=8)
    args = ap.parse_args()

    world = World(args.port)
    stats, stop = Stats(), threading.Event()
    threads = [threading.Thread(target=worker, args=(n, args.port, world, stats, stop), daemon=True) for n in range(args.clients)]
    began = time.monotonic()
    for t in threads:
        t.start()
    samples = [(0, rss_kib(args.pid), 0, 0)]  # (seconds, RSS KiB, requests, 5xx)
    while (elapsed := time.monotonic() - began) < args.seconds:
        time.sleep(min(10, args.seconds - elapsed))
        with stats.lock:
            samples.append((round(time.monotonic() - began), rss_kib(args.pid), stats.total, len(stats.errors)))
    stop.set()
    for t in threads:
        t.join(timeout=70)
    seconds = time.monotonic() - began

    print(f"## Soak: {args.clients} clients, {seconds:.0f} s, {stats.total} requests ({stats.total / seconds:.0f}/s)\n")
    print("exports:", ", ".join(world.exports) if world.exports else "none listed by the server yet (reports not merged)")
    print("answers:", ", ".join(f"{k}: {v}" for k, v in sorted(stats.status.items())), "\n")
    print("| kind | calls | p50 ms | p90 ms | p99 ms | max ms |\n|---|---|---|---|---|---|")
    for kind, ms in sorted(stats.latency.items()):
        print(f"| {kind} | {len(ms)} | {pct(ms, 50):.1f} | {pct(ms, 90):.1f} | {pct(ms, 99):.1f} | {max(ms):.1f} |")
    if stats.refusals:
        print("\n4xx answers (expected: 409 when two clients race for one row):\n")
        for (kind, status), (count, first) in sorted(stats.refusals.items()):
            print(f"- {kind}: {status} x {count}, e.g. {first.decode(errors='replace')}")
    print("\n| t (s) | RSS (MiB) | requests | req/s since last | 5xx + transport errors |\n|---|---|---|---|---|")
    for i, (t, rss, total, errors) in enumerate(samples):
        rate = (total - samples[i - 1][2]) / max(1, t - samples[i - 1][0]) if i else 0
        print(f"| {t} | {rss / 1024:.1f} | {total} | {rate:.0f} | {errors} |")
    # Flat: after the first minute (caches and pools fill), the last samples stay near it.
    warm = [rss for t, rss, _, _ in samples if t >= 60] or [samples[-1][1]]
    base, last = warm[0], statistics.median(r for _, r, _, _ in samples[-3:])
    growth = (last - base) / base * 100 if base else 0
    print(f"\nRSS after warm-up {base / 1024:.1f} MiB, at the end {last / 1024:.1f} MiB ({growth:+.1f}%), peak {max(r for _, r, _, _ in samples) / 1024:.1f} MiB among the samples")
    # The samples miss short peaks (an export's); the kernel keeps the true one.
    anon, file = rss_kib(args.pid, "RssAnon"), rss_kib(args.pid, "RssFile")
    print(f"peak RSS over the run (VmHWM) {rss_kib(args.pid, 'VmHWM') / 1024:.1f} MiB; at the end {anon / 1024:.1f} MiB anonymous, {file / 1024:.1f} MiB file-backed")
    if stats.errors:
        print(f"\nFAILED: {len(stats.errors)} answers were 5xx or failed:")
        by_kind = {}
        for kind, _, status, _ in stats.errors:
            by_kind[(kind, str(status))] = by_kind.get((kind, str(status)), 0) + 1
        for (kind, status), count in sorted(by_kind.items()):
            print(f"- {kind}: {status} x {count}")
        for e in stats.errors[:5]:
            print("  ", e)
        sys.exit(1)
    print("\nzero 5xx, zero transport errors")


if __name__ == "__main__":
    main()
