# `make test` installs what the tests need on a fresh machine and runs every test.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: test test-dates deps test-venv test-oidc rust-tests rust-test rust-test-postgres frontend-test e2e api-types api-fuzz lint bench release

test: deps lint rust-tests frontend-test e2e api-types api-fuzz
	@echo "make test: all suites passed"

deps:
	command -v node >/dev/null || { echo "Node.js 20+ and npm are required"; exit 1; }
	if [ ! -x "$(CHROMIUM)" ]; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; fi
	if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq postgresql; fi
	if ! command -v pdftotext >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq poppler-utils; fi
	# The directory of the LDAP sign-in tests (scripts/slapd.sh); installed without its own
	# configuration dialog, and never started as the machine's service. openssl makes its
	# throw-away CA and TLS certificate.
	if [ ! -x /usr/sbin/slapd ] || ! command -v ldapadd >/dev/null || ! command -v openssl >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slapd ldap-utils openssl; fi
	cd frontend && npm ci --no-audit --no-fund

lint:
	started=$$SECONDS
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cd frontend && npm run lint
	echo "lint: $$((SECONDS - started)) s"

# A real SMTP server for the notification tests (tests/smtp/sink.py): aiosmtpd, pinned.
AIOSMTPD_VERSION := 1.4.6
test-venv:
	if ! .venv-test/bin/pip freeze 2>/dev/null | grep -qx "aiosmtpd==$(AIOSMTPD_VERSION)"; then
		python3 -m venv .venv-test
		.venv-test/bin/pip install --quiet --disable-pip-version-check "aiosmtpd==$(AIOSMTPD_VERSION)"
	fi

# The OpenID Connect provider of the single sign-on tests (tests/oidc/provider.mjs), pinned
# by its own lock file.
test-oidc:
	if [ ! -d tests/oidc/node_modules/oidc-provider ] || [ tests/oidc/package-lock.json -nt tests/oidc/node_modules ]; then
		cd tests/oidc && npm ci --no-audit --no-fund
	fi

# The SQLite and PostgreSQL passes side by side, each printed whole when it ends: each leaves
# the cores partly idle (its tests wait on their servers, the mail sink and timers), so both at
# once took 280 s on two cores where one after the other took 350 s.
rust-tests: test-venv test-oidc
	cargo test --workspace --locked --no-run
	$(MAKE) --no-print-directory -j2 --output-sync=target rust-test rust-test-postgres

rust-test: test-venv test-oidc
	started=$$SECONDS
	cargo test --workspace --locked
	echo "Build and SQLite pass: $$((SECONDS - started)) s"

# The integration tests again on PostgreSQL: a throw-away cluster on loopback, a database per test.
rust-test-postgres: test-venv test-oidc
	started=$$SECONDS
	bash scripts/postgres.sh run cargo test --locked --test integration
	echo "PostgreSQL pass: $$((SECONDS - started)) s"

frontend-test:
	started=$$SECONDS
	cd frontend && npm run typecheck && npm test
	echo "Frontend unit tests: $$((SECONDS - started)) s"

# Browser tests drive the binary that `cargo test` built (UI embedded by build.rs). Built the
# way `cargo test` builds it (dev-dependencies unify features), so no second dependency build.
e2e: test-oidc
	cargo test --workspace --locked --no-run
	started=$$SECONDS
	cd frontend && MENTORPAY_BIN=$(CURDIR)/target/debug/mentorpay npm run e2e
	echo "Browser tests: $$((SECONDS - started)) s"

# frontend/src/api/schema.d.ts must be what openapi-typescript makes of the binary's document.
api-types:
	cargo test --workspace --locked --no-run
	bash scripts/api-types.sh target/debug/mentorpay --check

# schemathesis (pinned, in .venv-schemathesis/) over every operation of the OpenAPI
# document, every check, against the binary `e2e` built, signed in as an Administrator.
api-fuzz:
	cargo test --workspace --locked --no-run
	started=$$SECONDS
	bash scripts/fuzz-api.sh target/debug/mentorpay
	echo "API fuzzing: $$((SECONDS - started)) s"

# The integration and browser tests again on other days: the server's clock and the tests'
# "today" set by MENTORPAY_CLOCK (honoured by debug builds only) to this fiscal year's last
# day, a leap day and a later year. Not part of `make test`: each day is a full pass.
TEST_DATES ?= $(shell y=$$(date -u +%Y); [ $$(date -u +%-m) -ge 7 ] && y=$$((y + 1)); echo $$y-06-30) 2028-02-29 2031-03-15
test-dates: deps test-venv
	cargo test --workspace --locked --no-run
	for day in $(TEST_DATES); do
		echo "== the tests on $$day"
		MENTORPAY_CLOCK=$$day cargo test --locked --test integration
		(cd frontend && MENTORPAY_CLOCK=$$day MENTORPAY_BIN=$(CURDIR)/target/debug/mentorpay npm run e2e)
	done
	echo "make test-dates: all suites passed on $(TEST_DATES)"

bench:
	bash bench/foundation.sh

# A binary for the servers departments have: linked against glibc 2.28 (RHEL 8, Ubuntu 20.04 and
# later) by cargo-zigbuild with zig from PyPI, both pinned in .venv-release/; built with the dist
# profile (Cargo.toml: fat LTO, small where no time is spent, stripped) to stay under 30 MB,
# with its SHA-256 beside it; then checked by scripts/release-check.sh.
ZIGBUILD_VERSION := 0.24.1
ZIGLANG_VERSION := 0.15.2
GLIBC_FLOOR := 2.28
VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
RELEASE_BIN = dist/mentorpay-$(VERSION)-x86_64-linux-gnu

release:
	if ! .venv-release/bin/pip freeze 2>/dev/null | grep -qx "cargo-zigbuild==$(ZIGBUILD_VERSION)" ||
	   ! .venv-release/bin/pip freeze | grep -qx "ziglang==$(ZIGLANG_VERSION)"; then
		python3 -m venv .venv-release
		.venv-release/bin/pip install --quiet --disable-pip-version-check \
			"cargo-zigbuild==$(ZIGBUILD_VERSION)" "ziglang==$(ZIGLANG_VERSION)"
	fi
	PATH="$(CURDIR)/.venv-release/bin:$$PATH" cargo zigbuild --profile dist --locked \
		--target x86_64-unknown-linux-gnu.$(GLIBC_FLOOR)
	mkdir -p dist
	cp target/x86_64-unknown-linux-gnu/dist/mentorpay $(RELEASE_BIN)
	(cd dist && sha256sum $(notdir $(RELEASE_BIN)) > $(notdir $(RELEASE_BIN)).sha256)
	bash scripts/release-check.sh $(RELEASE_BIN) $(GLIBC_FLOOR)
