# `make test` installs what the tests need on a fresh machine and runs every test.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: test deps rust-test frontend-test e2e lint bench release

test: deps lint rust-test frontend-test e2e
	@echo "make test: all suites passed"

deps:
	command -v node >/dev/null || { echo "Node.js 20+ and npm are required"; exit 1; }
	if [ ! -x "$(CHROMIUM)" ]; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; fi
	if ! command -v pdftotext >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq poppler-utils; fi
	cd frontend && npm ci --no-audit --no-fund

lint:
	cargo clippy --workspace --all-targets --locked -- -D warnings

rust-test:
	cargo test --workspace --locked

frontend-test:
	cd frontend && npm run typecheck && npm test

# Browser tests drive the binary that `cargo test` built (UI embedded by build.rs).
e2e:
	cargo build --locked
	cd frontend && MENTORPAY_BIN=$(CURDIR)/target/debug/mentorpay npm run e2e

bench:
	bash bench/foundation.sh

release:
	cargo build --release --locked
