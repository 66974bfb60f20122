"""Fixtures of the reliability tests: a private Redis that can be restarted, a TCP proxy in front of
PostgreSQL that can cut its connections, and the server settings these tests run with.

The shared fixtures (postgres_url, redis_url, sqlite_url, daphne) are in tests/conftest.py.
The machine's own Redis on 6379 is never touched: `private_redis` starts redis-server on a free
port with no persistence, so a restart loses every channel-layer key, as a real crash would.
"""

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

from testsupport.daphne import free_port
from testsupport.services import service_missing
from testsupport.tcp_proxy import TcpProxy

# The trivial legal bots of tests/rooms (draw, discard the first card): fast, so faults are the subject.
SIMPLE_BOTS = {
    "FOOT_BOT_FACTORY": "tests.rooms.simple_player:make_bot",
    "FOOT_BOT_POOL": "thread",
    "FOOT_WS_RATE": 1000,
    "FOOT_WS_BURST": 1000,
}


class RedisServer:
    """redis-server on a free port, no RDB, no AOF: `restart()` comes back empty."""

    def __init__(self, log_path: Path):
        self.port, self.log_path = free_port(), log_path
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        with open(self.log_path, "ab") as log:  # the server writes to its own copy of the descriptor
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def restart(self, down_for: float = 0.5) -> None:
        self.kill()
        time.sleep(down_for)
        self.start()

    def publishes(self) -> int:
        """How many PUBLISH commands this server has run since it started."""
        client = redis.Redis(host="127.0.0.1", port=self.port)
        try:
            stats = client.info("commandstats")
        finally:
            client.close()
        return int(stats.get("cmdstat_publish", {}).get("calls", 0))


@pytest.fixture
def private_redis(tmp_path):
    if shutil.which("redis-server") is None:
        service_missing("redis-server is not installed")
    server = RedisServer(tmp_path / "redis.log").start()
    yield server
    server.kill()


@pytest.fixture
def postgres_proxy(postgres_url):
    """(proxy, database URL through it): PostgreSQL at 127.0.0.1:5432 behind testsupport/tcp_proxy.py."""
    proxy = TcpProxy(("127.0.0.1", 5432)).start()
    name = postgres_url.rsplit("/", 1)[1]
    yield proxy, f"postgres://postgres@127.0.0.1:{proxy.port}/{name}"
    proxy.stop()
