"""The process's heartbeat (games.rooms.heartbeats): the sockets due in one tick cost one presence
UPDATE and one Redis pipeline together; the watchdog reads no more than the games' rows when this
process's live game shows a person to play, and still plays on a game left on a computer's turn;
an idle socket is closed and a failing one stops nobody else; a friends game's presence goes out
once per game; sockets registered apart beat apart. The consumer's own heartbeat tests are in
tests/reliability/test_limits_sockets.py (idle close) and tests/rooms/test_consumer_friends.py."""

import asyncio
import time
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from channels.db import database_sync_to_async
from django.db.backends.utils import CursorWrapper

from games.engine import Game as EngineGame
from games.models import Game, Presence
from games.rooms import heartbeats
from games.rooms.broadcast import channel_layer, group_name
from games.rooms.creation import create_game, join_game, start_friends_game
from games.rooms.live_games import LIVE
from games.rooms.moves import apply_move
from games.rooms.presence import arrive, presence_message
from players import limits
from players.models import Player
from testsupport.rooms_fixtures import fast_bots, settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .simple_player import simple_action

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@dataclass(eq=False)
class Socket:
    """What the heartbeat reads of a consumer (heartbeats.Beating)."""

    game_id: str
    seat: str | None
    channel_name: str
    watch_presence: bool = False
    last_presence: dict[str, Any] | None = None
    lease: limits.SocketLease | None = None
    idle: bool = False
    broken: bool = False
    closed: bool = False

    async def still_open(self) -> bool:
        if self.broken:
            raise RuntimeError("a socket whose idle check fails")
        if self.idle:
            self.closed = True
        return not self.closed


def always(_channel_name: str) -> bool:
    return True


@pytest.fixture
def statements(monkeypatch) -> list[str]:
    """Every SQL statement sent, from any thread (the room's database threads too)."""
    sent: list[str] = []
    plain = CursorWrapper.execute

    def counted(self, sql, params=None):
        sent.append(sql)
        return plain(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", counted)
    return sent


@pytest.fixture
def pipelines(monkeypatch) -> list[int]:
    """The commands of every Redis pipeline sent (redis-py's synchronous client: players.limits)."""
    sent: list[int] = []
    plain = redis.client.Pipeline.execute

    def counted(self, *args, **kwargs):
        sent.append(len(self.command_stack))
        return plain(self, *args, **kwargs)

    monkeypatch.setattr(redis.client.Pipeline, "execute", counted)
    return sent


def presence_updates(statements: list[str]) -> list[str]:
    return [sql for sql in statements if sql.startswith("UPDATE") and "games_presence" in sql]


def game_reads(statements: list[str]) -> list[str]:
    return [sql for sql in statements if sql.startswith("SELECT") and 'FROM "games_game"' in sql]


def seated_sockets(count: int) -> list[Socket]:
    """`count` solo tables, each with its player's socket: its presence row and a held place."""
    sockets = []
    for number in range(count):
        player = Player.objects.create()
        game, _ = create_game(player, "solo", "easy")
        channel = f"beat-{number}-{uuid.uuid4().hex}"
        arrive(game.id, "S", channel)
        lease = limits.SocketLease(channel, game=str(game.id), session=str(player.id))
        assert lease.claim() is None
        sockets.append(Socket(str(game.id), "S", channel, lease=lease))
    return sockets


def last_seen(channel_names: list[str]) -> dict[str, Any]:
    return dict(Presence.objects.filter(channel_name__in=channel_names).values_list("channel_name", "last_seen"))


async def test_one_tick_beats_every_due_socket_with_one_update_and_one_pipeline(
    settings, redis_url, statements, pipelines
):
    settings.REDIS_URL, settings.FOOT_LIMIT_PREFIX = redis_url, f"test:{uuid.uuid4().hex}"
    sockets = await database_sync_to_async(seated_sockets)(6)
    names = [socket.channel_name for socket in sockets]
    before = await database_sync_to_async(last_seen)(names)
    client = redis.Redis.from_url(redis_url)
    lease = sockets[0].lease
    assert lease is not None
    place = lease.names()[0]
    held_until = client.zscore(place, names[0])
    assert held_until is not None
    await asyncio.sleep(0.05)
    statements.clear()
    pipelines.clear()

    await heartbeats.beat(sockets, always)

    assert len(presence_updates(statements)) == 1, presence_updates(statements)
    assert pipelines == [6 * 2 * 2]  # one pipeline: each socket's two places, ZADD and EXPIREAT each
    after = await database_sync_to_async(last_seen)(names)
    assert all(after[name] > before[name] for name in names)
    renewed_until = client.zscore(place, names[0])
    assert renewed_until is not None and renewed_until > held_until
    # The watchdog read the six rows at once (then, none in memory, looks at each: not counted here).
    assert len([sql for sql in game_reads(statements) if " IN (" in sql]) == 1


async def test_a_missing_presence_row_is_written_again_but_a_closed_sockets_is_not(statements):
    sockets = await database_sync_to_async(seated_sockets)(3)
    gone, closing, kept = sockets
    await database_sync_to_async(Presence.objects.filter(channel_name__in=[gone.channel_name]).delete)()
    await database_sync_to_async(Presence.objects.filter(channel_name=closing.channel_name).update)(connected=False)

    await heartbeats.beat(sockets, lambda name: name != closing.channel_name)

    rows = await database_sync_to_async(connected_rows)([socket.game_id for socket in sockets])
    assert rows == {gone.channel_name: True, closing.channel_name: False, kept.channel_name: True}


def connected_rows(game_ids: list[str]) -> dict[str, bool]:
    return dict(Presence.objects.filter(game_id__in=game_ids).values_list("channel_name", "connected"))


def solo_on_souths_turn() -> Game:
    """A solo game after South's draw: South is still to play, and this process's live game is at the row."""
    game, _ = create_game(Player.objects.create(), "solo", "easy")
    apply_move(game.id, "S", {"type": "draw"}, 0)
    return Game.objects.get(pk=game.id)


def solo_on_wests_turn() -> Game:
    """A solo game after South's draw and discard: West (a computer) is to play."""
    game = solo_on_souths_turn()
    view = EngineGame.from_position(game.position).view("S")
    apply_move(game.id, "S", simple_action(view), game.version)
    return Game.objects.get(pk=game.id)


async def test_the_watchdog_reads_only_the_rows_while_a_person_is_to_play(statements, monkeypatch):
    game = await database_sync_to_async(solo_on_souths_turn)()
    assert LIVE.peek(game.id, game.version) is not None
    advanced: list[str] = []
    monkeypatch.setattr(heartbeats, "advance_soon", advanced.append)
    socket = Socket(str(game.id), "S", "south")
    statements.clear()

    await heartbeats.watch([socket, socket])

    assert advanced == [] and len(game_reads(statements)) == 1
    LIVE.forget(game.id)  # a restart, or a move by another process: the live game says nothing
    await heartbeats.watch([socket])
    assert advanced == [str(game.id)]


async def test_the_watchdog_plays_on_a_game_a_restart_left_on_a_computers_turn():
    game = await database_sync_to_async(solo_on_wests_turn)()
    LIVE.forget(game.id)  # the process that made South's move is gone; nobody told the bots
    await heartbeats.beat([Socket(str(game.id), "S", "south-after-restart")], always)

    async def version() -> int:
        return (await database_sync_to_async(Game.objects.get)(pk=game.id)).version

    deadline = time.monotonic() + 10
    while await version() < game.version + 6 and time.monotonic() < deadline:  # W, N and E: a draw and a discard each
        await asyncio.sleep(0.05)
    assert await version() == game.version + 6


async def test_an_idle_socket_is_closed_and_a_failing_one_stops_nobody(statements):
    idle, broken, kept = await database_sync_to_async(seated_sockets)(3)
    idle.idle, broken.broken = True, True
    names = [idle.channel_name, broken.channel_name, kept.channel_name]
    before = await database_sync_to_async(last_seen)(names)
    await asyncio.sleep(0.01)

    await heartbeats.beat([idle, broken, kept], always)

    after = await database_sync_to_async(last_seen)(names)
    assert idle.closed and after[idle.channel_name] == before[idle.channel_name]
    assert after[broken.channel_name] == before[broken.channel_name]
    assert after[kept.channel_name] > before[kept.channel_name]


def friends_game_with_north_gone() -> Game:
    """A friends game in play: South's two tabs are there, North never came (so North has a deadline)."""
    host, friend = Player.objects.create(), Player.objects.create()
    game, _ = create_game(host, "friends")
    join_game(game.id, friend, "N")
    start_friends_game(game.id, host)
    arrive(game.id, "S", "south-tab-1")
    arrive(game.id, "S", "south-tab-2")
    return Game.objects.get(pk=game.id)


async def presence_heard(layer, channel: str) -> list[dict[str, Any]]:
    heard: list[dict[str, Any]] = []
    while True:
        try:
            message = await asyncio.wait_for(layer.receive(channel), 0.5)
        except TimeoutError:
            return heard
        if message["type"] == "room.presence":
            heard.append(message)


async def test_a_friends_games_presence_goes_out_once_per_game_with_the_deadline(monkeypatch):
    monkeypatch.setattr(heartbeats, "advance_soon", lambda game_id: None)  # only the presence here
    game = await database_sync_to_async(friends_game_with_north_gone)()
    layer = channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(group_name(game.id), listener)
    stale = {"S": "connected", "W": "bot", "N": "connected", "E": "bot"}  # heard before North left
    tabs = [Socket(str(game.id), "S", f"south-tab-{n}", watch_presence=True, last_presence=stale) for n in (1, 2)]

    await heartbeats.beat(tabs, always)

    [told] = await presence_heard(layer, listener)
    assert told["seats"]["N"] == "disconnected" and set(told["deadlines"]) == {"N"}
    for tab in tabs:
        tab.last_presence = told["seats"]
    await heartbeats.beat(tabs, always)
    assert await presence_heard(layer, listener) == []  # nothing changed: nothing sent
    message = await database_sync_to_async(presence_message)(game.id)
    assert message is not None and message["seats"] == told["seats"]


async def test_sockets_registered_apart_beat_apart_and_the_task_ends_with_the_last(settings, monkeypatch):
    settings.FOOT_HEARTBEAT_SECONDS = 1.0
    beats: list[set[str]] = []
    beaten = asyncio.Event()

    async def record(sockets, registered):
        beats.append({socket.channel_name for socket in sockets})
        if len(beats) == 2:
            beaten.set()

    monkeypatch.setattr(heartbeats, "beat", record)
    first, second, later = (Socket("g", "S", name) for name in ("first", "second", "later"))
    heartbeats.register(first)
    heartbeats.register(second)
    await asyncio.sleep(0.5)
    heartbeats.register(later)
    await asyncio.wait_for(beaten.wait(), 5)
    assert beats == [{"first", "second"}, {"later"}]
    for socket in (first, second, later):
        heartbeats.unregister(socket)
    assert heartbeats.heart().task is None and not heartbeats.heart().sockets


async def test_a_tick_that_fails_is_logged_and_the_next_one_comes(settings, monkeypatch, caplog):
    settings.FOOT_HEARTBEAT_SECONDS = 0.2
    ticks: list[int] = []

    async def failing(sockets, registered):
        ticks.append(len(sockets))
        raise RuntimeError("a tick that fails")

    monkeypatch.setattr(heartbeats, "beat", failing)
    only = Socket("g", "S", "only")
    heartbeats.register(only)
    deadline = time.monotonic() + 5
    while len(ticks) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    heartbeats.unregister(only)
    assert ticks[:2] == [1, 1] and "heartbeat: tick failed" in caplog.text
