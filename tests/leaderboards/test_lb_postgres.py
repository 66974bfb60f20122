"""The board queries on PostgreSQL: the board (and par and proof) tests again, on a throwaway PostgreSQL database.

Window functions, partial indexes and aggregates behave differently across databases, so the
same tests that run on SQLite run here against PostgreSQL (a pytest subprocess with
DATABASE_URL set; pytest-django creates and drops its test database), plus a small bench.
"""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from testsupport.services import service_missing

pytestmark = pytest.mark.services
ROOT = Path(__file__).resolve().parents[2]
POSTGRES = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def postgres_env() -> dict:
    try:
        psycopg.connect(POSTGRES.replace("postgres://", "postgresql://"), connect_timeout=3).close()
    except psycopg.OperationalError as down:
        service_missing(f"PostgreSQL is not reachable at {POSTGRES}: {down}")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env["DATABASE_URL"] = POSTGRES.rsplit("/", 1)[0] + f"/foot_lb_{uuid.uuid4().hex[:10]}"
    return env


def test_the_board_tests_pass_on_postgresql():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:xdist",
            "-p",
            "no:randomly",
            "-m",
            "not services",
            "-W",
            "ignore",
            "--create-db",
            "tests/leaderboards/test_lb_boards.py",
            "tests/leaderboards/test_lb_scoring.py",
            "tests/leaderboards/test_lb_par.py",
            "tests/leaderboards/test_lb_proof.py",
        ],
        cwd=ROOT,
        env=postgres_env(),
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout


def test_the_bench_runs_on_postgresql():
    env = postgres_env()
    admin_url = POSTGRES.replace("postgres://", "postgresql://")
    name = env["DATABASE_URL"].rsplit("/", 1)[1]
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        for command in (
            ["manage.py", "migrate", "-v", "0"],
            ["-m", "benchmarks", "bench_leaderboard", "--entries", "3000", "--days", "30", "--players", "300"]
            + ["--repeat", "2"],
        ):
            run = subprocess.run(
                [sys.executable, *command],
                cwd=ROOT,
                env=env,
                check=False,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert run.returncode == 0, run.stderr[-3000:]
        assert "filled 3,000 entries of 300 players" in run.stdout and "(postgresql)" in run.stdout
        boards = [line for line in run.stdout.splitlines() if line.startswith(("daily", "week", "all time"))]
        assert len(boards) == 6
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
