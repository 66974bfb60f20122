"""A game's updates under both routings (issue 28, step 1; server/channel_layer.py): with a
spectator on the player's own Daphne they are delivered inside that process and Redis carries
none of them; with the spectator on the other Daphne they cross over Redis. Either way the
spectator follows every version in order, patch by patch, and ends at the player's view.
"""

import asyncio

import pytest

from testsupport.clients import Browser
from testsupport.cluster import Cluster, nginx_binary
from testsupport.services import service_missing
from testsupport.ws_player import WsPlayer, run

from .conftest import SIMPLE_BOTS, RedisServer

pytestmark = pytest.mark.services

TARGET_VERSION = 24


def follow_game(playing, watching, redis_server: RedisServer, target: int = TARGET_VERSION) -> tuple[int, int]:
    """A solo game played on `playing` up to `target` while a spectator on `watching` follows:
    the version reached, and the PUBLISHes meanwhile (the sockets still open: their leaving
    sends presence from a process that no longer has them)."""
    browser = Browser(playing.http)
    player = WsPlayer(browser, playing.ws, browser.new_solo())
    watcher = WsPlayer(Browser(watching.http), watching.ws, player.game_id, on_gap="fail")
    published = []

    async def scenario() -> None:
        before = redis_server.publishes()
        await watcher.open()
        await player.open()
        await player.play_until(target, timeout=60)
        while not player.my_turn():  # the bots are done: the game holds still
            await player.next_message("patch")
        while watcher.opened_version() < player.opened_version():
            await watcher.next_message("patch")
        await watcher.sync_matches()  # the patched view is the server's
        published.append(redis_server.publishes() - before)
        await player.close()
        await watcher.close()

    run(asyncio.wait_for(scenario(), 120))
    assert watcher.opened_version() == player.opened_version() >= target
    assert watcher.gaps == 0
    return player.opened_version(), published[0]


def test_a_games_sockets_on_one_process_or_two_see_every_version(daphne, postgres_url, private_redis):
    env = {**SIMPLE_BOTS, "FOOT_LIMIT_NETWORK_FACTOR": 100, "REDIS_URL": private_redis.url}
    first, second = daphne(postgres_url, **env), daphne(postgres_url, **env)

    # One process joined the group (a probe and a hello): no update published.
    version, published = follow_game(first, first, private_redis)
    assert published <= 3 < version
    # Two processes: the second one's probe and hello, the first's answer, and every version.
    version, published = follow_game(first, second, private_redis)
    assert published >= version + 3


def test_nginx_sends_a_games_sockets_to_one_process(postgres_url, private_redis, tmp_path):
    """Through deploy/nginx.conf (its hash of the game id): a player's and a spectator's sockets
    of each game meet on one Daphne, so none of the games' updates goes over Redis (spread over
    the two Daphnes in turn, half of them would)."""
    if nginx_binary() is None:
        service_missing("nginx is not installed (make system-packages)")
    env: dict = {**SIMPLE_BOTS, "FOOT_LIMIT_NETWORK_FACTOR": 100}
    cluster = Cluster(2, postgres_url, private_redis.url, tmp_path, **env).start()
    try:
        for _ in range(4):
            version, published = follow_game(cluster, cluster, private_redis, target=12)
            assert published <= 3 < version
    finally:
        cluster.stop()
