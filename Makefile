# Foot Canasta — the two commands of a fresh clone: `make run` and `make test`.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)
# The client's lint tools (package.json, locked by package-lock.json), stamped by the lock's checksum too.
NODE_STAMP := node_modules/.installed-$(shell cksum < package-lock.json | cut -d' ' -f1)

.PHONY: run test lint format lock bench system-packages messages migrate clean cluster screenshots

# requirements-dev.txt is the whole lock (runtime and tools, with hashes): pip refuses any file whose
# hash differs. The stamp's name is the lock's checksum, so a changed lock installs again.
$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.txt
	rm -f $(VENV)/.installed-*
	touch $@

# npm ci installs exactly the lock (and refuses a lock that disagrees with package.json); Node and npm
# come from Debian when missing (scripts/system-packages.sh).
$(NODE_STAMP): package.json package-lock.json
	command -v npm >/dev/null || bash scripts/system-packages.sh
	npm ci --quiet --no-audit --no-fund --ignore-scripts
	touch $@

# Debian packages the suite needs (Chromium, gettext, a Bengali font); installed when missing.
system-packages:
	bash scripts/system-packages.sh

messages: $(STAMP)
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages --ignore=.venv -v 0; \
	else echo "gettext not installed: pages stay in English (make test installs it)"; fi

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput -v 0

# Local play: DEBUG stays off (a mistyped address shows the site's 404, not Django's debug page);
# cookies without the Secure flag, since the local site is plain HTTP. WhiteNoise serves the static
# files straight from static/ (no collectstatic), so its warning about the missing staticfiles/ folder
# (which only a production install fills) is silenced here and nowhere else.
LOCAL_PLAY := SECURE_COOKIES=0 PYTHONWARNINGS="ignore:No directory at:UserWarning"

run: $(STAMP) messages migrate
	@echo "Foot Canasta at http://127.0.0.1:8000/"
	$(LOCAL_PLAY) $(VENV)/bin/python -m server.serve -b 127.0.0.1 -p 8000 server.asgi:application

test: lint system-packages messages
	$(PY) manage.py check
	$(PY) -m pytest -q -n 2 --dist loadgroup

# The docs' screenshots (docs/screenshots) taken again by the browser tests; `make test` leaves them be.
screenshots: system-packages messages
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q -n 2 tests/browser

# Lint, format check, types (pyproject.toml), the import contracts (.importlinter) and the client's
# JavaScript (eslint.config.js).
lint: $(STAMP) $(NODE_STAMP)
	$(PY) -m ruff check --quiet .
	$(PY) -m ruff format --check --quiet .
	$(PY) -m mypy
	@if [ -f .importlinter ]; then $(VENV)/bin/lint-imports; else echo "no .importlinter: import contracts not checked"; fi
	node_modules/.bin/eslint static/foot eslint.config.js

# Fix what ruff can fix, then format (pyproject.toml says which files).
format: $(STAMP)
	$(PY) -m ruff check --fix --quiet .
	$(PY) -m ruff format --quiet .

# Compile the locks from requirements.in / requirements-dev.in (README: upgrading one dependency).
PIP_COMPILE := $(VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-find-links --no-emit-index-url --no-emit-trusted-host
lock: $(STAMP)
	$(PIP_COMPILE) $(UPGRADE) -o requirements.txt requirements.in
	$(PIP_COMPILE) $(UPGRADE) --constraint requirements.txt -o requirements-dev.txt requirements.in requirements-dev.in

# Benchmarks print their figures (docs/PERFORMANCE.md, docs/BOTS.md); PostgreSQL and Redis as in CI.
BENCH_PG    ?= postgres://postgres@127.0.0.1:5432/postgres
BENCH_REDIS ?= redis://127.0.0.1:6379/3
bench: $(STAMP) migrate
	$(PY) -m benchmarks bench_engine
	$(PY) -m benchmarks bench_bots
	$(PY) -m benchmarks bench_lookback
	$(PY) -m benchmarks bench_server
	dropdb -h 127.0.0.1 -U postgres --if-exists foot_bench_server && createdb -h 127.0.0.1 -U postgres foot_bench_server
	$(PY) -m benchmarks bench_server --db $(BENCH_PG:/postgres=/foot_bench_server) --redis $(BENCH_REDIS)
	$(PY) -m benchmarks bench_server --mode friends --db $(BENCH_PG:/postgres=/foot_bench_server) --redis $(BENCH_REDIS)
	dropdb -h 127.0.0.1 -U postgres --if-exists foot_bench_server
	dropdb -h 127.0.0.1 -U postgres --if-exists foot_bench_lb && createdb -h 127.0.0.1 -U postgres foot_bench_lb
	DATABASE_URL=$(BENCH_PG:/postgres=/foot_bench_lb) $(PY) manage.py migrate --noinput -v 0
	DATABASE_URL=$(BENCH_PG:/postgres=/foot_bench_lb) $(PY) -m benchmarks bench_leaderboard
	dropdb -h 127.0.0.1 -U postgres --if-exists foot_bench_lb
	$(PY) -m benchmarks bench_load --tables 50,100,200,300,400,600,800,1000 --servers 2 --db $(BENCH_PG) --redis $(BENCH_REDIS)
	$(PY) -m benchmarks bench_load --tables 300 --servers 2 --look-back --db $(BENCH_PG) --redis $(BENCH_REDIS)
	$(PY) -m benchmarks bench_leak --db $(BENCH_PG) --redis $(BENCH_REDIS)
	$(PY) -m benchmarks bench_load --tables 5 --soak 3600 --turn-seconds 1 --db $(BENCH_PG) --redis $(BENCH_REDIS)
	$(PY) -m pytest -q -m slow

# The production shape on this machine: nginx (deploy/nginx.conf) on CLUSTER_PORT in front of
# CLUSTER_SERVERS Daphnes on PostgreSQL and Redis (testsupport/cluster.py; Ctrl-C stops it all).
CLUSTER_DB      ?= postgres://postgres@127.0.0.1:5432/foot_cluster
CLUSTER_REDIS   ?= redis://127.0.0.1:6379/5
CLUSTER_SERVERS ?= 2
CLUSTER_PORT    ?= 8080
cluster: $(STAMP) system-packages messages
	$(PY) -m testsupport.cluster --servers $(CLUSTER_SERVERS) --db $(CLUSTER_DB) --redis $(CLUSTER_REDIS) --port $(CLUSTER_PORT)

clean:
	rm -rf $(VENV) node_modules staticfiles db.sqlite3
