# Stammtisch: developer entry points. GNU make; recipes are indented with tabs.
#
#   make run     serve http://127.0.0.1:8000 (PORT=…, HOST=…: elsewhere) on SQLite under ./var/ (migrates first), with
#                python -m server: uvicorn with the server's limits (server/api/limits.py)
#   make test    ruff + mypy + pytest (what CI runs, with make audit)
#   make bench   engine benchmarks (bench/run.py)
#   make lock    compile the lock files again after a change to pyproject.toml's requirements
#   make audit   the lock files against known vulnerabilities
#
# Everything runs inside ./.venv, which is created (and re-installed whenever a lock file
# or pyproject.toml changes) on demand. Only Python 3.11+ and make are needed.
# Every package comes from a lock file, pinned and checked against its hashes:
# `make run` (and `make migrate`) install only what the server needs
# (requirements/runtime.lock), the targets that test, lint or measure the test tools too
# (requirements/dev.lock: pytest, mypy, ruff, playwright, httpx, pip-audit, uv), each
# behind its own stamp; then the project itself without dependencies.

PY ?= python3
VENV = .venv
BIN = $(VENV)/bin
SERVER_STAMP = $(VENV)/.installed-server
DEV_STAMP = $(VENV)/.installed-dev
PIP = $(BIN)/python -m pip
RUNTIME_LOCK = requirements/runtime.lock
DEV_LOCK = requirements/dev.lock

# `make run HOST=0.0.0.0 PORT=8080` and `PORT=8080 HOST=0.0.0.0 make run` both override
# these. A HOST from the environment that is only the machine's own name (which many shells
# export as HOST) is not taken for the address to serve on.
HOST ?= 127.0.0.1
PORT ?= 8000
MACHINE_NAMES := $(shell uname -n 2>/dev/null) $(shell hostname 2>/dev/null) \
	$(shell hostname -s 2>/dev/null)
ifeq ($(origin HOST),environment)
ifneq ($(filter $(HOST),$(MACHINE_NAMES)),)
HOST = 127.0.0.1
endif
endif

# The database every target here uses; the default is the embedded SQLite file.
DATABASE_URL ?= sqlite+aiosqlite:///./var/stammtisch.sqlite3
export DATABASE_URL

.DEFAULT_GOAL := help
.PHONY: help venv run migrate test lint typecheck pytest bench bench-bots bench-compare bench-count clean chromium \
	lock audit

help:
	@echo "make run        serve http://$(HOST):$(PORT) (SQLite under ./var/, migrated first)"
	@echo "make test       ruff (lint + format), mypy and pytest: what CI runs"
	@echo "make bench      engine benchmarks (bench/run.py), the WebSocket load tests (bench/load.py, bench/cluster_load.py), the header and login floods"
	@echo "make bench-bots the computer players' duels and legality sweep (bench/bots.py; hours)"
	@echo "make bench-compare REF=<commit>  engine speed against REF, measured in the same run"
	@echo "make bench-count REF=<commit>    instructions per deal against REF (needs valgrind)"
	@echo "make migrate    alembic upgrade head on DATABASE_URL"
	@echo "make lint       ruff check and ruff format --check"
	@echo "make typecheck  mypy"
	@echo "make lock       compile requirements/*.lock again (UPGRADE=1: every pin to the newest release;"
	@echo "                UPGRADE=name: that package only)"
	@echo "make audit      the lock files against known vulnerabilities (pip-audit; CI runs it)"
	@echo "make chromium   install Debian's chromium for the browser tests (make test does it when missing)"
	@echo "make clean      remove .venv, var/ and caches"

$(BIN)/python:
	$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11+ is needed; try make PY=python3.11")'
	$(PY) -m venv $(VENV)

# A lock's packages at their pinned versions, each checked against the lock's hashes; then
# the project itself without dependencies, built by the locked setuptools (no build
# isolation, which would fetch an unpinned one); then requirements/sync.py removes what no
# lock names any longer and checks that the lock meets pyproject.toml (else: make lock).
# Test tools installed before stay (the dev lock is a superset of the runtime lock, at the
# same versions) and are brought up to date by the next target that uses them.
$(SERVER_STAMP): $(RUNTIME_LOCK) pyproject.toml | $(BIN)/python
	$(PIP) install --require-hashes -r $(RUNTIME_LOCK)
	$(PIP) install --no-deps --no-build-isolation --check-build-dependencies -e .
	$(BIN)/python requirements/sync.py $(RUNTIME_LOCK) $(DEV_LOCK)
	touch $@

# The test tools on top of the server's packages: .venv then holds exactly the dev lock
# (a later `make run` finds both stamps newer than the lock files and installs nothing).
$(DEV_STAMP): $(DEV_LOCK) $(RUNTIME_LOCK) pyproject.toml | $(BIN)/python
	$(PIP) install --require-hashes -r $(DEV_LOCK)
	$(PIP) install --no-deps --no-build-isolation --check-build-dependencies -e .
	$(BIN)/python requirements/sync.py --extra dev $(DEV_LOCK)
	$(PIP) check
	touch $(SERVER_STAMP) $@

venv: $(DEV_STAMP)

var:
	mkdir -p var

migrate: $(SERVER_STAMP) var
	$(BIN)/alembic upgrade head

# The server learns its address too: by default it accepts browsers (Origin) only from
# http://$(HOST):$(PORT), with localhost and 127.0.0.1 for a loopback HOST and instead of
# 0.0.0.0; set STAMMTISCH_PUBLIC_ORIGINS for any other address people use.
run: export STAMMTISCH_HOST = $(HOST)
run: export STAMMTISCH_PORT = $(PORT)
run: migrate
	$(BIN)/python -m server --host $(HOST) --port $(PORT)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

pytest: $(DEV_STAMP)
	$(BIN)/pytest

# The browser tests drive Debian's chromium (Playwright with executable_path); install it
# with apt when it is missing (as root, or through sudo without a password). Where that is
# impossible the browser tests are skipped with a notice (CI fails instead).
CHROMIUM ?= /usr/bin/chromium
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "NOTICE: $(CHROMIUM) is missing and apt needs root: the browser tests will be skipped"; exit 0; fi; \
	  echo "Installing Debian's chromium for the browser tests (apt-get)..."; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q \
	    chromium fonts-dejavu-core; \
	fi

test: $(DEV_STAMP) chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(DEV_STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/load.py --mode computers --no-baseline --computer-tables 50 --repeats 3
	$(BIN)/python bench/load.py --mode computers --no-baseline --computer-tables 50 --repeats 3 \
		--computer-level stark
	$(BIN)/python bench/cluster_load.py
	$(BIN)/python bench/deal_end.py
	$(BIN)/python bench/header_flood.py
	$(BIN)/python bench/login_flood.py
	$(BIN)/python bench/gc_pause.py

# `make bench-bots`: the computer players' duplicate duels (2,000 deal sets per game and
# pair) and the legality sweep (100,000 decisions per game and level); about half a day on two cores.
bench-bots: $(DEV_STAMP)
	$(BIN)/python bench/bots.py --sets 2000 --decisions 100000 --stark-decisions 100000 \
		--progress $(or $(PROGRESS),var/bench-bots) \
		--jobs $(shell nproc) --json bench-bots.json

# `make bench-compare REF=<commit>`: engine speed of the working tree against REF, in one run.
REF ?= main
bench-compare: $(DEV_STAMP)
	$(BIN)/python bench/compare.py --ref $(REF)

# `make bench-count REF=<commit>`: instructions and cache misses per deal (valgrind), both trees.
bench-count: $(DEV_STAMP)
	$(BIN)/python bench/instructions.py --games dreierles,doppen,doppelkopf --ref $(REF)

# The lock files, compiled by uv from pyproject.toml's requirements and [build-system]
# (setuptools, which builds the project): requirements/dev.lock with the dev extra, then
# requirements/runtime.lock held to the same versions. One universal resolution for Python
# 3.11 and later on every platform (environment markers where a platform differs), with the
# hashes of every file of each pinned release. Without UPGRADE the pins stay where they are
# unless pyproject.toml's requirements move them. The lock's own uv is installed first
# (the project is not: its requirements may be what is changing).
UPGRADE ?=
UPGRADE_FLAGS = $(if $(filter 1 all,$(UPGRADE)),--upgrade,$(addprefix --upgrade-package ,$(UPGRADE)))
BUILD_REQUIRES = $(BIN)/python -c 'import tomllib; \
	print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")'
COMPILE = $(BIN)/uv pip compile --quiet pyproject.toml - --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command 'make lock'
lock: | $(BIN)/python
	$(PIP) install --quiet --require-hashes -r $(DEV_LOCK)
	$(BUILD_REQUIRES) | $(COMPILE) --extra dev $(UPGRADE_FLAGS) -o $(DEV_LOCK)
	$(BUILD_REQUIRES) | $(COMPILE) --constraint $(DEV_LOCK) -o $(RUNTIME_LOCK)

# pip-audit over every pin of both lock files (requirements/audit.py says how); fails on a
# known vulnerability and on a pin it could not audit. Needs the network.
audit: $(DEV_STAMP)
	$(BIN)/python requirements/audit.py $(RUNTIME_LOCK) $(DEV_LOCK)

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache artifacts build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
