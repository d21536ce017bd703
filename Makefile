# The two commands: `make run` and `make test`. Everything else is set-up they share.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp for what the room needs to run, one for the test tools on top of it.
ROOM_STAMP := $(VENV)/.installed-room
TEST_STAMP := $(VENV)/.installed-test
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs on this many pytest-xdist workers (one per core here); each worker
# has its own databases and its own browser-test server. `make pytest WORKERS=0`
# runs it in one process.
WORKERS ?= 2

.PHONY: run test install admin lint typecheck pytest clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# `make run` installs the room alone; the test tools (pytest, mypy, Playwright,
# PokerKit, schemathesis) and the load test's extra come with `make test`.
$(ROOM_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(ROOM_STAMP)

$(TEST_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(ROOM_STAMP) $(TEST_STAMP)

install: $(TEST_STAMP)

run: $(ROOM_STAMP)
	mkdir -p var
	$(BIN)/cardroom db upgrade
	$(BIN)/cardroom serve --host $(HOST) --port $(PORT)

# An account from the command line, e.g. the first admin: make admin NAME=boss
# (asks for the password in a terminal; a script pipes it in on standard input).
admin: $(ROOM_STAMP)
	@test -n "$(NAME)" || { echo "Say whose account: make admin NAME=boss" >&2; exit 2; }
	mkdir -p var
	$(BIN)/cardroom db upgrade
	$(BIN)/cardroom admin create-user '$(NAME)' --admin

lint: $(TEST_STAMP)
	$(BIN)/ruff check cardroom tests benchmarks scripts
	$(BIN)/ruff format --check cardroom tests benchmarks scripts
	$(BIN)/lint-imports

typecheck: $(TEST_STAMP)
	$(BIN)/mypy cardroom

pytest: $(TEST_STAMP)
	scripts/ensure-services
	scripts/ensure-chromium
	$(BIN)/pytest -q -n $(WORKERS) --dist loadscope

test: lint typecheck pytest

clean:
	rm -rf $(VENV) var .mypy_cache .pytest_cache .ruff_cache
