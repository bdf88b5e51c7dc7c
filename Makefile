# The two commands of the README. Both create their own virtual environment.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv play bench clean club club-down club-status

$(BIN)/abstracta: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,postgres,redis,bench,openspiel,pettingzoo,gym,plot,ray]'
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

## club: a club deployment on this machine (docs/club.md): PostgreSQL, Redis, a Ray head, two
## abstracta serve workers and nginx on http://127.0.0.1:8080/, state in .club/ (CLUB_ARGS:
## e.g. --workers 3 --host games.club.example --tls-cert cert.pem --tls-key key.pem)
CLUB ?= .club
club: venv
	$(BIN)/python deploy/club.py up --install --state $(CLUB) $(CLUB_ARGS)

## club-down: stop it (the data stays in .club/; `python3 deploy/club.py down --purge` deletes it)
club-down:
	$(PY) deploy/club.py down --state $(CLUB)

club-status:
	$(PY) deploy/club.py status --state $(CLUB)

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
