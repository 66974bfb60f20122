"""The production shape on one machine: nginx (deploy/nginx.conf) in front of N Daphne processes
(server.serve) on PostgreSQL and Redis. `make cluster` runs it until Ctrl-C; bench_load's `--front nginx
--roll` (testsupport/bench_load.py) drives it, and tests/reliability/test_cluster.py runs that small.

    python -m testsupport.cluster --servers 2 --db postgres://…/foot --redis redis://…/0 [--port 8080]

nginx runs in the foreground (`daemon off`) from a prefix of its own in a temporary directory,
on an unprivileged port, with the places of deploy/nginx.conf filled in; the Daphnes share
one environment (one SECRET_KEY, one PROMETHEUS_MULTIPROC_DIR) and take X-Forwarded-For from it
(`--proxy-headers`). `restart(i)` is one step of a rolling restart: SIGTERM to the process (as
systemd's KillMode=mixed sends it), its exit, and the same port ready again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from testsupport.daphne import ROOT, DaphneServer, free_port, server_env

NGINX_TEMPLATE = ROOT / "deploy" / "nginx.conf"
MIME_TYPES = Path("/etc/nginx/mime.types")


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def render_nginx_conf(prefix: Path, listen: str, ports: list[int], static: Path) -> str:
    upstreams = "\n        ".join(f"server 127.0.0.1:{port} max_fails=0;" for port in ports)
    text = NGINX_TEMPLATE.read_text()
    for place, value in {
        "prefix": str(prefix),
        "listen": listen,
        "upstreams": upstreams,
        "static": str(static),
        "mime_types": str(MIME_TYPES),
    }.items():
        text = text.replace("{{" + place + "}}", value)
    return text


def wait_answers(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.1)


class Cluster:
    def __init__(
        self, servers: int, database_url: str, redis_url: str, workdir: Path, port: int = 0, nice: int = 0, **env
    ):
        """`nice`: the Daphnes' priority (bench_load's --nice on a shared machine); `env`: theirs."""
        self.workdir, self.nice = workdir, nice
        self.port = port or free_port()
        metrics = workdir / "prometheus"
        metrics.mkdir(parents=True, exist_ok=True)
        # Its own static folder, which nginx's workers (another user) can read: a checkout or a test's
        # folder may be private (mode 0700, as mktemp's and pytest's are), and two clusters collecting
        # into one folder at once could serve a half-written script.
        self.own_static: Path | None = None
        if "STATIC_ROOT" not in env:
            self.own_static = Path(tempfile.mkdtemp(prefix="foot-static-"))
            self.own_static.chmod(0o755)
            env["STATIC_ROOT"] = self.own_static
        shared = server_env(database_url, redis_url, production=True, PROMETHEUS_MULTIPROC_DIR=metrics, **env)
        self.daphnes = [
            DaphneServer(dict(shared), workdir / f"daphne-{i}.log", options=("--proxy-headers",))
            for i in range(servers)
        ]
        self.env = shared
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The site's address, as the browser tests' `site.url`."""
        return self.http

    def prepare(self) -> None:
        """Migrations and static files, once per release, before the processes start."""
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run(
                [sys.executable, "manage.py", *command, "-v", "0"], cwd=ROOT, env=self.env, check=True, timeout=300
            )

    def start(self) -> Cluster:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (make system-packages)")
        for daphne in self.daphnes:
            daphne.start(timeout=60, nice=self.nice, ready_path="/readyz")
        prefix = self.workdir / "nginx"
        prefix.mkdir(exist_ok=True)
        static = Path(self.env.get("STATIC_ROOT") or ROOT / "staticfiles")
        conf = prefix / "nginx.conf"
        conf.write_text(render_nginx_conf(prefix, f"127.0.0.1:{self.port}", [d.port for d in self.daphnes], static))
        command = [binary, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf)]
        subprocess.run([*command, "-t", "-q"], check=True, timeout=30)
        self.nginx = subprocess.Popen([*command, "-g", "daemon off;"], start_new_session=True)
        wait_answers(self.http + "/healthz", 20)
        return self

    def restart(self, index: int, timeout: float = 30) -> float:
        """SIGTERM the process, wait for its exit, start it on the same port; the seconds it took to exit."""
        daphne = self.daphnes[index]
        signalled = time.monotonic()
        os.kill(daphne.started().pid, signal.SIGTERM)
        daphne.wait_exit(timeout)
        exited = time.monotonic() - signalled
        daphne.start(timeout=timeout, nice=self.nice, ready_path="/readyz")
        return exited

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.nginx.pid, signal.SIGKILL)
                self.nginx.wait(10)
        for daphne in self.daphnes:
            daphne.stop()
        if self.own_static is not None:
            shutil.rmtree(self.own_static, ignore_errors=True)


def ensure_database(url: str) -> None:
    """Creates the PostgreSQL database of `url` when it does not exist yet."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(base.replace("postgres://", "postgresql://", 1) + "/postgres", autocommit=True) as admin:
        if admin.execute("select 1 from pg_database where datname = %s", (name,)).fetchone() is None:
            admin.execute(f'CREATE DATABASE "{name}"')


def stop_on_sigterm() -> None:
    """`kill` (or a timeout's SIGTERM) stops the cluster as Ctrl-C does, its processes with it."""

    def interrupt(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--db", required=True, help="PostgreSQL URL (migrated here)")
    parser.add_argument("--redis", required=True, help="Redis URL of the channel layer")
    parser.add_argument("--port", type=int, default=8080, help="nginx's port")
    options = parser.parse_args()
    stop_on_sigterm()
    ensure_database(options.db)
    with tempfile.TemporaryDirectory(prefix="foot-cluster-") as workdir:
        cluster = Cluster(
            options.servers,
            options.db,
            options.redis,
            Path(workdir),
            options.port,
            FOOT_TEST_HOOKS=0,
            FOOT_BOT_DELAY=0.3,
            LOG_FORMAT="json",
            LOG_LEVEL="INFO",
        )
        cluster.prepare()
        try:
            cluster.start()
        except BaseException:
            cluster.stop()
            raise
        print(f"Foot Canasta at {cluster.http}/ (nginx, {options.servers} Daphnes; logs in {workdir}); Ctrl-C stops")
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
