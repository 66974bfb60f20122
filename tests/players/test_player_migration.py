"""Player's move from leaderboards to the players app, on PostgreSQL with data (issue 17): a
player, the game they host, their entry and record, and the moderators' right to ban them survive
it, the table keeps its name, and it goes back. In a process of its own on an empty database (the
session's `postgres_url` is migrated already); the checks are in migration_scenario.py."""

import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.conftest import BASE_POSTGRES_URL, ROOT, server_env
from testsupport.services import service_missing

pytestmark = pytest.mark.services

SCENARIO = Path(__file__).with_name("migration_scenario.py")
CHECKS = [
    "the old schema holds a player, their game, entry and record",
    "the player, their hosted game, entry and record survive the move",
    "the table keeps its name and Game.host's foreign key in the database",
    "the content type is renamed and moderators may still ban",
    "the models match the migrations",
    "a new player hosts a game, which keeps its row when the player goes",
    "the move goes back and forward again",
]


@pytest.fixture
def empty_postgres_url():
    """A database with no table at all, dropped afterwards."""
    try:
        admin = psycopg.connect(
            BASE_POSTGRES_URL.replace("postgres://", "postgresql://"), autocommit=True, connect_timeout=3
        )
    except psycopg.OperationalError as down:
        service_missing(f"PostgreSQL is not reachable at {BASE_POSTGRES_URL}: {down}")
    name = f"foot_test_move_{uuid.uuid4().hex[:10]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield BASE_POSTGRES_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_player_moves_to_the_players_app_with_its_data_on_postgresql(empty_postgres_url):
    done = subprocess.run(
        [sys.executable, str(SCENARIO)],
        check=False,  # the assertion below shows the scenario's output
        cwd=ROOT,
        env=server_env(empty_postgres_url),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert [line[3:] for line in done.stdout.splitlines() if line.startswith("ok ")] == CHECKS
