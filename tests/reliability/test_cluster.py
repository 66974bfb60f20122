"""A rolling restart through the real front (issue 26, items 4 and 5): nginx (deploy/nginx.conf)
in front of two Daphnes on PostgreSQL and Redis (testsupport/cluster.py, as `make cluster` runs
it), tables playing through nginx at a person's pace while each Daphne in turn gets SIGTERM,
exits and comes back. Every socket it held is closed with 1012, its player connects again
through nginx (to the other process) with the page's backoff, and resumes at or past its last
acknowledged version; at the end every acknowledged move is in the stored move log. Prints the
reconnect times (worst, p99) and the move latencies during the roll.
"""

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from testsupport.clients import Browser
from testsupport.cluster import Cluster, nginx_binary
from testsupport.services import service_missing
from testsupport.stats import percentile
from testsupport.ws_player import WsPlayer, run, simple_action

from .conftest import SIMPLE_BOTS

pytestmark = pytest.mark.services

TABLES = 12
PACE = 0.3  # seconds a player waits before each move
PLAY_BEFORE, PLAY_AFTER = 3.0, 3.0
DRAIN_SECONDS = 5  # seconds of play before the roll and after it


@dataclass
class Table:
    player: WsPlayer
    acknowledged: list[tuple[int, str, dict]] = field(default_factory=list)  # (version, seat, action)
    close_codes: list[int | None] = field(default_factory=list)
    reconnects: list[float] = field(default_factory=list)
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (when, seconds)
    behind: list[tuple[int, int]] = field(default_factory=list)  # (acknowledged, resumed at) when behind


async def reopen(table: Table) -> None:
    """As static/foot/net.js after a 1012: a short random pause, then the growing delay."""
    delay = 0.1 + random.random() * 0.4
    while True:
        await asyncio.sleep(delay)
        try:
            await table.player.open(open_timeout=5)
            return
        except (OSError, InvalidStatus, TimeoutError, ConnectionClosed):
            delay = min(max(delay * 2, 0.5), 10)


async def play(table: Table, stop: asyncio.Event) -> None:
    player = table.player
    await player.open()
    while not stop.is_set() and player.opened_view()["phase"] != "over":
        try:
            if player.deal_ended_in_last_patch():
                await player.send({"type": "next_deal"})
            if player.my_turn():
                await asyncio.sleep(PACE)
                action = simple_action(player.opened_view())
                sent = time.perf_counter()
                answer = await player.act(action)
                if answer["type"] == "patch":
                    table.acknowledged.append((answer["v"], player.seat or "", action))
                    table.latencies.append((time.monotonic(), time.perf_counter() - sent))
            else:
                await player.next_message("patch", timeout=PACE * 20)
        except ConnectionClosed as closed:
            table.close_codes.append(closed.rcvd.code if closed.rcvd else None)
            began = time.perf_counter()
            await reopen(table)
            table.reconnects.append(time.perf_counter() - began)
            last = table.acknowledged[-1][0] if table.acknowledged else 0
            if player.opened_version() < last:
                table.behind.append((last, player.opened_version()))
    await player.close()


def stored_moves(database_url: str, game_id: str) -> dict[int, tuple[str, dict]]:
    with psycopg.connect(database_url.replace("postgres://", "postgresql://")) as db:
        rows = db.execute("select seq, seat, action from games_move where game_id = %s", (game_id,)).fetchall()
    return {seq: (seat, action if isinstance(action, dict) else json.loads(action)) for seq, seat, action in rows}


def test_rolling_restart_through_nginx_loses_no_acknowledged_move(postgres_url, redis_url, tmp_path):
    if nginx_binary() is None:
        service_missing("nginx is not installed (make system-packages)")
    env: dict = {**SIMPLE_BOTS, "FOOT_DRAIN_SECONDS": DRAIN_SECONDS, "FOOT_LIMIT_NETWORK_FACTOR": 100}
    cluster = Cluster(2, postgres_url, redis_url, tmp_path, **env)
    cluster.start()
    try:
        browsers = [Browser(cluster.http) for _ in range(TABLES)]
        games = [browser.post("/api/games", {"mode": "solo", "level": "easy"})["id"] for browser in browsers]
        tables = [Table(WsPlayer(b, cluster.ws, g, on_gap="resync")) for b, g in zip(browsers, games, strict=True)]
        exits: list[float] = []
        roll: list[float] = []

        async def scenario():
            stop = asyncio.Event()
            playing = [asyncio.create_task(play(table, stop)) for table in tables]
            await asyncio.sleep(PLAY_BEFORE)
            roll.append(time.monotonic())
            for index in range(len(cluster.daphnes)):
                exits.append(await asyncio.to_thread(cluster.restart, index))
            roll.append(time.monotonic())
            await asyncio.sleep(PLAY_AFTER)
            stop.set()
            await asyncio.wait_for(asyncio.gather(*playing), 60)

        run(scenario())
    finally:
        cluster.stop()

    reconnects = [seconds for table in tables for seconds in table.reconnects]
    during = [seconds for table in tables for when, seconds in table.latencies if roll[0] <= when <= roll[1]]
    others = [seconds for table in tables for when, seconds in table.latencies if not roll[0] <= when <= roll[1]]
    acknowledged = sum(len(table.acknowledged) for table in tables)
    print(
        f"\n{TABLES} tables, {acknowledged} acknowledged moves; Daphnes exited {[round(e, 2) for e in exits]} s "
        f"after SIGTERM; {len(reconnects)} reconnects: worst {max(reconnects):.3f} s, "
        f"p99 {percentile(reconnects, 0.99):.3f} s, median {percentile(reconnects, 0.5):.3f} s; move latency "
        f"during the roll p50 {percentile(during, 0.5) * 1e3:.1f} ms p99 {percentile(during, 0.99) * 1e3:.1f} ms "
        f"max {max(during, default=0) * 1e3:.1f} ms ({len(during)} moves), outside it p50 "
        f"{percentile(others, 0.5) * 1e3:.1f} ms p99 {percentile(others, 0.99) * 1e3:.1f} ms"
    )
    assert all(code == 1012 for table in tables for code in table.close_codes)
    assert all(table.close_codes for table in tables)  # every table was on a restarted process at least once
    assert max(reconnects) < 5
    assert all(exit < DRAIN_SECONDS + 3 for exit in exits)
    assert not [table.behind for table in tables if table.behind]
    for table, game_id in zip(tables, games, strict=True):
        stored = stored_moves(postgres_url, game_id)
        for version, seat, action in table.acknowledged:
            assert stored.get(version) == (seat, action), (
                f"{game_id} v{version} acknowledged, stored {stored.get(version)}"
            )
