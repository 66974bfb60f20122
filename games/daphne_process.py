"""A Daphne server in a subprocess on a free port, for the benchmarks and the tests that need a
real server (start, wait until it answers, stop, or kill -9 it with its bot pool)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class DaphneServer:
    """A Daphne subprocess on a free port; `kill()` is kill -9, `start()` (re)starts it."""

    def __init__(self, env: dict, log_path: Path):
        self.env, self.log_path = env, log_path
        self.port = free_port()
        self.process = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30, nice: int = 0, **env_changes) -> "DaphneServer":
        for key, value in env_changes.items():
            if value is None:
                self.env.pop(key, None)
            else:
                self.env[key] = str(value)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", os.environ.get("FOOT_DAPHNE_MODULE", "server.serve"), "-b", "127.0.0.1", "-p", str(self.port), "server.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            # Set before exec, so every thread and the bot pool's workers inherit the priority.
            preexec_fn=(lambda: os.nice(nice)) if nice else None)
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.http + "/api/session", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"daphne did not answer within {timeout}s:\n{self.log()}")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """kill -9 the server and every process it started (its bot pool)."""
        if self.alive():
            os.killpg(self.process.pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def wait_exit(self, timeout: float = 20) -> int:
        code = self.process.wait(timeout=timeout)
        try:  # the bot pool's workers of a process that died by os._exit
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        return code

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""
