#!/usr/bin/env bash
# Cost of synchronous=FULL versus NORMAL for MentorPay's write pattern on this disk: 1000
# small write transactions (an UPDATE of one row and an INSERT into a log, as one action does),
# one commit each, in WAL mode, with the sqlite3 CLI. Prints milliseconds per commit.
# Usage: bash bench/durability.sh [DIR]   (DIR: where the database lives; default: a temp dir)
set -euo pipefail
command -v sqlite3 >/dev/null || { echo "sqlite3 missing: apt-get install -y sqlite3" >&2; exit 1; }
DIR=${1:-$(mktemp -d)}
N=1000
for mode in NORMAL FULL; do
  db="$DIR/durability-$mode.db"
  rm -f "$db" "$db-wal" "$db-shm"
  sqlite3 "$db" "PRAGMA journal_mode=WAL; CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER, version INTEGER);
    CREATE TABLE log(id INTEGER PRIMARY KEY, t_id INTEGER, at TEXT); INSERT INTO t(v, version) VALUES (0, 1);" >/dev/null
  script="$DIR/durability-$mode.sql"
  { echo "PRAGMA synchronous=$mode;"
    for i in $(seq 1 $N); do
      echo "BEGIN IMMEDIATE; UPDATE t SET v = $i, version = version + 1 WHERE id = 1; INSERT INTO log(t_id, at) VALUES (1, datetime('now')); COMMIT;"
    done; } > "$script"
  start=$(date +%s%N)
  sqlite3 "$db" < "$script" >/dev/null
  end=$(date +%s%N)
  awk -v m="$mode" -v ns=$((end - start)) -v n=$N 'BEGIN { printf "synchronous=%-6s %d commits: %.3f ms per commit\n", m, n, ns / n / 1e6 }'
done
