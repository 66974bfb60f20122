"""An HTTP request's database connection ends with the request, not when the garbage collector
finds it (docs/DEPLOY.md, "Database connections").

Under ASGI Django runs each request's sync code in a thread of its own, whose connection is its
own. With persistent connections (CONN_MAX_AGE > 0) nothing closed it at the request's end: it
was released only when the collector freed the ended thread's locals, so a busy process held
one PostgreSQL connection per recent request until then, and PostgreSQL refused more ("too many
clients"; docs/journal/PERFORMANCE-2026.md). The server here runs with the collector off
(testsupport/serve_without_gc.py), so that what is left for it stays, and the count does not
depend on when it last ran.
"""

import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from testsupport.clients import Browser
from testsupport.daphne import ROOT, server_env

pytestmark = pytest.mark.services

NEWCOMERS = 30  # each: its session, a solo game, its list of games; 90 requests, 8 at a time
POOL_MAX_SIZE = 6


def connections_named(database_url: str, application_name: str) -> list[str]:
    """The states of the connections to PostgreSQL whose application_name is this one."""
    with psycopg.connect(database_url.replace("postgres://", "postgresql://"), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT state FROM pg_stat_activity WHERE application_name = %s", [application_name]
        ).fetchall()
    return [state for (state,) in rows]


def test_http_requests_leave_no_database_connection_behind(daphne, postgres_url, monkeypatch):
    monkeypatch.setenv("FOOT_DAPHNE_MODULE", "testsupport.serve_without_gc")
    name = f"foot-requests-{uuid.uuid4().hex[:8]}"  # libpq gives every connection of the server this name
    server = daphne(postgres_url, PGAPPNAME=name, DB_POOL_MAX_SIZE=POOL_MAX_SIZE, FOOT_LIMIT_NETWORK_FACTOR=100)

    def newcomer(_number: int) -> None:
        browser = Browser(server.http)  # GET /api/session: a player and its session
        browser.new_solo()
        browser.get("/api/games")

    with ThreadPoolExecutor(max_workers=8) as browsers:
        list(browsers.map(newcomer, range(NEWCOMERS)))
    left = connections_named(postgres_url, name)
    print(f"{NEWCOMERS * 3} requests: {len(left)} connections of the server left")
    # Only the pool's: at most its size, whatever the number of requests.
    assert len(left) <= POOL_MAX_SIZE, f"{len(left)} connections left after {NEWCOMERS * 3} requests: {left}"


def import_settings(env: dict) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "import server.settings"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False)


def test_a_pool_no_bigger_than_the_rooms_threads_is_refused_at_start(postgres_url):
    """The rooms' database threads keep a connection each: a pool of FOOT_DB_THREADS or fewer would
    leave none for a request, which would then wait and fail. The settings refuse it."""
    env = server_env(postgres_url, FOOT_DB_THREADS=4, DB_POOL_MAX_SIZE=4)
    refused = import_settings(env)
    assert refused.returncode != 0 and "DB_POOL_MAX_SIZE (4) must exceed FOOT_DB_THREADS (4)" in refused.stderr
    env["DB_POOL_MAX_SIZE"] = "5"
    assert import_settings(env).returncode == 0
