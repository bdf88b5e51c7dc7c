# The two commands of the README. Both create their own virtual environment.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv play bench clean

$(BIN)/abstracta: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,postgres,bench,openspiel,pettingzoo,gym,dataset,plot,ray]'
	touch $(BIN)/abstracta

venv: $(BIN)/abstracta

## run: set up and start the web app (SQLite in the user data directory)
run: venv
	$(BIN)/abstracta serve --host $(HOST) --port $(PORT)

## play: a terminal game of Fanorona against the computer
play: venv
	$(BIN)/abstracta play fanorona

## test: set up and run every test (Chromium is needed for the browser tests: see .ci/run)
test: venv
	$(BIN)/python -m pytest -n 2 --dist loadfile -q

## bench: the engine benchmark table of the README
bench: venv
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
