# Two commands: `make run` serves the site (and runs the coach's task worker next to it), `make
# test` runs the whole suite (after `make lint`: ruff over the repository and mypy over every app, strict on the engine and games/).
# Both start with `make setup`, which is idempotent and quick when nothing changed.  It plays
# no deals: the variant pages' statistics ship in reference/content/statistics.json, which
# load_content puts into the database (regenerate the file with `manage.py simulate --write`).

VENV := .venv
BIN := $(VENV)/bin
# Django 6 needs Python 3.12 or newer; pyenv installs are looked for too because their
# shims refuse versions that are not selected.
PYTHON ?= $(shell for p in python3.13 python3.12 $(HOME)/.pyenv/versions/3.13*/bin/python3.13 $(HOME)/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3; do \
	if $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then echo $$p; break; fi; done)
PO_FILES := $(wildcard locale/*/LC_MESSAGES/django.po)
MO_FILES := $(PO_FILES:.po=.mo)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup engine run lint test migrate messages clean

setup: $(VENV)/.installed $(MO_FILES) engine migrate

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is required (python3.12 / python3.13 not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# The engine's hot modules compiled with mypyc into .cache/engine/ (about 40 s, once per
# change of their sources; nothing to do when the build is current).  Without a C compiler the
# pure-Python modules run, with the same moves (tools/build_engine.py).
engine: $(VENV)/.installed
	$(BIN)/python tools/build_engine.py

# compilemessages needs GNU gettext (msgfmt); one .mo per catalogue, rebuilt when its .po changes.
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	@command -v msgfmt >/dev/null || { echo "msgfmt not found: install GNU gettext (apt-get install gettext)"; exit 1; }
	msgfmt --check -o $@ $<

migrate: $(VENV)/.installed
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py load_content

# The coach's hints and reviews run as tasks: a worker (django-tasks-db's db_worker) runs next
# to runserver, and stops with it.
run: setup
	$(BIN)/python manage.py db_worker --interval 0.2 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Needs only the installed tools, not the database that `make setup` fills.
lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy

# PYTEST_ARGS narrows a run (CI's PostgreSQL pass leaves out what cannot touch a database).
# One pytest worker per core (pytest-xdist; three workers on two cores were slower).  Work
# stealing, because the tests that take longest (the browser tests, which are transactional
# and so run last) come at the end: xdist's default scheduling gave them all to one worker
# while the other sat idle for minutes.
# The 25 slowest tests are listed at the end, to see where the suite's minutes go.
test: setup lint
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=25 $(PYTEST_ARGS)

messages: $(VENV)/.installed
	for l in sv fi nb en; do $(BIN)/python manage.py makemessages -l $$l --no-obsolete -i '.venv/*' -i 'bench/*' -i 'staticfiles/*'; done

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 $(MO_FILES) .cache/engine
