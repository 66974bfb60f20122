"""Shared fixtures: a fresh PostgreSQL database, a spare Redis database, real Daphne processes.

- `postgres_url`: a database foot_test_<random> on 127.0.0.1:5432 (user postgres), created and
  migrated once per test session (per xdist worker), dropped at the end. Skips without PostgreSQL.
- `redis_url`: redis://127.0.0.1:6379/<a spare db, 1-15>. Skips without Redis.
- `sqlite_url`: a migrated SQLite file in the test's tmp dir (for Daphne subprocesses).
- Browser tests run last on every worker: Playwright's sync API (the browser tests' session
  fixture) leaves an event loop running in the worker's main thread, where `asyncio.run` of any
  later test would fail.
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

import pytest

from games.daphne_process import DaphneServer

ROOT = Path(__file__).resolve().parent.parent
BASE_POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
BASE_REDIS_HOST = "127.0.0.1"
BASE_REDIS_PORT = 6379


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Browser tests last (a stable sort, the same on every xdist worker); see the docstring."""
    items.sort(key=lambda item: "tests/browser/" in item.nodeid.replace("\\", "/") or "browser" in item.keywords)


def server_env(database_url: str, **extra) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "DJANGO_"))}
    env.pop("REDIS_URL", None)
    env.update({"DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "server.settings",
                "DEBUG": "1", "FOOT_BOT_DELAY": "0", "PYTHONUNBUFFERED": "1",
                # Persistent connections, as docs/DEPLOY.md advises: reconnecting on every DB call
                # costs more than the move itself. A test may pass CONN_MAX_AGE=0 to see that path.
                "CONN_MAX_AGE": "60"})
    env.update({key: str(value) for key, value in extra.items() if value is not None})
    return env


def migrate(database_url: str) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=server_env(database_url), check=True, timeout=120)


@pytest.fixture(scope="session")
def postgres_url():
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(BASE_POSTGRES_URL.replace("postgres://", "postgresql://"), autocommit=True,
                                connect_timeout=3)
    except psycopg.OperationalError as down:
        pytest.skip(f"PostgreSQL is not reachable: {down}")
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
    redis = pytest.importorskip("redis")
    db = random.randint(1, 15)
    client = redis.Redis(host=BASE_REDIS_HOST, port=BASE_REDIS_PORT, db=db, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as down:
        pytest.skip(f"Redis is not reachable: {down}")
    client.close()
    # No flush: other test runs on this machine may share the database; channel and group names
    # are unique per game and socket, and channels_redis lets its keys expire.
    yield f"redis://{BASE_REDIS_HOST}:{BASE_REDIS_PORT}/{db}"


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
    started = []

    def start_server(database_url: str, **env) -> DaphneServer:
        server = DaphneServer(server_env(database_url, **env), tmp_path / f"daphne-{len(started)}.log")
        started.append(server)
        return server.start()

    yield start_server
    for server in started:
        server.stop()
