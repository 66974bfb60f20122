"""One-statement moves on PostgreSQL (games.rooms._apply_from_memory), in a process of their own
whose database is the real PostgreSQL of the machine (the unit tests run on SQLite, which has no
such statement). The checks themselves are in pg_moves_scenario.py; each prints `ok <name>`."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, server_env

pytestmark = pytest.mark.services

SCENARIO = Path(__file__).with_name("pg_moves_scenario.py")
CHECKS = [
    "one statement per move from memory",
    "a changed awaiting falls back to the locked path",
    "a stale action is refused",
    "a refused action changes nothing",
    "moves are HOT updates",
    "a daily moved from memory past its deadline lapses",
    "the computers' turns are one statement",
    "the computers' turns on a changed row play one move the locked way",
    "a lesson's bots play one move at a time",
    "a whole game equals its replay",
]


def test_one_statement_moves_on_postgresql(postgres_url):
    done = subprocess.run(
        [sys.executable, str(SCENARIO)],
        cwd=ROOT,
        env=server_env(postgres_url),
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert [line[3:] for line in done.stdout.splitlines() if line.startswith("ok ")] == CHECKS
