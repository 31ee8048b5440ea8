# Stammtisch: developer entry points. GNU make; recipes are indented with tabs.
#
#   make run     serve http://127.0.0.1:8000 on SQLite under ./var/ (migrates first), with
#                python -m server: uvicorn with the server's limits (server/api/limits.py)
#   make test    ruff + mypy + pytest (what CI runs)
#   make bench   engine benchmarks (bench/run.py)
#
# Everything runs inside ./.venv, which is created (and re-installed whenever
# pyproject.toml changes) on demand. Only Python 3.11+ and make are needed.
# `make run` (and `make migrate`) install only what the server needs (`pip install -e .`);
# the targets that test, lint or measure add the test tools (`pip install -e '.[dev]'`:
# pytest, mypy, ruff, playwright, httpx), each behind its own stamp.

PY ?= python3
VENV = .venv
BIN = $(VENV)/bin
SERVER_STAMP = $(VENV)/.installed-server
DEV_STAMP = $(VENV)/.installed-dev

# `make run HOST=0.0.0.0 PORT=8080` overrides these (the environment does not: many
# shells export HOST as the machine's name).
HOST = 127.0.0.1
PORT = 8000

# The database every target here uses; the default is the embedded SQLite file.
DATABASE_URL ?= sqlite+aiosqlite:///./var/stammtisch.sqlite3
export DATABASE_URL

.DEFAULT_GOAL := help
.PHONY: help venv run migrate test lint typecheck pytest bench bench-compare bench-count clean chromium

help:
	@echo "make run        serve http://$(HOST):$(PORT) (SQLite under ./var/, migrated first)"
	@echo "make test       ruff (lint + format), mypy and pytest: what CI runs"
	@echo "make bench      engine benchmarks (bench/run.py), then the WebSocket load test (bench/load.py)"
	@echo "make bench-compare REF=<commit>  engine speed against REF, measured in the same run"
	@echo "make bench-count REF=<commit>    instructions per deal against REF (needs valgrind)"
	@echo "make migrate    alembic upgrade head on DATABASE_URL"
	@echo "make lint       ruff check and ruff format --check"
	@echo "make typecheck  mypy"
	@echo "make chromium   install Debian's chromium for the browser tests (make test does it when missing)"
	@echo "make clean      remove .venv, var/ and caches"

$(BIN)/python:
	$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11+ is needed; try make PY=python3.11")'
	$(PY) -m venv $(VENV)

$(SERVER_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $@

# The test tools on top of the server's packages (a later `make run` finds both stamps
# newer than pyproject.toml and installs nothing).
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
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

# `make bench-compare REF=<commit>`: engine speed of the working tree against REF, in one run.
REF ?= main
bench-compare: $(DEV_STAMP)
	$(BIN)/python bench/compare.py --ref $(REF)

# `make bench-count REF=<commit>`: instructions and cache misses per deal (valgrind), both trees.
bench-count: $(DEV_STAMP)
	$(BIN)/python bench/instructions.py --games dreierles,doppen,doppelkopf --ref $(REF)

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache artifacts build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
