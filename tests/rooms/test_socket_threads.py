"""A socket's opening on PostgreSQL uses the room's database threads, so that the sockets of a
restarted process, which all connect again at once, are looked up side by side (issue 26:
every table back within 5 s of a rolling restart). In a process of its own on the machine's
PostgreSQL (the unit tests run on SQLite, which has one database thread): socket_threads_scenario.py."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, server_env

pytestmark = pytest.mark.services

SCENARIO = Path(__file__).with_name("socket_threads_scenario.py")


def test_two_sockets_opening_at_once_are_looked_up_side_by_side(postgres_url):
    done = subprocess.run(
        [sys.executable, str(SCENARIO)],
        cwd=ROOT,
        env=server_env(postgres_url, FOOT_BOT_FACTORY="tests.rooms.simple_player:make_bot", FOOT_BOT_POOL="thread"),
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "ok two sockets are looked up at once"
