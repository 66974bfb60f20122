"""The websocket consumer in process (channels.testing): envelope, seats, patches, limits, bots."""

import asyncio
import json
import threading

import jsonpatch
import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games.engine import Game as EngineGame
from games.inbox import MAX_FRAME_BYTES
from games.messages import language_of_scope
from games.models import Game, Move, Presence
from games.protocol import CLOSE_NOT_FOUND, CLOSE_POLICY, CLOSE_TOO_BIG
from games.rooms import socket_face
from games.rooms.broadcast import group_name
from games.rooms.creation import create_game
from games.rooms.moves import apply_move
from games.rooms.turns import advance_once
from players.models import Player
from server.asgi import application, front
from testsupport.rooms_fixtures import fast_bots, settled_rooms  # noqa: F401  (opt-in autouse fixtures)
from testsupport.sockets import TIMEOUT, close_code, communicator, receive, session_cookie

from .simple_player import simple_action

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def south():
    player = Player.objects.create()
    return player, session_cookie(player)


@pytest.fixture
def solo(south):
    game, _ = create_game(south[0], "solo", "easy")
    return game


class Follower:
    """A client's copy of its view, kept by applying each patch in version order."""

    def __init__(self, comm: WebsocketCommunicator):
        self.comm = comm
        self.view: dict | None = None  # both None until start() read the state
        self.version: int | None = None
        self.presence: list[dict] = []  # the seats of every presence message, in order

    def opened_view(self) -> dict:
        assert self.view is not None, "no view before start()"
        return self.view

    def opened_version(self) -> int:
        assert self.version is not None, "no version before start()"
        return self.version

    async def start(self):
        state = await receive(self.comm, "state")
        self.view, self.version = state["view"], state["v"]
        return state

    async def next_patch(self):
        while True:
            message = await receive(self.comm, "patch", "state", "error", "presence")
            if message["type"] == "presence":
                self.presence.append(message["seats"])
                continue
            if message["type"] == "state":
                self.view, self.version = message["view"], message["v"]
                continue
            if message["type"] == "error":
                return message
            assert message["v"] == self.opened_version() + 1, "every seat gets every version, in order"
            self.view = jsonpatch.apply_patch(self.view, message["ops"])
            self.version = message["v"]
            return message

    async def until_turn(self, seat):
        while self.opened_view()["turn"] != seat:
            await self.next_patch()


async def test_a_seated_player_gets_the_state_of_their_seat(solo, south):
    comm = communicator(solo.id, south[1])
    connected, _ = await comm.connect()
    assert connected
    state = await receive(comm, "state")
    assert state["seat"] == "S" and state["v"] == 0 and state["mode"] == "solo" and state["ranked"] is False
    assert state["seats"] == {"S": "you", "W": "bot", "N": "bot", "E": "bot"}
    assert state["view"] == EngineGame.from_position(solo.position).view("S")
    presence = await receive(comm, "presence")
    assert presence["seats"]["S"] == "connected" and presence["seats"]["W"] == "bot"
    await comm.disconnect()


async def test_patches_follow_the_moves_and_bots_answer_until_the_humans_turn(solo, south):
    comm = communicator(solo.id, south[1])
    await comm.connect()
    me = Follower(comm)
    await me.start()
    await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "c1"})
    drawn = await me.next_patch()
    assert drawn["ref"] == "c1" and drawn["events"][0]["type"] == "draw"
    # Two cards from the stock (R27); a red three among them is laid and replaced in between (R34).
    own_draws = [e for e in drawn["events"] if e["type"] == "draw" and not e.get("replacement")]
    assert sum(len(e["cards"]) for e in own_draws) == 2
    await comm.send_json_to({"type": "action", "action": simple_action(me.opened_view()), "v": me.version, "ref": "c2"})
    discarded = await me.next_patch()
    assert discarded["ref"] == "c2"
    await me.until_turn("S")  # W, N and E played, one version each
    assert me.version == 2 + 6
    await comm.send_json_to({"type": "sync"})
    fresh = await receive(comm, "state")
    assert fresh["v"] == me.version and fresh["view"] == me.view
    await comm.disconnect()
    assert await database_sync_to_async(Move.objects.filter(game_id=solo.id).count)() == 8


async def test_a_rule_error_comes_back_with_its_code_and_ref(solo, south):
    comm = communicator(solo.id, south[1])
    await comm.connect()
    state = await receive(comm, "state")
    card = next(iter(state["view"]["hand"]))
    await comm.send_json_to({"type": "action", "action": {"type": "discard", "card": card}, "v": 0, "ref": 7})
    error = await receive(comm, "error")
    assert error["code"] == "must_draw_first" and error["ref"] == 7 and error["message"]
    await comm.send_json_to({"type": "check", "action": {"type": "discard", "card": card}, "ref": "k"})
    checked = await receive(comm, "checked")
    assert checked["ok"] is False and checked["code"] == "must_draw_first" and checked["ref"] == "k"
    await comm.disconnect()


async def test_two_tabs_of_one_seat_acting_at_once_apply_exactly_one_move(solo, south):
    first, second = communicator(solo.id, south[1]), communicator(solo.id, south[1])
    await first.connect()
    await second.connect()
    tab_a, tab_b = Follower(first), Follower(second)
    await tab_a.start()
    await tab_b.start()
    await first.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "a1"})
    await tab_a.next_patch()
    await tab_b.next_patch()
    hand = sorted(tab_a.opened_view()["hand"])
    await asyncio.gather(
        first.send_json_to({"type": "action", "action": {"type": "discard", "card": hand[0]}, "v": 1, "ref": "a2"}),
        second.send_json_to({"type": "action", "action": {"type": "discard", "card": hand[-1]}, "v": 1, "ref": "b2"}),
    )
    outcomes = [await tab_a.next_patch(), await tab_b.next_patch()]
    errors = [o for o in outcomes if o["type"] == "error"]
    applied = [o for o in outcomes if o["type"] == "patch"]
    if errors:  # the loser's refusal came before it saw the winner's patch
        assert [e["code"] for e in errors] == ["stale_version"]
    moves = await database_sync_to_async(lambda: list(Move.objects.filter(game_id=solo.id, seq=2)))()
    assert len(moves) == 1 and len(applied) >= 1
    for tab in (tab_a, tab_b):
        while tab.opened_version() < 8:  # the bots' three turns follow the one applied discard
            await tab.next_patch()
    assert tab_a.version == tab_b.version == 8 and tab_a.view == tab_b.view
    for tab in (tab_a, tab_b):
        await tab.comm.send_json_to({"type": "sync"})
        fresh = await receive(tab.comm, "state")
        while fresh["v"] != 8:  # a refresh sent with the refusal may still be queued
            fresh = await receive(tab.comm, "state")
        assert fresh["view"] == tab.view
    await first.disconnect()
    await second.disconnect()


async def test_a_spectator_sees_no_hand_and_cannot_act(solo):
    comm = communicator(solo.id)
    await comm.connect()
    state = await receive(comm, "state")
    assert state["seat"] is None and "hand" not in state["view"] and "options" not in state["view"]
    await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0})
    assert (await receive(comm, "error"))["code"] == "not_seated"
    await comm.disconnect()


async def test_bad_input_gets_errors_and_the_socket_stays_open(solo, south):
    comm = communicator(solo.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_to(text_data="{not json")
    assert (await receive(comm, "error"))["code"] == "bad_json"
    await comm.send_to(text_data="[1, 2]")
    assert (await receive(comm, "error"))["code"] == "bad_message"
    await comm.send_json_to({"type": "room.update", "v": 99, "parts": {}})  # a server-only type
    assert (await receive(comm, "error"))["code"] == "unknown_type"
    await comm.send_json_to({"type": "action", "action": "draw", "v": 0})
    assert (await receive(comm, "error"))["code"] == "bad_action"
    await comm.send_to(bytes_data=b"\x00\x01")
    assert (await receive(comm, "error"))["code"] == "bad_message"
    await comm.send_json_to({"type": "sync"})
    assert (await receive(comm, "state"))["v"] == 0
    await comm.disconnect()


async def test_a_frame_over_64_kb_closes_with_4009(solo, south):
    comm = communicator(solo.id, south[1])
    await comm.connect()
    await comm.send_to(text_data=json.dumps({"type": "sync", "pad": "x" * MAX_FRAME_BYTES}))
    assert await close_code(comm) == CLOSE_TOO_BIG


async def test_a_flood_closes_with_4008(solo, south, settings):
    settings.FOOT_WS_RATE, settings.FOOT_WS_BURST = 1, 5
    comm = communicator(solo.id, south[1])
    await comm.connect()
    for _ in range(10):
        await comm.send_json_to({"type": "nonsense"})
    assert await close_code(comm) == CLOSE_POLICY


async def test_an_unknown_game_closes_with_4404(south):
    comm = communicator("00000000-0000-0000-0000-000000000000", south[1])
    await comm.connect()
    assert await close_code(comm) == CLOSE_NOT_FOUND
    comm = communicator("not-a-uuid", south[1])
    await comm.connect()
    assert await close_code(comm) == CLOSE_NOT_FOUND


async def test_the_handshake_does_not_wait_for_the_database(solo, south, monkeypatch):
    """A socket is accepted before the room looks up its game and player. Daphne (autobahn) drops a
    handshake not completed in 5 s, and behind nginx that is a 502: when every table of a restarted
    process reconnects at once, the lookups queue, and a handshake that waited on them was dropped,
    retried after the page's backoff, and queued its lookup again (bench_load --roll at 300 tables:
    reconnects of 35 s). The state, which needs the lookup, comes when it is done."""
    lookup_may_go = threading.Event()
    identify = socket_face.identify

    def slow_identify(*args):
        lookup_may_go.wait(TIMEOUT)  # a database thread busy with the other tables' lookups
        return identify(*args)

    monkeypatch.setattr(socket_face, "identify", slow_identify)
    comm = communicator(solo.id, south[1])
    try:
        connected, _ = await comm.connect(timeout=2)
    finally:
        lookup_may_go.set()
    assert connected
    state = await receive(comm, "state")
    assert state["seat"] == "S" and state["v"] == 0
    await comm.disconnect()


async def test_a_socket_closed_by_a_restart_leaves_without_announcing_it(solo, south, monkeypatch):
    """Closed for a restart (server.front's drain), a socket's player comes back at once through
    another process: its leaving marks its presence row, but is not broadcast. Every socket of
    the process leaves at once then, and the broadcasts (three reads each) were a third of the
    draining process's database work while the other took all its tables (issue 26)."""
    announced: list[str] = []

    async def broadcast(game_id, *args, **kwargs):
        announced.append(str(game_id))

    monkeypatch.setattr(socket_face, "broadcast_presence", broadcast)
    for draining in (False, True):
        comm = communicator(solo.id, south[1])
        await comm.connect()
        await receive(comm, "state")
        announced.clear()
        monkeypatch.setattr(front, "draining", draining)
        await comm.disconnect()
        await database_sync_to_async(lambda: None)()  # the leaving's database call is done
        closed = await database_sync_to_async(Presence.objects.filter(game=solo, connected=False).count)()
        assert closed == 1  # the leaving is marked either way
        assert announced == ([] if draining else [str(solo.id)])
        await database_sync_to_async(Presence.objects.filter(game=solo).delete)()


async def test_a_game_left_on_a_bots_turn_goes_on_when_someone_connects(solo, south):
    await database_sync_to_async(apply_move)(solo.id, "S", {"type": "draw"}, 0)
    view = (await database_sync_to_async(Game.objects.get)(pk=solo.id)).position
    hand_view = EngineGame.from_position(view).view("S")
    await database_sync_to_async(apply_move)(solo.id, "S", simple_action(hand_view), 1)
    comm = communicator(solo.id, south[1])  # nobody was there when West's turn came
    await comm.connect()
    me = Follower(comm)
    await me.start()
    await me.until_turn("S")
    assert me.version == 8
    await comm.disconnect()


async def test_hints_come_from_the_bot_and_are_off_in_the_ranked_daily(solo, south):
    comm = communicator(solo.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "hint", "ref": "h"})
    hint = await receive(comm, "hint")
    assert hint["action"] == {"type": "draw"} and hint["ref"] == "h"
    # the whole step (games.bots.hint): in the draw phase just the draw (R25), worded by the page
    assert hint["step"] == {"actions": [{"type": "draw"}], "parts": [{"do": "draw"}]}
    await comm.disconnect()
    daily, _ = await database_sync_to_async(create_game)(south[0], "daily")
    comm = communicator(daily.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "hint"})
    assert (await receive(comm, "error"))["code"] == "hint_unavailable"
    await comm.disconnect()


async def test_the_socket_language_comes_from_the_cookie_then_accept_language():
    assert language_of_scope({"cookies": {"django_language": "de"}, "headers": []}) == "de"
    assert language_of_scope({"cookies": {}, "headers": [(b"accept-language", b"fr-FR,bn;q=0.8")]}) == "bn"
    assert language_of_scope({"cookies": {}, "headers": []}) == "en"


async def test_the_echo_socket_echoes():
    comm = WebsocketCommunicator(
        application, "/ws/echo/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    await comm.connect()
    await comm.send_to(text_data="ping 1")
    assert await comm.receive_from(timeout=TIMEOUT) == "ping 1"
    await comm.disconnect()


async def test_a_finished_game_refuses_moves(solo, south):
    await database_sync_to_async(Game.objects.filter(pk=solo.id).update)(status=Game.FINISHED)
    comm = communicator(solo.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0})
    assert (await receive(comm, "error"))["code"] == "game_over"
    await comm.disconnect()


@pytest.mark.parametrize("pool", ["thread", "process"])
async def test_a_bot_answer_for_a_stale_version_is_dropped(solo, south, monkeypatch, pool):
    """A quick bot thinks in the move's database thread, a slow one in its process pool; either
    way, another worker's move made while it thought makes its answer stale (DESIGN: versions)."""
    from games.rooms import bot_runner

    await database_sync_to_async(apply_move)(solo.id, "S", {"type": "draw"}, 0)
    game = await database_sync_to_async(Game.objects.get)(pk=solo.id)
    view = EngineGame.from_position(game.position).view("S")
    await database_sync_to_async(apply_move)(solo.id, "S", simple_action(view), 1)
    real_compute = bot_runner.compute_decision

    def compute_while_another_worker_moves(level, seed, view, game=None):
        decision = real_compute(level, seed, view, game=game)
        # Another process plays West's move first; this answer is now for a stale version.
        apply_move(solo.id, "W", decision["action"], 2)
        return decision

    async def think_while_another_worker_moves(level, seed, view):
        return await database_sync_to_async(compute_while_another_worker_moves)(level, seed, view)

    monkeypatch.setattr(bot_runner, "pool_kind", lambda level=None: pool)
    monkeypatch.setattr(bot_runner, "compute_decision", compute_while_another_worker_moves)
    monkeypatch.setattr(bot_runner, "think", think_while_another_worker_moves)
    moved, plan, settled = await advance_once(str(solo.id))
    assert (moved, plan, settled) == (True, None, False)  # stale: look again, nothing applied
    moves = await database_sync_to_async(
        lambda: list(Move.objects.filter(game_id=solo.id).values_list("seq", "seat"))
    )()
    assert moves == [(1, "S"), (2, "S"), (3, "W")]


async def test_errors_come_in_the_sockets_language(solo, south, german_catalogue):
    comm = communicator(solo.id, south[1], language="de-DE,de;q=0.9")
    await comm.connect()
    state = await receive(comm, "state")
    card = next(iter(state["view"]["hand"]))
    await comm.send_json_to({"type": "action", "action": {"type": "discard", "card": card}, "v": 0})
    error = await receive(comm, "error")
    assert error["code"] == "must_draw_first"
    assert error["message"] == (
        "Ziehe 2 oder nimm den Stapel, bevor du meldest oder abwirfst. Drücke „2 ziehen“ oder wähle zwei zur "
        "obersten Karte passende Karten und drücke „Stapel nehmen“."  # the refusal, then the next step
    )
    await comm.disconnect()


async def test_nesting_deeper_than_the_parser_goes_is_bad_json(solo, south):
    comm = communicator(solo.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_to(text_data="[" * 20000 + "]" * 20000)  # 40 KB, under the frame limit
    assert (await receive(comm, "error"))["code"] == "bad_json"
    await comm.send_json_to({"type": "sync"})
    assert (await receive(comm, "state"))["v"] == 0
    await comm.disconnect()


async def test_a_seat_missing_from_an_update_is_resynced_not_sent_the_spectators_part(solo, south):
    comm = communicator(solo.id, south[1])
    await comm.connect()
    assert (await receive(comm, "state"))["v"] == 0
    result = await database_sync_to_async(apply_move)(solo.id, "S", {"type": "draw"}, 0)
    update = result.message(origin=None, ref=None)
    update["parts"] = {key: part for key, part in update["parts"].items() if key != "S"}  # no part for South
    layer = get_channel_layer()
    assert layer is not None, "the tests run with a channel layer"
    await layer.group_send(group_name(solo.id), update)
    state = await receive(comm, "state", "patch")
    assert state["type"] == "state" and state["v"] == 1 and state["seat"] == "S"
    stored = await database_sync_to_async(Game.objects.get)(pk=solo.id)
    assert state["view"] == EngineGame.from_position(stored.position).view("S")  # South's own view, drawn cards in
    await comm.disconnect()


def engine_helpers():
    """tests/engine/helpers.py (the position builder), loaded by path: the test dirs are not one package."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "engine" / "helpers.py"
    spec = importlib.util.spec_from_file_location("foot_engine_helpers_rooms", path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_take_choice_finds_the_cards_or_says_why(solo, south, german_catalogue):  # R40, R37
    position = engine_helpers().position(
        hands={"S": "9C 9S AC AD AH 4H 5H 6C 7D"}, discard="5D 9D", turn="S", down={"NS": False, "EW": False}
    )
    await database_sync_to_async(Game.objects.filter(pk=solo.id).update)(position=position)
    comm = communicator(solo.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "take_choice", "ref": "t1"})
    choice = await receive(comm, "take_choice")
    assert choice["ref"] == "t1" and choice["ok"] is True and choice["points"] >= 50
    assert choice["action"] == EngineGame.from_position(position).take_choice("S")["action"]
    assert {"cards": ["AC", "AD", "AH"]} in choice["action"]["groups"]  # the groups that reach the minimum
    await comm.disconnect()

    short = engine_helpers().position(
        hands={"S": "9C 9S 4H 5H 6C 7D"}, discard="5D 9D", turn="S", down={"NS": False, "EW": False}, deal=2
    )
    await database_sync_to_async(Game.objects.filter(pk=solo.id).update)(position=short)
    comm = communicator(solo.id, south[1], language="de-DE")
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "take_choice", "ref": "t2"})
    choice = await receive(comm, "take_choice")
    assert choice["ok"] is False and choice["code"] == "take_cannot_reach_minimum"
    assert choice["params"] == {"top": "9D", "minimum": 90}
    # why (in German, the card as the table shows it), then what to do next
    assert "90" in choice["message"] and "9♦" in choice["message"] and "2 ziehen" in choice["message"]
    await comm.disconnect()


async def test_the_hint_step_is_played_by_its_actions_in_order(solo, south, settings):  # R38, R42, R25
    """The real hint bot (not the tests' simple player): a first lay-down of two melds, then the
    discard; the actions sent one after another, each on the version the previous one left."""
    settings.FOOT_BOT_FACTORY = ""
    position = engine_helpers().position(
        hands={"S": "7S 7D 7C KS KH KD KC 4H 9C 5D"}, phase="play", turn="S", down={"NS": False, "EW": False}
    )
    await database_sync_to_async(Game.objects.filter(pk=solo.id).update)(position=position)
    comm = communicator(solo.id, south[1])
    await comm.connect()
    version = (await receive(comm, "state"))["v"]
    await comm.send_json_to({"type": "hint", "ref": "h"})
    step = (await receive(comm, "hint"))["step"]
    assert [part["do"] for part in step["parts"]] == ["set_aside", "set_aside", "lay_down", "discard"]
    assert step["parts"][2] == {"do": "lay_down", "points": 55}
    assert [action["type"] for action in step["actions"]] == ["meld", "discard"]
    for number, action in enumerate(step["actions"]):
        await comm.send_json_to({"type": "action", "action": action, "v": version, "ref": f"a{number}"})
        patch = await receive(comm, "patch", "error")
        assert patch["type"] == "patch" and patch["ref"] == f"a{number}", patch
        version = patch["v"]
    stored = await database_sync_to_async(Game.objects.get)(pk=solo.id)
    assert EngineGame.from_position(stored.position).to_position()["down"]["NS"] is True
    await comm.disconnect()
