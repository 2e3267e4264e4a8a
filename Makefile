# The two commands: `make run` serves the site, `make test` runs the tests.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
DEV_STAMP := $(VENV)/.dev-requirements-installed

.PHONY: run test setup setup-dev lint serve-all

# The development server, by choice: DEBUG on, with the development key.
run: export DEBUG = 1
run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_data
	$(PY) manage.py runserver 127.0.0.1:8000

test: setup-dev
	$(PY) -m pytest $(PYTEST_ARGS)

setup: $(STAMP)
	$(PY) scripts/compile_translations.py

$(STAMP): requirements.txt scripts/make-venv
	scripts/make-venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

# Tests, lint and benchmarks need the development tools too; a production install does not.
setup-dev: setup $(DEV_STAMP)

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt -r requirements-dev.txt
	touch $(DEV_STAMP)

lint: export DEBUG = 1
lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy accounts games leagues tournaments history ctg_site
	$(VENV)/bin/lint-imports

# Web, Celery worker and beat together, on DATABASE_URL and REDIS_URL (see README).
serve-all: setup
	$(PY) manage.py migrate --noinput
	$(VENV)/bin/honcho start
