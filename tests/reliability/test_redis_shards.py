"""The channel layer over two Redis servers (issue 26, item 6): channels_redis's sharding by
host list (REDIS_LAYER_URLS). Two Daphnes share both servers (private redis-servers on free
ports, stopped after); on each of several solo games a player on one process plays while a
spectator on the other follows every version, so each game's patches crossed processes through
its group's shard, and both shards carried games.
"""

import asyncio

import pytest
from channels_redis.utils import _consistent_hash

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

from .conftest import SIMPLE_BOTS, RedisServer
from .test_service_health import until_status

pytestmark = pytest.mark.services

TARGET_VERSION = 24


def test_two_processes_play_over_two_redis_shards(daphne, postgres_url, private_redis, tmp_path):
    second_redis = RedisServer(tmp_path / "redis-2.log").start()
    try:
        shards = [private_redis, second_redis]
        env = {
            **SIMPLE_BOTS,
            "FOOT_LIMIT_NETWORK_FACTOR": 100,
            "REDIS_URL": private_redis.url,
            "REDIS_LAYER_URLS": ",".join(s.url for s in shards),
        }
        playing, watching = daphne(postgres_url, **env), daphne(postgres_url, **env)
        games: list[str] = []
        browsers: list[Browser] = []
        on_shard = [0, 0]
        while min(on_shard) < 2:  # at least two games on each shard
            assert len(games) < 40, f"the hash put {on_shard} games on the shards"
            browser = Browser(playing.http)
            game = browser.post("/api/games", {"mode": "solo", "level": "easy"})["id"]
            on_shard[_consistent_hash(f"game.{game}", 2)] += 1
            games.append(game)
            browsers.append(browser)
        before = [server.publishes() for server in shards]
        players = [WsPlayer(b, playing.ws, g) for b, g in zip(browsers, games, strict=True)]
        watchers = [WsPlayer(Browser(watching.http), watching.ws, g, on_gap="fail") for g in games]

        async def follow(player: WsPlayer, watcher: WsPlayer) -> None:
            await watcher.open()
            await player.open()
            await player.play_until(TARGET_VERSION, timeout=60)
            while watcher.opened_version() < player.opened_version():
                await watcher.next_message("patch")
            await player.close()
            await watcher.close()

        async def scenario() -> None:
            await asyncio.wait_for(asyncio.gather(*map(follow, players, watchers)), 120)

        run(scenario())
        for player, watcher in zip(players, watchers, strict=True):
            assert watcher.opened_version() == player.opened_version() >= TARGET_VERSION
            assert watcher.gaps == 0  # followed patch by patch
        carried = [server.publishes() - count for server, count in zip(shards, before, strict=True)]
        assert all(count >= 2 * TARGET_VERSION for count in carried), carried
        second_redis.kill()  # one shard down: the processes are not ready
        assert until_status(watching.http + "/readyz", 503)["failed"] == ["channel_layer"]
    finally:
        second_redis.kill()
