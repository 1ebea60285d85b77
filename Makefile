# `make test` installs what the tests need on a fresh machine and runs every test.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: test deps rust-test rust-test-postgres frontend-test e2e lint bench release

test: deps lint rust-test rust-test-postgres frontend-test e2e
	@echo "make test: all suites passed"

deps:
	command -v node >/dev/null || { echo "Node.js 20+ and npm are required"; exit 1; }
	if [ ! -x "$(CHROMIUM)" ]; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; fi
	if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq postgresql; fi
	if ! command -v pdftotext >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq poppler-utils; fi
	cd frontend && npm ci --no-audit --no-fund

lint:
	cargo clippy --workspace --all-targets --locked -- -D warnings

rust-test:
	cargo test --workspace --locked

# The integration tests again on PostgreSQL: a throw-away cluster on loopback, a database per test.
rust-test-postgres:
	started=$$SECONDS
	bash scripts/postgres.sh run cargo test --locked --test '*'
	echo "PostgreSQL pass: $$((SECONDS - started)) s"

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
