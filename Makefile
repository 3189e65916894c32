# The three commands of the README: `make run`, `make test` and `make serve`. Everything else is a step they call.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
MANAGE := $(BIN)/python manage.py
HOST ?= 127.0.0.1:8000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTEST_ARGS ?=

.PHONY: run test test-pg test-fast serve hall setup system-packages browser proxy lint check messages bench load serve-checks clean

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# gettext compiles the translations; Debian's package, installed when missing.
system-packages:
	@command -v msgfmt >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq gettext; }

# Browser tests drive Debian's chromium-headless-shell (Playwright never downloads a browser here): the same engine
# as the full chromium without its browser process's windowing and profile machinery, about a fifth less CPU for
# the browser tests. A CJK font makes the screenshots readable.
browser:
	@command -v chromium-headless-shell >/dev/null && fc-list :lang=zh | grep -q . || { $(SUDO) apt-get update -qq && \
		$(SUDO) apt-get install -y -qq chromium-headless-shell fonts-wqy-zenhei; }

# `make hall` and its test put Debian's nginx in front of the app servers.
proxy:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { $(SUDO) apt-get update -qq && \
		$(SUDO) apt-get install -y -qq nginx; }

setup: $(VENV)/.installed system-packages
	DEBUG=1 $(MANAGE) compilemessages --ignore=.venv -v0

run: setup
	DEBUG=1 $(MANAGE) migrate --no-input -v0
	DEBUG=1 $(MANAGE) demo
	DEBUG=1 $(MANAGE) runserver $(HOST)

# The club day: DEBUG off, SECRET_KEY from the environment or .secret_key (made on the first run), migrate,
# collectstatic, then gunicorn (2 workers x 8 threads) on BIND, printing the addresses for the tablets.
BIND ?= 0.0.0.0:8000
serve: setup
	$(BIN)/python -m referee.serve --bind $(BIND)

# The federation's deployment on this machine: nginx (deploy/nginx/referee.conf) in front of two app servers, on
# PostgreSQL and Redis (DATABASE_URL and REDIS_URL, else the local servers); prints the site's address.
HALL_PORT ?= 8080
hall: setup proxy
	HALL_PORT=$(HALL_PORT) $(BIN)/python -m referee.hall

# mypy reads its settings from pyproject.toml (strict on rules/); the django-stubs plugin loads the settings.
lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/mypy

check: setup
	DEBUG=1 $(MANAGE) makemigrations --check --dry-run
	DEBUG=1 $(MANAGE) check

# Every test on one worker a core (`nproc`, two here): the browser tests no longer wait on Chromium and the live
# servers as they did when a third worker kept the cores busy, and a third now only costs CPU, each module's scene
# built by more workers (2026-12-06, same machine and hour: `make test` 254 s against 275–302 s, `make test-fast`
# 167 s against 191–214 s of pytest; docs/benchmarks.md). Single tests, stolen by idle workers (`worksteal`). The
# slowest 15 are named at the end, where a slow one is seen the day it comes. WORKERS=1 for a smaller machine.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
PYTEST := $(BIN)/pytest -n $(WORKERS) --dist worksteal --durations=15
# Python's compiled files, kept under the ignored test output whatever the environment says (a machine that sets
# PYTHONDONTWRITEBYTECODE made every worker and every server a test starts compile the project, and pytest rewrite
# every test module's asserts, again: a worker's collection 13 s of CPU cold, 5 s warm). The suite is collected
# once beside the lint, on the other core, so the workers find every module compiled.
test test-fast test-pg: export PYTHONDONTWRITEBYTECODE :=
test test-fast test-pg: export PYTHONPYCACHEPREFIX := $(CURDIR)/test-output/pycache
COMPILE := $(BIN)/pytest --collect-only -q -p no:cacheprovider $(PYTEST_ARGS) >/dev/null 2>&1
# The run's migrated SQLite template is made beside the lint too, afresh each run (tests/databases.py): the first
# worker no longer migrates while the other waits. On PostgreSQL (DATABASE_URL) the suite makes its own.
MIGRATED := $(CURDIR)/test-output/migrated.sqlite3
test test-fast: export REFEREE_MIGRATED_SQLITE := $(if $(DATABASE_URL),,$(MIGRATED))
MIGRATE_AHEAD := $(if $(DATABASE_URL),true,DEBUG=1 $(BIN)/python -m tests.databases $(MIGRATED))
# It prints its own wall time after set-up (lint, checks and every test), the figure the 5-minute target is for.
test: setup browser proxy
	@start=$$(date +%s); mkdir -p $(dir $(MIGRATED)); rm -f $(MIGRATED); \
	$(COMPILE) & compiling=$$!; $(MIGRATE_AHEAD) & migrating=$$!; \
	$(MAKE) --no-print-directory lint check; rc=$$?; wait $$compiling $$migrating; \
	[ $$rc = 0 ] && $(PYTEST) $(PYTEST_ARGS); rc=$$?; \
	echo "make test: $$(( $$(date +%s) - start )) s of wall time after set-up (lint, checks, every test)"; exit $$rc

# The whole suite, browser tests included, on PostgreSQL (what `.ci/run` cannot fit in its 15 minutes): a scratch
# database made on PG_HOST, the suite run on it (each worker's test database and the run's template are made from
# its name and dropped by the suite), then the scratch database dropped, whatever the suite's answer. PG_DB names it.
PG_HOST ?= 127.0.0.1
PG_PORT ?= 5432
PG_USER ?= postgres
PG_DB ?= referee_test_$$$$
test-pg: setup browser proxy
	@db="$(PG_DB)"; psql="psql -h $(PG_HOST) -p $(PG_PORT) -U $(PG_USER) -d postgres -qc"; \
	$$psql "CREATE DATABASE \"$$db\"" || exit 1; \
	trap '$$psql "DROP DATABASE IF EXISTS \"'"$$db"'\""' EXIT; \
	echo "=== the whole suite on PostgreSQL ($$db)"; \
	DATABASE_URL="postgres://$(PG_USER)@$(PG_HOST):$(PG_PORT)/$$db" $(PYTEST) $(PYTEST_ARGS)

# The edit loop: everything but the browser tests (marker `browser`), which `make test` and CI still run
# (`FAST_MARKERS` widens it: CI's PostgreSQL pass adds the browser tests of marker `both_databases`). The template
# is migrated while the workers start and collect (they wait for it while its `.making` mark is there).
FAST_MARKERS ?= not browser
test-fast: setup proxy
	@mkdir -p $(dir $(MIGRATED)); rm -f $(MIGRATED); touch $(MIGRATED).making; \
	($(MIGRATE_AHEAD); rm -f $(MIGRATED).making) & migrating=$$!; \
	$(PYTEST) -m "$(FAST_MARKERS)" $(PYTEST_ARGS); rc=$$?; wait $$migrating; exit $$rc

# Refresh the message catalogue after changing interface strings (then translate the new entries).
messages: $(VENV)/.installed
	DEBUG=1 $(MANAGE) makemessages -l zh_Hans --ignore=.venv --ignore=rules
	DEBUG=1 $(MANAGE) make_zh_hant

# Benchmarks (not tests): the engine, trick entry through the JSON endpoint, standings and the workbook, a ruleset change.
# The site's benchmarks run on a throwaway SQLite database so they never touch db.sqlite3.
BENCH_DB := /tmp/referee-bench.sqlite3
bench: setup
	$(BIN)/python -m rules bench
	rm -f $(BENCH_DB)*
	DEBUG=1 DATABASE_URL=sqlite:///$(BENCH_DB) $(MANAGE) migrate --no-input -v0
	DEBUG=1 DATABASE_URL=sqlite:///$(BENCH_DB) $(MANAGE) bench_entry
	DEBUG=1 DATABASE_URL=sqlite:///$(BENCH_DB) $(MANAGE) bench_desk
	DEBUG=1 DATABASE_URL=sqlite:///$(BENCH_DB) $(MANAGE) bench_rescore
	DEBUG=1 DATABASE_URL=sqlite:///$(BENCH_DB) $(MANAGE) bench_signin
	DEBUG=1 DATABASE_URL=sqlite:///$(BENCH_DB) $(MANAGE) bench_trace --quiet
	rm -f $(BENCH_DB)*

# Load test (not a test): judges posting plays over HTTP to a real server the command starts (DEBUG off), then a
# check of the database. A throwaway SQLite database, or DATABASE_URL when set. Options: make load LOAD_ARGS='--closed'.
LOAD_DB := /tmp/referee-load.sqlite3
LOAD_URL := $(or $(DATABASE_URL),sqlite:///$(LOAD_DB))
LOAD_ARGS ?=
load: setup
	rm -f $(LOAD_DB)*
	DEBUG=1 DATABASE_URL=$(LOAD_URL) $(MANAGE) migrate --no-input -v0
	DEBUG=1 DATABASE_URL=$(LOAD_URL) $(MANAGE) load $(LOAD_ARGS)
	rm -f $(LOAD_DB)*

# Issue 38's checks against a server started as `make serve` starts it (not a test): a scratch folder in /tmp (its
# database, cache, throttle store, static files and backups), `python -m referee.serve` started there on 127.0.0.1,
# an event prepared, 3,000 X-Live, ?sort= and Accept-Language values each, 64 wrong PINs at once at the tablet and
# at a table, that pair tried at the tablet, 6 identical adjustments, 2 forfeits and 6 new series at once; each
# figure printed with PASS or FAIL, the server stopped, the folder removed. --postgres URL: on PostgreSQL.
# Options: make serve-checks SERVE_CHECKS_ARGS='--port 8010' (--url checks a running server: see the tool's --help).
SERVE_CHECKS_ARGS ?=
serve-checks: setup
	$(BIN)/python -m tools.checks.serve_checks $(SERVE_CHECKS_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
