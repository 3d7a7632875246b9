# Developer tasks for phase10. Everything runs inside a local virtualenv (.venv),
# so a fresh clone needs only python3 (3.11+) and make.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
BIN    := $(VENV)/bin

LINT_PATHS := src tests benchmarks

# Stamp files record that an install step has run against the current
# pyproject.toml and kernel sources, so repeated targets do not reinstall every time
# (an editable install compiles the kernel once: a changed C source needs a rebuild).
KERNEL_SOURCES := hatch_build.py $(wildcard src/phase10/kernel/*.c src/phase10/kernel/*.h)
STAMP_CLI  := $(VENV)/.installed-cli
STAMP_TEST := $(VENV)/.installed-test
STAMP_BENCH := $(VENV)/.installed-bench

.DEFAULT_GOAL := help

.PHONY: help install play serve test test-fast lint format bench chromium postgresql vendor schemas nodejs clean distclean

help: ## Show this help
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# uv installs the packages (several times faster than pip: the test extra holds PyTorch);
# it looks in the same local wheel folders pip is told of, and pip does the work if uv fails.
FIND_LINKS = $(strip $(PIP_FIND_LINKS) $(shell $(PYTHON) -m pip config get global.find-links 2>/dev/null))
INSTALL = $(BIN)/uv pip install --python $(PY) $(addprefix --find-links ,$(FIND_LINKS))

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip uv

$(STAMP_CLI): pyproject.toml $(KERNEL_SOURCES) | $(PY)
	$(INSTALL) -e '.[cli,tui,server]' || $(PIP) install -e '.[cli,tui,server]'
	@touch $@

$(STAMP_TEST): pyproject.toml $(KERNEL_SOURCES) | $(PY)
	$(INSTALL) -e '.[test]' || $(PIP) install -e '.[test]'
	@touch $@

$(STAMP_BENCH): pyproject.toml $(KERNEL_SOURCES) | $(PY)
	$(INSTALL) -e '.[cli,tui,rl,server,bench]' || $(PIP) install -e '.[cli,tui,rl,server,bench]'
	@touch $@

install: $(STAMP_CLI) ## Create .venv and install phase10 with the command line

play: install ## Play Phase 10 in the terminal against the computer
	$(BIN)/phase10 play

# worksteal: a worker that runs out of tests takes half of the other's queue, so the
# few long tests do not leave one worker idle at the end.
test: lint chromium postgresql nodejs ## Lint, type-check and run the full test suite
	$(BIN)/pytest -n 2 --dist worksteal

# The tests marked slow (browser, PostgreSQL, restarts, long property and soak-like runs)
# are left out: no Chromium or PostgreSQL needed. `make test` runs everything.
test-fast: lint ## Lint, type-check and run the tests not marked slow
	$(BIN)/pytest -n 2 --dist worksteal -m "not slow"

# The browser tests drive Debian's Chromium; install it when it is missing.
chromium: ## Install Debian's chromium for the browser tests (when missing)
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || \
		{ apt-get update && apt-get install -y chromium; } || \
		echo "chromium could not be installed: the browser tests will be skipped"

# The example Node.js bot (examples/bots/node/) is tested with Debian's Node.js.
nodejs: ## Install Debian's nodejs for the example Node.js bot's test (when missing)
	@command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1 || \
		{ apt-get update && apt-get install -y nodejs; } || \
		echo "nodejs could not be installed: the Node.js bot's test will be skipped"

# The server's PostgreSQL tests start a throw-away cluster with Debian's PostgreSQL
# server programs (initdb, pg_ctl); install them when they are missing.
postgresql: ## Install Debian's PostgreSQL for the database tests (when missing)
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ apt-get update && apt-get install -y postgresql; } || \
		echo "postgresql could not be installed: the PostgreSQL tests will be skipped"

serve: install ## Host games in the browser on http://127.0.0.1:8000/
	$(BIN)/phase10 serve

lint: $(STAMP_TEST) ## Run ruff (lint and formatting check), mypy and lint-imports only
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/mypy
	$(BIN)/lint-imports

format: $(STAMP_TEST) ## Reformat the code and apply safe lint fixes
	$(BIN)/ruff format $(LINT_PATHS)
	$(BIN)/ruff check --fix $(LINT_PATHS)

# The protocols' JSON Schemas (docs/schemas/) and the generated tables of
# docs/server-protocol.md and docs/bot-protocol.md, written from the typed models;
# a test fails when the committed ones are stale.
schemas: $(STAMP_TEST) ## Regenerate the protocols' JSON Schemas and document tables
	$(PY) -m phase10.server.schemas
	$(PY) -m phase10.bots.wire

bench: $(STAMP_BENCH) ## Run every benchmark in benchmarks/
	$(PY) -m benchmarks

# The browser libraries the server ships, copied unchanged from npm (see their README).
VENDOR := src/phase10/server/static/vendor
# axe-core checks the pages for accessibility in the browser tests; no page loads it
TEST_VENDOR := tests/vendor
vendor: ## Fetch the vendored browser libraries again from npm
	rm -rf build/vendor && mkdir -p build/vendor
	cd build/vendor && npm pack --silent swagger-ui-dist@5.35.0 && tar xzf swagger-ui-dist-5.35.0.tgz
	cp build/vendor/package/swagger-ui-bundle.js build/vendor/package/swagger-ui-bundle.js.LICENSE.txt \
		build/vendor/package/swagger-ui.css build/vendor/package/LICENSE build/vendor/package/NOTICE \
		$(VENDOR)/swagger-ui/
	cd build/vendor && npm pack --silent htm@3.1.1 preact@10.27.2 axe-core@4.11.0
	mkdir -p build/vendor/htm build/vendor/preact build/vendor/axe-core $(VENDOR)/htm $(TEST_VENDOR)/axe-core
	tar xzf build/vendor/htm-3.1.1.tgz -C build/vendor/htm
	tar xzf build/vendor/preact-10.27.2.tgz -C build/vendor/preact
	tar xzf build/vendor/axe-core-4.11.0.tgz -C build/vendor/axe-core
	cp build/vendor/htm/package/preact/standalone.module.js $(VENDOR)/htm/
	cp build/vendor/htm/package/LICENSE $(VENDOR)/htm/LICENSE
	cp build/vendor/preact/package/LICENSE $(VENDOR)/htm/LICENSE.preact
	cp build/vendor/axe-core/package/axe.min.js build/vendor/axe-core/package/LICENSE \
		build/vendor/axe-core/package/LICENSE-3RD-PARTY.txt $(TEST_VENDOR)/axe-core/
	cd build/vendor && sha512sum htm-3.1.1.tgz preact-10.27.2.tgz axe-core-4.11.0.tgz

clean: ## Remove build artefacts and tool caches
	rm -rf build dist .mypy_cache .ruff_cache .pytest_cache .import_linter_cache .hypothesis .coverage htmlcov
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name '*.egg-info' \) -type d -print \
		| xargs rm -rf

distclean: clean ## Also remove the virtualenv
	rm -rf $(VENV)
