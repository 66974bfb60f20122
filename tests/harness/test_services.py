"""A test that cannot reach PostgreSQL or Redis skips on a developer's machine and fails under CI.

Each case runs pytest in a subprocess with tests/conftest.py as a plugin and TEST_DATABASE_URL or
TEST_REDIS_URL pointed at a port nothing listens on.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from testsupport.daphne import free_port

ROOT = Path(__file__).resolve().parents[2]
NEEDS_BOTH = """
def test_needs_postgresql(postgres_url):
    assert postgres_url

def test_needs_redis(redis_url):
    assert redis_url
"""


def summary(run: subprocess.CompletedProcess) -> str:
    """pytest's last line, e.g. "2 failed in 4.50s"."""
    return run.stdout.strip().splitlines()[-1]


def run_pytest(folder: Path, **env) -> subprocess.CompletedProcess:
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_needs_services.py").write_text(NEEDS_BOTH)
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST", "CI"))}
    clean.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.conftest",
            "-p",
            "no:django",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rs",
            "test_needs_services.py",
        ],
        cwd=folder,
        env=clean,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def closed_port_env() -> dict:
    port = free_port()  # bound and released: nothing listens there
    return {
        "TEST_DATABASE_URL": f"postgres://postgres@127.0.0.1:{port}/postgres",
        "TEST_REDIS_URL": f"redis://127.0.0.1:{port}/0",
    }


def test_under_ci_an_unreachable_service_fails_the_test(tmp_path, closed_port_env):
    run = run_pytest(tmp_path, CI="true", **closed_port_env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert summary(run).startswith("2 errors in"), run.stdout  # errors in the fixtures
    assert "SKIPPED" not in run.stdout
    assert "PostgreSQL is not reachable" in run.stdout and "Redis is not reachable" in run.stdout


def test_outside_ci_an_unreachable_service_is_a_listed_skip(tmp_path, closed_port_env):
    run = run_pytest(tmp_path, **closed_port_env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert summary(run).startswith("2 skipped in"), run.stdout
    # -rs lists each skip with its reason
    assert "SKIPPED" in run.stdout and "PostgreSQL is not reachable" in run.stdout


def test_ci_false_is_not_ci(tmp_path, closed_port_env):
    run = run_pytest(tmp_path, CI="false", **closed_port_env)
    assert run.returncode == 0 and summary(run).startswith("2 skipped in"), run.stdout + run.stderr
