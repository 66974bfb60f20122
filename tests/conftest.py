"""Shared fixtures: a fresh PostgreSQL database, a spare Redis database, real Daphne processes.

- `postgres_url`: a database foot_test_<random> on TEST_DATABASE_URL's server (default
  127.0.0.1:5432, user postgres), created and migrated once per test session (per xdist worker),
  dropped at the end. Without PostgreSQL it skips, or fails under CI (testsupport.services).
- `redis_url`: redis://<TEST_REDIS_URL's host and port, default 127.0.0.1:6379>/<a spare db, 1-15>.
  Without Redis it skips, or fails under CI.
- The stale message catalogues are compiled when the session starts (testsupport.catalogues);
  `german_catalogue` is for the tests of German texts.
- `sqlite_url`: a migrated SQLite file in the test's tmp dir (for Daphne subprocesses).
- Browser tests run last on every worker: Playwright's sync API (the browser tests' session
  fixture) leaves an event loop running in the worker's main thread, where `asyncio.run` of any
  later test would fail.
- `fresh_rate_limits` (autouse): the cache, where in-process tests count their rate limits, is emptied after each test.
- `daphne`: a factory `daphne(database_url, **env) -> DaphneServer` that starts
  `python -m daphne server.asgi:application` on a free port and waits until it answers;
  every server it started is stopped at teardown.
"""

import os
import random
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import override_settings

from testsupport import catalogues
from testsupport.daphne import DaphneServer, server_env
from testsupport.services import service_missing

ROOT = Path(__file__).resolve().parent.parent
BASE_POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
BASE_REDIS_URL = urlsplit(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
BASE_REDIS_HOST = BASE_REDIS_URL.hostname or "127.0.0.1"
BASE_REDIS_PORT = BASE_REDIS_URL.port or 6379


def pytest_sessionstart(session):
    """The German and Bengali texts need compiled catalogues; stale ones are compiled first."""
    catalogues.compile_if_stale(server_env("sqlite:///:memory:"))


@pytest.fixture
def german_catalogue():
    """For the tests of German texts: no catalogue is a missing tool (gettext), not a pass."""
    if not catalogues.compiled("de"):
        service_missing("locale/de is not compiled and gettext's msgfmt is not installed")


@pytest.fixture(autouse=True)
def test_hooks_on():
    """The test hooks (FOOT_TEST_HOOKS, off by default) are on in every in-process test; a test of
    the defaults turns them off. Without Django (the engine's mutation runs) there is nothing to do."""
    if not django_settings.configured:
        yield
        return
    with override_settings(FOOT_TEST_HOOKS=True):
        yield


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Browser tests last (a stable sort, the same on every xdist worker); see the docstring."""
    items.sort(key=lambda item: "tests/browser/" in item.nodeid.replace("\\", "/") or "browser" in item.keywords)


def migrate(database_url: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=server_env(database_url),
        check=True,
        timeout=120,
    )


@pytest.fixture(autouse=True)
def par_not_in_background():
    """A daily deal made in an in-process test starts no par thread (FOOT_PAR_IN_BACKGROUND): it
    would outlive its test and log "par of … failed" when the database is closed or flushed under
    it. A test of the background par turns it back on; the test servers keep the default."""
    if not django_settings.configured:
        yield
        return
    with override_settings(FOOT_PAR_IN_BACKGROUND=False):
        yield


@pytest.fixture(autouse=True)
def look_backs_do_not_wait_for_idle_cpu():
    """An in-process look back searches at once (FOOT_LOOKBACK_BUSY=1): the suite keeps the
    machine busy, and a search waiting for idle CPU would only wait. tests/rooms/test_machine_idle.py
    tests the wait itself."""
    if not django_settings.configured:
        yield
        return
    with override_settings(FOOT_LOOKBACK_BUSY=1.0):
        yield


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Every in-process test starts with no rate-limit counts: the tests all come from one address and
    share the process's cache, where the counts of earlier tests would otherwise add up."""
    yield
    # Only the process's own memory: a cache in Redis (REDIS_URL set for pytest itself) is shared and
    # is not flushed; the limits' keys there expire with their windows. Not in the engine's mutation
    # runs either, which go without Django.
    if django_settings.configured and "LocMemCache" in django_settings.CACHES["default"]["BACKEND"]:
        cache.clear()


@pytest.fixture(scope="session")
def postgres_url():
    admin, down = None, None
    try:
        admin = psycopg.connect(
            BASE_POSTGRES_URL.replace("postgres://", "postgresql://"), autocommit=True, connect_timeout=3
        )
    except psycopg.OperationalError as error:
        down = error
    if admin is None:  # outside the except block: the message alone, not the chained tracebacks
        service_missing(f"PostgreSQL is not reachable at {BASE_POSTGRES_URL}: {down}")
    name = f"foot_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    url = BASE_POSTGRES_URL.rsplit("/", 1)[0] + "/" + name
    try:
        migrate(url)
        yield url
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(scope="session")
def redis_url():
    db = random.randint(1, 15)
    client = redis.Redis(host=BASE_REDIS_HOST, port=BASE_REDIS_PORT, db=db, socket_connect_timeout=3)
    down = None
    try:
        client.ping()
    except redis.RedisError as error:
        down = error
    finally:
        client.close()
    if down is not None:
        service_missing(f"Redis is not reachable at {BASE_REDIS_HOST}:{BASE_REDIS_PORT}: {down}")
    # No flush: other test runs on this machine may share the database; channel and group names
    # are unique per game and socket, and channels_redis lets its keys expire.
    return f"redis://{BASE_REDIS_HOST}:{BASE_REDIS_PORT}/{db}"


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory) -> Path:
    """One migrated SQLite file per test session; each test gets a copy (migrating takes seconds)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "db.sqlite3"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(tmp_path, migrated_sqlite_template):
    path = tmp_path / "db.sqlite3"
    shutil.copyfile(migrated_sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def daphne(tmp_path):
    started: list[DaphneServer] = []
    # The servers of one test count their rate limits apart from every other test's (and from other
    # runs on this machine sharing a Redis database), as the in-process tests do (fresh_rate_limits).
    limit_prefix = f"foot-test:{uuid.uuid4().hex[:12]}"

    def start_server(database_url: str, **env) -> DaphneServer:
        env.setdefault("FOOT_LIMIT_PREFIX", limit_prefix)
        server = DaphneServer(server_env(database_url, **env), tmp_path / f"daphne-{len(started)}.log")
        started.append(server)
        return server.start()

    yield start_server
    for server in started:
        server.stop()
