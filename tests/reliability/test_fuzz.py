"""A protocol fuzzer: random and malformed websocket messages, checked after every one.

Hypothesis draws frames: wrong types, huge and negative numbers, unknown cards and actions,
nested values, non-objects, malformed JSON, binary frames, frames over the 64 KB limit, actions
naming another seat or another game, channel-layer handler names, and replays of old messages.
They go over channels' WebsocketCommunicator (the whole ASGI stack: origin check, session,
consumer, room service) to the attacker's own solo game and, as a spectator, to a victim's game.
After each frame the server must answer or close cleanly (a JSON message of a known type, or a
close with a code of docs/PROTOCOL.md), and then:
- every card of the attacker's game is still there (270, R1), Move rows = Game.version;
- the victim's game has not changed at all;
at the end the attacker's log replays to its stored position (nothing half-applied).

The default run sends a few thousand frames; the `slow` variant tens of thousands.
"""

import asyncio
import contextlib
import json
import os
import threading

import jsonpatch
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games.inbox import MAX_FRAME_BYTES
from games.models import Game, Move
from games.protocol import CLOSE_POLICY, CLOSE_TOO_BIG
from games.replay import replay
from games.rooms.creation import create_game
from players.models import Player
from server.asgi import application
from testsupport.ws_player import simple_action

from .clients import cards_in_position

TIMEOUT = 15
KNOWN_REPLIES = {"state", "patch", "error", "checked", "presence", "hint", "take_choice"}
CLEAN_CLOSES = {CLOSE_POLICY, CLOSE_TOO_BIG}
REAL_CARDS = ["4H", "9C", "TS", "QD", "AS", "2C", "3H", "3S", "JK", "KC"]
# json.loads raises RecursionError (not ValueError) past ~1000 levels; the consumer answers bad_json.
MAX_DEPTH = 30000  # 60 KB of brackets: still under the frame limit

# ---------------------------------------------------------------- strategies

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=False),
    st.text(st.characters(blacklist_categories=["Cs"]), max_size=12),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
cards = st.one_of(st.sampled_from(REAL_CARDS), st.text(max_size=4), st.integers(-5, 60), st.none(), json_values)
versions = st.one_of(
    st.sampled_from(["CURRENT", "CURRENT", "OLD", "NEXT"]),
    st.integers(-(2**64), 2**64),
    st.just(10**400),
    st.booleans(),
    st.floats(),
    st.text(max_size=4),
    st.none(),
)
groups = st.lists(
    st.fixed_dictionaries(
        {"cards": st.lists(cards, max_size=5)},
        optional={"to": st.sampled_from(["4", "9", "Q", "A", "wild", "3", "Z", ""]) | json_values},
    ),
    max_size=3,
)
actions = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["draw", "draw", "discard", "meld", "take_pile", "pass", "__class__", ""])
        | st.text(max_size=10)
        | json_values
    },
    optional={
        "card": cards,
        "cards": st.lists(cards, max_size=6) | json_values,
        "groups": groups | json_values,
        "count": st.integers(-(10**9), 10**9),
        "seat": st.sampled_from(["S", "W", "N", "E", "X", ""]),
    },
)
message_types = st.sampled_from(
    [
        "action",
        "action",
        "action",
        "check",
        "sync",
        "next_deal",
        "hint",
        "take_choice",
        "room.update",
        "room_update",
        "room.refresh",
        "websocket.disconnect",
        "send_state",
        "on_action",
        "__init__",
        "",
        "ACTION",
    ]
) | st.text(max_size=12)
messages = st.fixed_dictionaries(
    {"type": message_types},
    optional={
        "action": actions | json_values,
        "v": versions,
        "ref": st.text(max_size=40) | json_values,
        "seat": st.sampled_from(["S", "W", "N", "E"]),
        "game": st.uuids().map(str),
        "player": st.uuids().map(str),
        "parts": json_values,
        "origin": st.text(max_size=10),
    },
)
frames = st.one_of(
    messages.map(lambda m: ("json", m)),
    messages.map(lambda m: ("json", m)),
    json_values.map(lambda v: ("json", v)),  # valid JSON that is not a message object
    st.text(st.characters(blacklist_categories=["Cs"]), max_size=120).map(lambda t: ("text", t)),
    st.binary(max_size=80).map(lambda b: ("bytes", b)),
    st.integers(1, MAX_DEPTH).map(lambda d: ("text", '{"type":"action","action":' + "[" * d + "]" * d + "}")),
    st.integers(MAX_FRAME_BYTES - 4096, MAX_FRAME_BYTES + 256).map(
        lambda n: ("text", json.dumps({"type": "sync", "pad": "x" * n}))
    ),  # around the 64 KB limit
    st.just(("replay", None)),
    st.just(("legal", None)),
    st.just(("legal", None)),  # real moves, so the game (and its bots) go on
)
targets = st.sampled_from(["own", "own", "own", "foreign"])


# ---------------------------------------------------------------- the harness


class LoopThread:
    """One event loop in a thread for the whole test, so sockets live across Hypothesis examples."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 60):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class Fuzzer:
    """The attacker's two sockets, what it has sent, and the checks after every frame."""

    def __init__(self, attacker_cookie: bytes, own_game: Game, foreign_game: Game):
        self.cookie, self.own_id, self.foreign_id = attacker_cookie, own_game.id, foreign_game.id
        self.sockets: dict = {}
        self.version = 0
        self.view = None
        self.sent = 0
        self.closes: dict[int, int] = {}
        self.replies: dict[str, int] = {}
        self.history: list[tuple[str, str]] = []  # (target, text) of actions sent, for replays
        self.probe = 0
        # (version, position, status) of the victim's game, taken once both sockets are open
        self.foreign_snapshot: tuple[int, object, str] | None = None

    async def connect(self, target: str) -> None:
        game_id = self.own_id if target == "own" else self.foreign_id
        comm = WebsocketCommunicator(
            application,
            f"/ws/game/{game_id}/",
            headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", self.cookie)],
        )
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        self.sockets[target] = comm
        await self.read_until(target, lambda m: m["type"] == "state")

    def concrete(self, message: dict) -> str:
        if isinstance(message, dict) and message.get("v") in ("CURRENT", "OLD", "NEXT"):
            message = dict(
                message,
                v={"CURRENT": self.version, "OLD": max(0, self.version - 3), "NEXT": self.version + 1}[message["v"]],
            )
        return json.dumps(message)

    async def send(self, target: str, frame: tuple) -> None:
        kind, payload = frame
        comm = self.sockets[target]
        if kind == "legal":
            if target != "own" or self.view is None or self.view["turn"] != "S" or self.view["phase"] == "over":
                return
            text = json.dumps({"type": "action", "action": simple_action(self.view), "v": self.version, "ref": "ok"})
            self.history.append((target, text))
            await comm.send_input({"type": "websocket.receive", "text": text})
        elif kind == "replay":
            if not self.history:
                return
            target, text = self.history[len(self.history) // 2]
            comm = self.sockets[target]
            await comm.send_input({"type": "websocket.receive", "text": text})
        elif kind == "bytes":
            await comm.send_input({"type": "websocket.receive", "bytes": payload})  # empty ones too
        else:
            text = self.concrete(payload) if kind == "json" else payload
            if kind == "json" and isinstance(payload, dict) and payload.get("type") == "action":
                self.history.append((target, text))
                self.history = self.history[-50:]
            await comm.send_input({"type": "websocket.receive", "text": text})
        self.sent += 1
        await self.answered_or_closed(target)

    async def answered_or_closed(self, target: str) -> None:
        """Send a probe and read until its answer: every frame before it must be a known reply."""
        self.probe += 1
        ref = f"probe-{self.probe}"
        comm = self.sockets[target]
        # A socket the server already closed raises whatever its consumer ended with: then the
        # read below finds the close.
        with contextlib.suppress(Exception):
            await comm.send_json_to({"type": "check", "action": {"type": "draw"}, "ref": ref})
        closed = await self.read_until(target, lambda m: m.get("ref") == ref and m["type"] in ("checked", "error"))
        if closed is not None:
            self.closes[closed] = self.closes.get(closed, 0) + 1
            await self.connect(target)

    async def read_until(self, target: str, done) -> int | None:
        """Read outputs until `done(message)`; the close code if the server closed instead."""
        comm = self.sockets[target]
        while True:
            output = await comm.receive_output(timeout=TIMEOUT)  # an exception in the consumer raises here
            if output["type"] == "websocket.close":
                code = output.get("code")
                assert code in CLEAN_CLOSES, f"unexpected close {code}"
                await comm.disconnect(timeout=TIMEOUT)  # the client's side of the close
                return code
            assert output["type"] == "websocket.send" and output.get("text") is not None
            message = json.loads(output["text"])
            assert isinstance(message, dict) and message.get("type") in KNOWN_REPLIES, message
            self.replies[message["type"]] = self.replies.get(message["type"], 0) + 1
            if target == "own":
                self.follow(message)
            if done(message):
                return None

    def follow(self, message: dict) -> None:
        """Keep the own seat's view (for the legal moves and the CURRENT version)."""
        if message["type"] == "state":
            self.view, self.version = message["view"], message["v"]
        elif message["type"] == "patch":
            assert message["v"] == self.version + 1, "a version was skipped without a resync"
            self.view = jsonpatch.apply_patch(self.view, message["ops"])
            self.version = message["v"]

    async def check_games(self) -> None:
        own, foreign, moves = await database_sync_to_async(self._stored)()
        assert cards_in_position(own.position) == 270  # R1
        assert moves == own.version, "Move rows and Game.version disagree"
        assert (foreign.version, foreign.position, foreign.status) == self.foreign_snapshot, "the victim's game changed"

    def _stored(self):
        own = Game.objects.get(pk=self.own_id)
        return own, Game.objects.get(pk=self.foreign_id), Move.objects.filter(game_id=self.own_id).count()

    async def close(self) -> None:
        for comm in self.sockets.values():
            await comm.disconnect()


def session_cookie(player) -> bytes:
    store = SessionStore()
    store["player_id"] = str(player.id)
    store.create()
    return f"sessionid={store.session_key}".encode()


@pytest.fixture
def fuzz_setup(settings):
    settings.FOOT_BOT_FACTORY = "tests.rooms.simple_player:make_bot"
    settings.FOOT_BOT_POOL = "thread"
    settings.FOOT_BOT_DELAY = 0
    settings.FOOT_WS_RATE = 10**6  # the flood limit has its own test: here every frame must be read
    settings.FOOT_WS_BURST = 10**6
    attacker, victim = Player.objects.create(), Player.objects.create()
    own, _ = create_game(attacker, "solo", "easy")
    foreign, _ = create_game(victim, "solo", "easy")
    runner = LoopThread()
    fuzzer = Fuzzer(session_cookie(attacker), own, foreign)
    runner.run(fuzzer.connect("own"))
    runner.run(fuzzer.connect("foreign"))
    foreign.refresh_from_db()
    fuzzer.foreign_snapshot = (foreign.version, foreign.position, foreign.status)
    yield runner, fuzzer
    runner.run(fuzzer.close())
    runner.stop()
    from games.rooms import bot_runner

    bot_runner.shutdown_pool()
    replayed = replay(Game.objects.get(pk=own.id))
    assert replayed.to_position() == Game.objects.get(pk=own.id).position  # nothing half-applied
    print(
        f"fuzzed {fuzzer.sent} frames; replies {fuzzer.replies}; clean closes {fuzzer.closes}; "
        f"own game at v{fuzzer.version}"
    )


def fuzz(runner: LoopThread, fuzzer: Fuzzer, batch: list) -> None:
    async def play():
        for target, frame in batch:
            await fuzzer.send(target, frame)
            await fuzzer.check_games()

    runner.run(play(), timeout=600)


# No shrinking: a failure prints its whole batch at once, and the run stays bounded in time.
COMMON = hsettings(
    deadline=None,
    database=None,
    print_blob=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.django_db(transaction=True)
@hsettings(COMMON, max_examples=int(os.environ.get("FUZZ_EXAMPLES", "120")))
@given(batch=st.lists(st.tuples(targets, frames), min_size=20, max_size=60))
def test_fuzzed_frames_are_answered_and_change_nothing_they_should_not(
    fuzz_setup: tuple[LoopThread, Fuzzer], batch: list
) -> None:
    fuzz(*fuzz_setup, batch)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@hsettings(COMMON, max_examples=int(os.environ.get("FUZZ_EXAMPLES_SLOW", "1200")))
@given(batch=st.lists(st.tuples(targets, frames), min_size=20, max_size=60))
def test_fuzzed_frames_many(fuzz_setup: tuple[LoopThread, Fuzzer], batch: list) -> None:
    fuzz(*fuzz_setup, batch)


# ---------------------------------------------------------------- known holes and floods


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_deep_nesting_is_answered_with_bad_json(settings):
    settings.FOOT_WS_RATE, settings.FOOT_WS_BURST = 1000, 1000
    player = await database_sync_to_async(Player.objects.create)()
    game, _ = await database_sync_to_async(create_game)(player, "solo", "easy")
    comm = WebsocketCommunicator(
        application,
        f"/ws/game/{game.id}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", await database_sync_to_async(session_cookie)(player)),
        ],
    )
    assert (await comm.connect(timeout=TIMEOUT))[0]
    while (await comm.receive_json_from(timeout=TIMEOUT))["type"] != "state":
        pass
    await comm.send_to(text_data="[" * 20000 + "]" * 20000)  # 40 KB: under the frame limit
    while True:  # was a crash (RecursionError in json.loads), fixed in games/consumers.py
        reply = await comm.receive_json_from(timeout=5)
        if reply["type"] == "error":
            break
    assert reply["code"] == "bad_json"
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_flood_is_closed_with_the_policy_code_and_other_games_go_on(settings):
    settings.FOOT_WS_RATE, settings.FOOT_WS_BURST = 10, 30
    settings.FOOT_BOT_DELAY = 0
    flooder, other = (
        await database_sync_to_async(Player.objects.create)(),
        await database_sync_to_async(Player.objects.create)(),
    )
    flooded, _ = await database_sync_to_async(create_game)(flooder, "solo", "easy")
    calm, _ = await database_sync_to_async(create_game)(other, "solo", "easy")

    def socket(game, player_cookie):
        return WebsocketCommunicator(
            application,
            f"/ws/game/{game.id}/",
            headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", player_cookie)],
        )

    noisy = socket(flooded, await database_sync_to_async(session_cookie)(flooder))
    quiet = socket(calm, await database_sync_to_async(session_cookie)(other))
    for comm in (noisy, quiet):
        assert (await comm.connect(timeout=TIMEOUT))[0]
    for _ in range(200):
        await noisy.send_to(text_data='{"type":"sync"}')
    code = None
    while code is None:
        output = await noisy.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            code = output["code"]
    assert code == CLOSE_POLICY
    await quiet.send_json_to({"type": "sync"})
    while (await quiet.receive_json_from(timeout=TIMEOUT))["type"] != "state":
        pass
    await quiet.disconnect()
