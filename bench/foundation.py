#!/usr/bin/env python3
"""Foundation figures: shipped binary size, start-up time to a healthy
/api/v1/health on an existing database, idle memory, and the gzip size of the JS the
login page loads. Usage: foundation.py PATH/TO/mentorpay [runs]. Prints a Markdown table."""

import gzip
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from proc import rss_kib

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/dist/mentorpay")
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 20


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(workdir, port):
    env = {
        "PATH": os.environ.get("PATH", ""),
        "MENTORPAY_LISTEN": f"127.0.0.1:{port}",
        "MENTORPAY_ADMIN_EMAIL": "admin@example.org",
        "MENTORPAY_ADMIN_PASSWORD": "bench password 123",
        "MENTORPAY_LOG": "warn",
    }
    return subprocess.Popen([BIN], cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_healthy(port, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.002)
    raise SystemExit("server did not become healthy")


def get(port, path, headers=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.read(), r.headers


def resolve(base, ref):
    return ref if ref.startswith("/") else os.path.normpath(f"{base}/{ref}")


def login_js(port):
    """Entry script of index.html plus every chunk it imports statically (transitively),
    plus the login page's own lazy chunk: what the browser fetches to show /login."""
    html, _ = get(port, "/login")
    html = html.decode()
    todo = re.findall(r'<script[^>]+src="(/[^"]+\.js)"', html)
    todo += re.findall(r'<link[^>]+rel="modulepreload"[^>]+href="(/[^"]+\.js)"', html)
    seen, total_raw, total_gz = set(), 0, 0
    login_chunk_added = False
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        body, _ = get(port, path)
        total_raw += len(body)
        total_gz += len(gzip.compress(body, 6))
        text = body.decode("utf-8", "replace")
        base = path.rsplit("/", 1)[0]
        for ref in re.findall(r'(?:import|from)\s*"((?:/|\.{1,2}/)[^"]+\.js)"', text):
            todo.append(resolve(base, ref))
        if not login_chunk_added:
            for ref in re.findall(r'import\("((?:/|\.{1,2}/)[^"]*LoginPage[^"]*\.js)"\)', text):
                todo.append(resolve(base, ref))
                login_chunk_added = True
    return len(seen), total_raw, total_gz


def main():
    size = os.path.getsize(BIN)
    work = tempfile.mkdtemp(prefix="mentorpay-bench-")
    try:
        shutil.copy(BIN, os.path.join(work, "mentorpay"))
        # First start creates and migrates the database; the figures are for later starts.
        port = free_port()
        p = start(work, port)
        wait_healthy(port)
        p.terminate()
        p.wait()

        times = []
        for _ in range(RUNS):
            port = free_port()
            t0 = time.monotonic()
            p = start(work, port)
            wait_healthy(port)
            times.append((time.monotonic() - t0) * 1000)
            p.terminate()
            p.wait()
        times.sort()

        port = free_port()
        p = start(work, port)
        wait_healthy(port)
        get(port, "/")
        body = json.dumps({"email": "admin@example.org", "password": "bench password 123"}).encode()
        urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/identity/login", data=body, headers={"content-type": "application/json"})).read()
        time.sleep(2)
        rss = rss_kib(p.pid)
        files, raw, gz = login_js(port)
        p.terminate()
        p.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    median = times[len(times) // 2]
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print("| figure | measured | target |")
    print("|---|---|---|")
    print(f"| release binary size | {size / 1e6:.1f} MB | < 30 MB |")
    print(f"| start-up to healthy /api/v1/health, existing database ({RUNS} runs) | median {median:.0f} ms, p95 {p95:.0f} ms, max {times[-1]:.0f} ms | < 300 ms |")
    print(f"| idle memory after a sign-in (RSS) | {rss / 1024:.1f} MiB | < 30 MB |")
    print(f"| JS the login page loads ({files} files) | {raw / 1024:.0f} KiB raw, {gz / 1024:.0f} KiB gzip | < 250 KB gzip |")


if __name__ == "__main__":
    main()
