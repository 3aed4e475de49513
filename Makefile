# Two commands on a fresh machine with Python 3.11+, Node.js 20+ and make: `make run`, `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
HOST ?= 127.0.0.1:8000

.PHONY: run serve test lint engine pytest jstest vectors bench loadtest messages clean

# The packages are installed by uv, into the venv, from PyPI: the same releases pip picks,
# fetched and unpacked in parallel (a fresh clone's dev install: 10 s with uv's cache empty,
# against pip's 33 s on one core of a 0.29 s machine, most of CI's first half minute).
UV := $(VENV)/bin/uv
UV_INSTALL := $(UV) pip install --quiet --python $(PY)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(UV): | $(PY)
	$(PIP) install 'uv>=0.13,<1'

# Reinstall when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(UV)
	$(UV_INSTALL) -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(UV)
	$(UV_INSTALL) -e '.[dev]'
	@touch $(VENV)/.installed $@

# Static files as in production: collected, compressed, served by WhiteNoise. The jobs'
# worker runs beside the server and stops with it (Ctrl+C stops both).
run: $(VENV)/.installed
	DEBUG=1 $(PY) manage.py migrate --no-input
	DEBUG=1 $(PY) manage.py collectstatic --no-input
	DEBUG=1 $(PY) manage.py schedule_jobs
	DEBUG=1 $(PY) manage.py db_worker --no-startup-delay & trap 'kill $$! 2>/dev/null' EXIT INT TERM; \
	DEBUG=1 $(PY) manage.py runserver $(HOST)

# Production, behind nginx: gunicorn as boulmous_site/gunicorn.py sets it up. DEBUG is
# off, so the environment must give SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, REDIS_URL (the
# throttles' shared counts) and the proxy's HTTPS header (SECURE_PROXY_SSL_HEADER):
# docs/deploy.md lists them all.
serve: $(VENV)/.installed
	$(PY) manage.py migrate --no-input
	$(PY) manage.py collectstatic --no-input
	exec $(VENV)/bin/gunicorn -c boulmous_site/gunicorn.py boulmous_site.wsgi

test: lint engine pytest jstest

# lint-imports: the house by context (pyproject.toml's import-linter contracts).
lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

# The rules engine's tests, which alone must cover it all (100% of its branches): coverage
# traces them only, not the site's.
engine: $(VENV)/.installed-dev
	$(PY) -m pytest tests/engine --cov --cov-report=term --durations=10 $(PYTEST_ARGS)

# The rest of the suite, spread over one worker per CPU core (pytest-xdist: each worker
# has its own test database); the 25 slowest tests are named at the end. CI (.ci/run)
# runs the same pieces in parallel, the database tests on PostgreSQL.
pytest: $(VENV)/.installed-dev
	$(PY) -m pytest -n auto --ignore=tests/engine --durations=25 $(PYTEST_ARGS)

# The browser's rules (static/js/rules.js) against the engine's answers in
# tests/data/js-vectors.json, with Node's own test runner (Node 20).
jstest:
	node --test tests/js/

# Writes tests/data/js-vectors.json again from the engine; pytest fails while it is stale.
vectors: $(VENV)/.installed-dev
	$(PY) tests/js/make_vectors.py

bench: $(VENV)/.installed-dev
	$(PY) tests/bench/bench_engine.py
	$(PY) tests/bench/bench_site.py
	$(PY) tests/bench/bench_first_visit.py
	$(PY) tests/bench/bench_cache.py
	$(PY) tests/bench/bench_compiled.py
	$(PY) tests/bench/bench_league.py
	$(PY) tests/bench/bench_federation.py
	$(PY) tests/bench/bench_draw.py
	$(PY) tests/bench/bench_events.py
	$(PY) tests/bench/bench_settlement.py
	$(PY) tests/bench/bench_import.py
	$(PY) tests/bench/bench_throttles.py

# 20 locust users for 60 s against gunicorn on 127.0.0.1:8001, then each page at saturation
# (wrk, 8 connections, each page's rate as a share of /healthz's: tests/load/saturation.py),
# over a PostgreSQL database (boulmous_load) of 10,000 seeded games of 30 hands: seeded once,
# kept for re-runs. Prints the figures against the aims; tests/load/run.sh says what it reads
# from the environment.
loadtest: $(VENV)/.installed-dev
	bash tests/load/run.sh
	$(PY) tests/bench/bench_live.py

# Needs GNU gettext (xgettext, msgfmt): a translator's tool, not needed to run.
messages: $(VENV)/.installed-dev
	$(PY) manage.py makemessages --locale fr --locale ar --no-obsolete --ignore '.venv/*' --ignore 'tests/*'
	$(PY) manage.py compilemessages --locale fr --locale ar --ignore '.venv/*'

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage
