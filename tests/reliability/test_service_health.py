"""GET /healthz and GET /readyz of a real Daphne on PostgreSQL and Redis (issue 26, item 1).

The database is "stopped" and "restarted" by the TCP proxy in front of it (tests/reliability's
`postgres_proxy`: refusing and cutting every connection, then letting them through again), and
the channel layer's Redis is a private redis-server that the test kills: the shared PostgreSQL
and Redis of the machine are never touched. The server starts while the database is down.
"""

import json
import time
import urllib.error
import urllib.request

import pytest

from testsupport.daphne import DaphneServer, server_env

pytestmark = pytest.mark.services


def get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def until_status(url: str, status: int, seconds: float = 15) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        code, body = get(url)
        if code == status or time.monotonic() > deadline:
            assert code == status, body
            return body
        time.sleep(0.2)


def test_health_and_readiness_follow_the_database_and_redis(tmp_path, postgres_proxy, private_redis):
    proxy, database_url = postgres_proxy
    proxy.refuse(True)  # the database is down before the server starts
    server = DaphneServer(server_env(database_url, private_redis.url, FOOT_READY_TIMEOUT=1), tmp_path / "daphne.log")
    try:
        server.start(ready_path="/healthz")
        assert get(server.http + "/healthz") == (200, {"status": "alive"})
        status, body = get(server.http + "/readyz")
        assert status == 503 and body["failed"] == ["database"], body
        assert body["checks"]["channel_layer"] == "ok"

        proxy.refuse(False)  # the database is back
        ready = until_status(server.http + "/readyz", 200)
        assert ready["checks"] == {"database": "ok", "migrations": "ok", "channel_layer": "ok"}

        proxy.refuse(True)  # and down again, its open connections cut
        proxy.cut()
        assert until_status(server.http + "/readyz", 503)["failed"] == ["database"]
        assert get(server.http + "/healthz")[0] == 200

        proxy.refuse(False)
        until_status(server.http + "/readyz", 200)
        private_redis.kill()  # the channel layer is gone
        assert until_status(server.http + "/readyz", 503)["failed"] == ["channel_layer"]
        private_redis.start()
        until_status(server.http + "/readyz", 200)
    finally:
        server.stop()


def test_readiness_names_unapplied_migrations(tmp_path, postgres_url):
    """A database the release has not migrated yet: ready only after `migrate`."""
    import psycopg

    admin_url = postgres_url.rsplit("/", 1)[0] + "/postgres"
    name = postgres_url.rsplit("/", 1)[1] + "_empty"
    with psycopg.connect(admin_url.replace("postgres://", "postgresql://"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    server = DaphneServer(server_env(postgres_url.rsplit("/", 1)[0] + "/" + name), tmp_path / "daphne.log")
    try:
        server.start(ready_path="/healthz")
        status, body = get(server.http + "/readyz")
        assert status == 503 and body["failed"] == ["migrations"], body
    finally:
        server.stop()
        with psycopg.connect(admin_url.replace("postgres://", "postgresql://"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
