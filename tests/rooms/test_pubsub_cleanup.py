"""A closed socket leaves nothing in the Redis pub/sub channel layer (games.socket_plumbing.forget_channel).

channels-redis's pub/sub layer keeps a consumer's channel when the consumer stops before its
next receive started; before the fix 27 of 30 game sockets left one. The scenario runs in a
process of its own, with a real Redis (pub/sub layer) and a migrated SQLite file."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, migrate, server_env

pytestmark = pytest.mark.services

SCENARIO = Path(__file__).with_name("pubsub_scenario.py")


@pytest.mark.parametrize("layer", ["pubsub", "local"])  # channels_redis's own, and server.channel_layer's
def test_closed_sockets_leave_no_channel_in_the_pubsub_layer(redis_url, tmp_path, layer):
    database = f"sqlite:///{tmp_path / 'pubsub.sqlite3'}"
    migrate(database)
    env = server_env(database, REDIS_URL=redis_url, REDIS_LAYER=layer)
    done = subprocess.run(
        [sys.executable, str(SCENARIO)], cwd=ROOT, env=env, check=False, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["channels", "0", "groups", "0", "peers", "0"], done.stdout
