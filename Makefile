# The two commands of the README, and a few more. Each sets up its own virtual environment
# (.venv/) with what it needs: `make run` only what playing needs, `make test` what the tests need.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
DOCS_PORT ?= 8001
# pip prints nothing but errors; the stamps below remember what each target installed
PIP := $(BIN)/pip install --quiet --disable-pip-version-check

.PHONY: run test venv play research docs docs-build bench wheel clean club club-down club-status

$(BIN)/python:
	$(PY) -m venv $(VENV)

# playing: the web app and the terminal (no research or database extras)
$(VENV)/.run: pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $@

# the tests: the browser tests' driver, the benchmarks' libraries, PostgreSQL's driver and the
# research extras whose adapters they test
$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[test]'
	touch $(VENV)/.run $@

# OpenSpiel, PettingZoo, Gymnasium, Ray, pyarrow (abstracta dataset) and matplotlib (tournament plots)
$(VENV)/.research: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[research]'
	touch $(VENV)/.run $@

# MkDocs, Material, mkdocstrings and the plots of the measurement pages
$(VENV)/.docs: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[docs]'
	touch $(VENV)/.run $@

# a club deployment's workers: PostgreSQL's driver, Redis, Ray (make club)
$(VENV)/.club: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[postgres,redis,ray]'
	touch $(VENV)/.run $@

# everything a developer runs: the tests, the benchmarks, the research extras
venv: $(VENV)/.test

## run: set up and start the web app (SQLite in the user data directory)
run: $(VENV)/.run
	$(BIN)/abstracta serve --host $(HOST) --port $(PORT)

## play: a terminal game of Fanorona against the computer
play: $(VENV)/.run
	$(BIN)/abstracta play fanorona

## test: set up and run every test (Chromium is needed for the browser tests: see .ci/run)
test: $(VENV)/.test
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -q

## research: install the research extras (OpenSpiel, PettingZoo, Gymnasium, Ray, matplotlib)
research: $(VENV)/.research

## docs: serve the documentation site at http://127.0.0.1:$(DOCS_PORT)/ (rebuilt on every change)
docs: $(VENV)/.docs
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:$(DOCS_PORT)

## docs-build: build the documentation site into site/, failing on any warning (a broken link)
docs-build: $(VENV)/.docs
	$(BIN)/mkdocs build --strict

## bench: the engine benchmark table (benchmarks/results/engine.json with --json)
bench: $(VENV)/.test
	$(BIN)/python benchmarks/engine.py

## wheel: build the wheel and source distribution into dist/
wheel: $(VENV)/.test
	$(BIN)/python -m build

## club: a club deployment on this machine (docs/club.md): PostgreSQL, Redis, a Ray head, two
## abstracta serve workers and nginx on http://127.0.0.1:8080/, state in .club/ (CLUB_ARGS:
## e.g. --workers 3 --host games.club.example --tls-cert cert.pem --tls-key key.pem)
CLUB ?= .club
club: $(VENV)/.club
	$(BIN)/python deploy/club.py up --install --state $(CLUB) $(CLUB_ARGS)

## club-down: stop it (the data stays in .club/; `python3 deploy/club.py down --purge` deletes it)
club-down:
	$(PY) deploy/club.py down --state $(CLUB)

club-status:
	$(PY) deploy/club.py status --state $(CLUB)

clean:
	rm -rf $(VENV) build dist site *.egg-info src/*.egg-info
