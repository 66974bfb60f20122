"""A Daphne server in a subprocess on a free port, for the benchmarks and the tests that need a
real server (start, wait until it answers, stop, or kill -9 it with its bot pool), and the one
environment such a server runs with (`server_env`)."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def server_env(database_url: str, redis_url: str | None = None, production: bool = False, **extra) -> dict:
    """The environment of a server under test or benchmark: this process's, without pytest's and
    Django's own variables, the test hooks on, the bots at full speed, and the database
    connections of docs/DEPLOY.md: on PostgreSQL the process's pool (DB_POOL_MAX_SIZE, default 10),
    whose connections the rooms' database threads keep for CONN_MAX_AGE=60 seconds between calls
    (a caller may pass 0 to see them taken for each call); on SQLite, CONN_MAX_AGE=60 keeps the
    connection of Channels' one database thread (an ended request's stays open until the garbage
    collector runs: a file, not a server's slot). `production`: DEBUG off, a random key, plain
    HTTP cookies. `extra` overrides (a None value is left out)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "DJANGO_"))}
    env.pop("REDIS_URL", None)
    env.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "server.settings",
            "DEBUG": "1",
            "FOOT_BOT_DELAY": "0",
            "FOOT_DAILY_PREPARE_SECONDS": "0",  # a test makes the deals it means to (server.daily_keeper)
            "FOOT_TEST_HOOKS": "1",
            # A test server shares the machine with a whole suite: its look backs do not wait for
            # idle CPU (games.rooms.machine_idle). bench_load puts the site's default back.
            "FOOT_LOOKBACK_BUSY": "1",
            "PYTHONUNBUFFERED": "1",
            "CONN_MAX_AGE": "60",
        }
    )
    if production:
        env.update(
            {
                "DEBUG": "0",
                "SECRET_KEY": secrets.token_urlsafe(50),
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "SECURE_COOKIES": "0",
            }
        )
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update({key: str(value) for key, value in extra.items() if value is not None})
    return env


def wait_ready(
    base: str, process: subprocess.Popen, timeout: float, log=lambda: "", path: str = "/api/session"
) -> None:
    """Until `base``path` answers 200; RuntimeError if the process exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}:\n{log()}")
        try:
            with urllib.request.urlopen(base + path, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer within {timeout}s:\n{log()}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class DaphneServer:
    """A Daphne subprocess on a free port; `kill()` is kill -9, `start()` (re)starts it."""

    def __init__(self, env: dict, log_path: Path, options: tuple[str, ...] = ()):
        """`options`: more of Daphne's command-line options (e.g. `--proxy-headers` behind nginx)."""
        self.env, self.log_path, self.options = env, log_path, options
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(
        self, timeout: float = 30, nice: int = 0, ready_path: str = "/api/session", **env_changes
    ) -> DaphneServer:
        for key, value in env_changes.items():
            if value is None:
                self.env.pop(key, None)
            else:
                self.env[key] = str(value)
        # nice(1) execs the server in its own place (same pid) at that priority, so every thread and
        # the bot pool's workers inherit it.
        niced = ["nice", "-n", str(nice)] if nice else []
        server = os.environ.get("FOOT_DAPHNE_MODULE", "server.serve")
        with open(self.log_path, "ab") as log:  # the server writes to its own copy of the descriptor
            self.process = subprocess.Popen(
                [
                    *niced,
                    sys.executable,
                    "-m",
                    server,
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    *self.options,
                    "server.asgi:application",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait_ready(timeout, ready_path)
        return self

    def started(self) -> subprocess.Popen[bytes]:
        """The server's process; an error before the first `start()`."""
        if self.process is None:
            raise RuntimeError("the server was never started")
        return self.process

    def wait_ready(self, timeout: float, path: str = "/api/session") -> None:
        wait_ready(self.http, self.started(), timeout, self.log, path)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """kill -9 the server and every process it started (its bot pool)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def wait_exit(self, timeout: float = 20) -> int:
        process = self.started()
        code = process.wait(timeout=timeout)
        with contextlib.suppress(ProcessLookupError):  # the bot pool's workers of a process that died by os._exit
            os.killpg(process.pid, signal.SIGKILL)
        return code

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):  # then killed below
                self.process.wait(timeout=10)
        self.kill()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""
