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

# The tests run on TEST_WORKERS xdist workers, each with a database, a Redis database and a
# live server of its own (TEST_WORKERS=0: all in this process). Three keep two cores busy
# (a fourth only adds its own database, server and browsers to start, and the run is longer).
# String hashes are fixed too, so that no test depends on the order of a set on one run and
# not the next.
TEST_WORKERS ?= 3
test: setup-dev
	PYTHONHASHSEED=0 $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

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
	$(VENV)/bin/mypy accounts games leagues tournaments analysis history infra ctg_site
	$(VENV)/bin/lint-imports

# Web, Celery worker and beat together, on DATABASE_URL and REDIS_URL (see README).
serve-all: setup
	$(PY) manage.py migrate --noinput
	$(VENV)/bin/honcho start
