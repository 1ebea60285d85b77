#!/usr/bin/env bash
# Rebuilds the binary `make release` ships (the dist profile, for this machine's glibc) and
# prints the foundation figures (docs/benchmarks.md): its size is the one the target is about.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --profile dist --locked
python3 bench/foundation.py target/dist/mentorpay "${RUNS:-20}"
