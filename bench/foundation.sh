#!/usr/bin/env bash
# Rebuilds the release binary and prints the foundation figures (docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
python3 bench/foundation.py target/release/mentorpay "${RUNS:-20}"
