# The two commands: `make run` and `make test`. Everything else is set-up they share.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install lint typecheck pytest clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	mkdir -p var
	$(BIN)/cardroom db upgrade
	$(BIN)/cardroom serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check cardroom tests benchmarks scripts
	$(BIN)/ruff format --check cardroom tests benchmarks scripts
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy cardroom

pytest: $(STAMP)
	scripts/ensure-services
	scripts/ensure-chromium
	$(BIN)/pytest -q

test: lint typecheck pytest

clean:
	rm -rf $(VENV) var .mypy_cache .pytest_cache .ruff_cache
