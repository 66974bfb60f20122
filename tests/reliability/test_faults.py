"""Faults under a live game: Redis restarted, PostgreSQL connections cut, one of two Daphnes killed.

Each test plays a solo game over real Daphne processes with a client that behaves as the page
does: on a refusal it resyncs, on a closed socket it reconnects (to the other server when its own
is gone), on a version gap it asks for the whole view. After the fault the game must go on, and
the stored record must be whole: Move rows are exactly 1..Game.version, they replay to the
stored position (nothing half-applied), and every move the client saw acknowledged is stored.
"""

import asyncio
import contextlib
import random
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run, simple_action

from .clients import cards_in_position
from .conftest import SIMPLE_BOTS
from .stored import assert_log_is_whole, stored_game, stored_moves

pytestmark = pytest.mark.services


class ResilientPlayer:
    """South, playing on and surviving faults; remembers every move acknowledged to it."""

    def __init__(self, browser: Browser, servers: list, game_id: str):
        self.browser, self.servers, self.game_id = browser, servers, game_id
        self.tab = WsPlayer(browser, servers[0].ws, game_id, on_gap="resync")
        self.acknowledged: dict[int, dict] = {}  # version -> our action
        self.refusals: list[str] = []
        self.reconnects = 0

    def live_servers(self) -> list:
        return [server for server in self.servers if server.alive()]

    async def connect(self, deadline: float) -> None:
        while True:
            for server in self.live_servers():
                try:
                    await self.see_the_score(await self.tab.open(server.ws))
                    return
                except (TimeoutError, OSError, ConnectionClosed, InvalidStatus):
                    pass
            if time.monotonic() > deadline:
                raise AssertionError("could not reconnect to any server")
            await asyncio.sleep(0.3)

    async def play_until(self, version: int, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        if self.tab.socket is None:
            await self.connect(deadline)
        while self.tab.opened_version() < version:
            assert time.monotonic() < deadline, f"stuck at v{self.tab.version}: {self.refusals[-5:]}"
            try:
                await self.step()
            except TimeoutError:  # first: since Python 3.11 it is an OSError too
                await self.tab.send({"type": "sync"})  # nothing came: ask where the game is
            except (ConnectionClosed, OSError):
                self.reconnects += 1
                await self.connect(deadline)

    async def see_the_score(self, message: dict) -> None:
        """After a deal ends the bots wait for the person's "Next deal" (as the page's button sends
        it): on the deal's last patch, or on a state that says this seat is awaited."""
        ended = message["type"] == "patch" and any(e["type"] == "deal_end" for e in message["events"])
        if ended or (message["type"] == "state" and self.tab.seat in message.get("awaiting", [])):
            await self.tab.send({"type": "next_deal"})

    async def step(self) -> None:
        tab = self.tab
        if not tab.my_turn():
            await self.see_the_score(await tab.next_message("patch", "state", timeout=5))
            return
        tab.refs += 1
        ref = f"f{tab.refs}"
        action = simple_action(tab.opened_view())
        await tab.send({"type": "action", "action": action, "v": tab.version, "ref": ref})
        while True:
            message = await tab.next_message("patch", "error", "state", timeout=10)
            if message["type"] == "patch" and message.get("ref") == ref:
                self.acknowledged[message["v"]] = action
                await self.see_the_score(message)
                return
            if message["type"] == "error" and message.get("ref") == ref:
                self.refusals.append(message["code"])
                await asyncio.sleep(0.2)
                await tab.send({"type": "sync"})  # refused or failed: learn the truth, then go on
                return
            if message["type"] == "state":
                await self.see_the_score(message)
                return  # a resync came first: act again on the fresh view


def assert_acknowledged_moves_are_stored(database_url: str, player: ResilientPlayer) -> int:
    version = assert_log_is_whole(database_url, player.game_id)
    _initial, moves = stored_moves(database_url, player.game_id)
    by_seq = {seq: (seat, action) for seq, seat, action in moves}
    for acked, action in player.acknowledged.items():
        assert acked <= version and by_seq[acked] == ("S", action), f"acknowledged v{acked} is not stored"
    _version, position = stored_game(database_url, player.game_id)
    assert cards_in_position(position) == 270  # R1
    return version


async def finish(player: ResilientPlayer) -> None:
    """Wait for South's turn (the bots are done), then check the patched view against a fresh one."""
    await back_to_south(player)
    await player.tab.sync_matches()
    await player.tab.close()


async def back_to_south(player: ResilientPlayer) -> None:
    """Wait for South's turn. A deal may end while it waits: South then presses Next deal, as while
    playing (else the bots wait for it, and the test with them)."""
    deadline = time.monotonic() + 30
    while not player.tab.my_turn():
        assert time.monotonic() < deadline, "the bots did not come back to South"
        try:
            await player.see_the_score(await player.tab.next_message("patch", "state", timeout=5))
        except TimeoutError:
            await player.tab.send({"type": "sync"})


def test_finish_presses_next_deal_when_the_deal_ends_while_it_waits(daphne, sqlite_url):
    """The deal ends on the bots' turns after South's last one: `finish` (which every fault test
    ends with) presses Next deal, as the page's player does, and the bots come back to South."""
    server = daphne(sqlite_url, **SIMPLE_BOTS)
    browser = Browser(server.http)
    player = ResilientPlayer(browser, [server], browser.new_solo())

    def last_turn_of_the_deal(view: dict) -> bool:
        # Everyone draws two (R27; one from a stock of one, R53(ii)): from 1 to 6 cards, a bot finds
        # the stock empty at its draw and the deal ends there (R51(b)). From 7 or 8 it would be
        # South's own next draw, so such a deal is skipped and the next one tried.
        return view["turn"] == player.tab.seat and view["phase"] == "draw" and 0 < view["stock"] <= 6

    async def scenario():
        await player.play_until(2)
        # A red three drawn by South at the very end ends the deal on South's turn (R53(iii)): then
        # the test tries again in the next deal.
        for _attempt in range(3):
            while not last_turn_of_the_deal(player.tab.opened_view()):
                await player.play_until(player.tab.opened_version() + 1)
            while player.tab.my_turn():
                await player.step()
            player.tab.deal_ended = False
            await back_to_south(player)
            if player.tab.deal_ended:
                break
        assert player.tab.deal_ended, "the deal did not end while South waited: the test proved nothing"
        await player.tab.sync_matches()
        await player.tab.close()

    run(scenario())


# ---------------------------------------------------------------- Redis restarted


def test_a_redis_restart_mid_game_loses_no_move_and_the_game_goes_on(daphne, sqlite_url, private_redis):
    """The channel layer loses every group and message; clients resync (or reconnect) and play on."""
    server = daphne(sqlite_url, REDIS_URL=private_redis.url, FOOT_HEARTBEAT_SECONDS=1, **SIMPLE_BOTS)
    browser = Browser(server.http)
    player = ResilientPlayer(browser, [server], browser.new_solo())

    listener = WsPlayer(
        browser, server.ws, player.game_id, on_gap="resync"
    )  # a second tab that only listens, never reconnects
    heard_after_restart: list[int] = []

    async def scenario():
        await player.play_until(20)
        await listener.open()
        await asyncio.to_thread(private_redis.restart, 0.5)
        restarted_at = player.tab.opened_version()
        await player.play_until(player.tab.opened_version() + 40)
        # The pub/sub layer subscribes its groups again when Redis is back, so an open socket
        # hears the game's moves again without reconnecting. The listener never asks for
        # anything: each frame after the restart came through the group (a patch, or the state
        # its server sends when a patch arrived after a gap of messages lost in the outage).
        while listener.opened_version() < player.tab.opened_version():
            await listener.next_message("patch", "state", timeout=10)
        heard_after_restart.extend(
            frame["v"]
            for _version, frame in listener.frames
            if frame["type"] in ("patch", "state") and frame["v"] > restarted_at
        )
        await listener.close()
        await finish(player)

    run(scenario())
    assert assert_acknowledged_moves_are_stored(sqlite_url, player) >= 60
    assert heard_after_restart, "the listening socket heard no move after the restart"
    print(
        f"redis restart: refusals {player.refusals}, reconnects {player.reconnects}, "
        f"patches heard by the listening tab after it {len(heard_after_restart)}"
    )


# ---------------------------------------------------------------- PostgreSQL connections cut


class Cutter(threading.Thread):
    """Cuts every connection through the proxy at random moments, `cuts` times."""

    def __init__(self, proxy, cuts: int, seed: int):
        super().__init__(daemon=True)
        self.proxy, self.cuts, self.random = proxy, cuts, random.Random(seed)
        self.done = 0
        self.connections_cut = 0

    def run(self):
        while self.done < self.cuts:
            time.sleep(self.random.uniform(0.05, 0.4))
            self.connections_cut += self.proxy.cut()
            self.done += 1


@pytest.mark.parametrize("conn_max_age", [pytest.param(0, marks=pytest.mark.slow), 60])
def test_cut_postgresql_connections_never_half_apply_a_move(daphne, postgres_proxy, postgres_url, conn_max_age):
    """Moves during cuts are refused (busy) or applied whole; Move rows, version and position agree."""
    proxy, through_proxy = postgres_proxy
    server = daphne(through_proxy, CONN_MAX_AGE=conn_max_age, FOOT_HEARTBEAT_SECONDS=1, **SIMPLE_BOTS)
    browser = Browser(server.http)
    player = ResilientPlayer(browser, [server], browser.new_solo())
    cutter = Cutter(proxy, cuts=25, seed=conn_max_age)

    async def scenario():
        await player.play_until(8)
        cutter.start()
        while cutter.is_alive():
            await player.play_until(player.tab.opened_version() + 4, timeout=120)
        cutter.join()
        after_cuts.append(player.tab.opened_version())
        await player.play_until(player.tab.opened_version() + 16)  # and the game goes on
        await finish(player)

    after_cuts: list[int] = []
    run(scenario())
    assert cutter.connections_cut > 0, "the proxy cut nothing: the test proved nothing"
    assert assert_acknowledged_moves_are_stored(postgres_url, player) >= after_cuts[0] + 16
    print(
        f"postgres cuts: {cutter.connections_cut} connections in {cutter.done} cuts; "
        f"refusals {player.refusals}; reconnects {player.reconnects}"
    )


def test_a_sync_after_a_cut_connection_is_answered_with_the_state(daphne, postgres_proxy):
    """A connection cut while idle fails its next statement: the read of a state is tried again
    on a new one, so the page that asked for its view gets it, not `busy` (a page on its own turn
    hears nothing else until it acts)."""
    proxy, through_proxy = postgres_proxy
    server = daphne(through_proxy, FOOT_HEARTBEAT_SECONDS=60, **SIMPLE_BOTS)
    browser = Browser(server.http)
    player = ResilientPlayer(browser, [server], browser.new_solo())

    async def scenario():
        await player.play_until(4)
        while not player.tab.my_turn():  # South's turn: the game waits, so the view holds still
            await player.tab.next_message("patch")
        for _ in range(3):
            assert await asyncio.to_thread(proxy.cut) > 0
            await player.tab.sync_matches()
        await player.tab.close()

    run(scenario())


# ---------------------------------------------------------------- two Daphnes, one killed


def test_players_move_to_the_other_daphne_when_theirs_is_killed(daphne, postgres_url, private_redis):
    first = daphne(postgres_url, REDIS_URL=private_redis.url, **SIMPLE_BOTS)
    second = daphne(postgres_url, REDIS_URL=private_redis.url, **SIMPLE_BOTS)
    browser = Browser(first.http)
    player = ResilientPlayer(browser, [first, second], browser.new_solo())
    watcher = WsPlayer(
        Browser(second.http), second.ws, player.game_id, on_gap="resync"
    )  # a spectator on the other server

    async def scenario():
        await player.play_until(12)
        await watcher.open()
        first.kill()  # kill -9, bot pool and all
        killed_at.append(player.tab.opened_version())
        await player.play_until(player.tab.opened_version() + 30)
        assert player.reconnects >= 1 and player.tab.url.startswith(second.ws)
        await finish(player)  # South's turn: the game waits, so the views hold still
        while watcher.opened_version() < player.tab.opened_version():  # the spectator on the survivor saw it all
            await watcher.next_message("patch", "state")
        await watcher.sync_matches()  # its patched public view is the survivor's truth
        await watcher.close()

    killed_at: list[int] = []
    run(scenario())
    assert assert_acknowledged_moves_are_stored(postgres_url, player) >= killed_at[0] + 30
    print(f"daphne killed at v{killed_at[0]}: refusals {player.refusals}, reconnects {player.reconnects}")


async def follow_across_restarts(watcher: WsPlayer, servers: list, until: asyncio.Event) -> None:
    """A spectator as the page is: on a closed socket it opens one on a live server, and follows
    patch by patch (a gap resyncs) until told to stop."""
    while not until.is_set():
        try:
            await watcher.next_message("patch", "state", timeout=1)
        except TimeoutError:
            continue
        except (ConnectionClosed, OSError):
            for server in [s for s in servers if s.alive()]:
                with contextlib.suppress(OSError, TimeoutError, ConnectionClosed, InvalidStatus):
                    await watcher.open(server.ws)
                    break


def test_a_killed_daphne_that_held_all_of_a_games_sockets_loses_nothing(daphne, postgres_url, private_redis):
    """The in-process path (server/channel_layer.py): the player and a spectator on one Daphne,
    which delivers the game's updates without Redis, killed with kill -9 mid-game. Both come back
    on the other Daphne, which finds the dead process still in the game's member set (it waits
    for its answer once, then drops it), and the game goes on with both following it."""
    first = daphne(postgres_url, REDIS_URL=private_redis.url, **SIMPLE_BOTS)
    second = daphne(postgres_url, REDIS_URL=private_redis.url, **SIMPLE_BOTS)
    browser = Browser(first.http)
    player = ResilientPlayer(browser, [first, second], browser.new_solo())
    watcher = WsPlayer(Browser(first.http), first.ws, player.game_id, on_gap="resync")

    async def scenario():
        await watcher.open()
        stop = asyncio.Event()
        following = asyncio.create_task(follow_across_restarts(watcher, [first, second], stop))
        await player.play_until(12)
        first.kill()  # kill -9 while the bots answer the player's last move
        killed_at.append(player.tab.opened_version())
        await player.play_until(player.tab.opened_version() + 30)
        assert player.reconnects >= 1 and player.tab.url.startswith(second.ws)
        await finish(player)  # South's turn: the game holds still
        while watcher.version is None or watcher.version < player.tab.opened_version():
            await asyncio.sleep(0.1)
        stop.set()
        await following
        assert watcher.url.startswith(second.ws)
        await watcher.sync_matches()  # its patched view is the survivor's truth
        await watcher.close()

    killed_at: list[int] = []
    run(asyncio.wait_for(scenario(), 180))
    assert assert_acknowledged_moves_are_stored(postgres_url, player) >= killed_at[0] + 30
