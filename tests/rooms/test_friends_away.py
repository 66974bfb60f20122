"""A friend who goes away (issue 15, item 3): presence tells every seat the deadline after which
the computer plays for the absent friend, the computer takes the seat at that deadline (not at a
later heartbeat), finishes a turn it began even if the friend comes back meanwhile, and the
friend who returns is told what happened meanwhile (the recap of the stored moves). A second tab of a seat is told
so and changes nothing."""

import asyncio
import time

import pytest
from channels.db import database_sync_to_async

from games.engine import Game as EngineGame
from games.models import Game, Presence, StandIn
from games.rooms import presence as presence_module
from games.rooms import recap as recap_module
from games.rooms.bot_plans import plan_bot_move
from games.rooms.creation import create_game, join_game, start_friends_game
from games.rooms.moves import apply_move
from games.rooms.presence import drop_presence, touch_presence
from games.rooms.stand_ins import after_stand_in_move
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .simple_player import simple_action
from .test_consumer import Follower, communicator, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
GRACE = 0.8


@pytest.fixture(autouse=True)
def quick_clocks(settings):
    settings.FOOT_BOT_FACTORY = "tests.rooms.simple_player:make_bot"
    settings.FOOT_BOT_POOL = "thread"
    settings.FOOT_BOT_DELAY = 0
    settings.FOOT_AWAY_GRACE_SECONDS = GRACE
    # Longer than every wait below: only the wake-up at the deadline can make the computer move.
    settings.FOOT_HEARTBEAT_SECONDS = 30
    yield
    from games.rooms import bot_runner

    bot_runner.shutdown_pool()


@pytest.fixture
def friends():
    host, friend = Player.objects.create(nickname="Alice"), Player.objects.create(nickname="Bob")
    game, _ = create_game(host, "friends")
    join_game(game.id, friend, "W")  # West plays right after South (R6)
    start_friends_game(game.id, host)
    return Game.objects.get(pk=game.id), session_cookie(host), session_cookie(friend)


async def play_my_turn(me: Follower, ref: str):
    action = simple_action(me.opened_view())
    await me.comm.send_json_to({"type": "action", "action": action, "v": me.version, "ref": ref})
    while (await me.next_patch()).get("ref") != ref:
        pass


async def presence_where(comm, test):
    while True:
        message = await receive(comm, "presence")
        if test(message):
            return message


@pytest.mark.asyncio
async def test_the_deadline_is_sent_and_the_computer_plays_for_the_friend_at_it(friends):
    game, host_cookie, friend_cookie = friends
    south, west = communicator(game.id, host_cookie), communicator(game.id, friend_cookie)
    await south.connect()
    await west.connect()
    alice = Follower(south)
    await alice.start()
    await presence_where(south, lambda m: m["seats"]["W"] == "connected")
    await west.disconnect()
    left = time.time()
    told = await presence_where(south, lambda m: m["seats"]["W"] == "disconnected")
    assert told["names"]["W"] == "Bob" and set(told["deadlines"]) == {"W"}
    assert abs(told["deadlines"]["W"] - (left + GRACE)) < 0.5  # the server's clock, Unix seconds
    assert abs(told["now"] - time.time()) < 0.5 and told["stand_ins"] == []
    # South plays; West's turn waits for the deadline, then the computer plays it (R6: then N, E).
    turn = 0
    while alice.opened_view()["turn"] == "S":
        turn += 1
        await play_my_turn(alice, f"a{turn}")
    assert alice.opened_view()["turn"] == "W"
    await asyncio.wait_for(alice.until_turn("N"), 10)
    moved_at = time.time()
    assert moved_at - left >= GRACE - 0.05, "not before the deadline"
    assert moved_at - left < GRACE + 3, "at the deadline, not at a heartbeat 30 s later"
    away = [seats for seats in alice.presence if seats["W"] == "away"]
    assert away, "every seat is told that the computer plays for West"
    await south.disconnect()


def test_the_deadline_is_the_seats_last_socket_plus_the_grace_on_every_process(friends, settings):
    game = friends[0]
    touch_presence(game.id, "S", "one-process", first=True)
    touch_presence(game.id, "W", "other-process", first=True)
    drop_presence("other-process")
    closed = Presence.objects.get(channel_name="other-process").last_seen
    first = presence_of(game.id)
    assert first["deadlines"] == {"W": round(closed.timestamp() + GRACE, 3)}
    time.sleep(0.1)  # asked again later (another process's heartbeat): the same deadline
    assert presence_of(game.id)["deadlines"] == first["deadlines"]
    settings.FOOT_AWAY_GRACE_SECONDS = 0
    later = presence_of(game.id)
    assert later["seats"]["W"] == "away" and later["deadlines"] == {} and later["stand_ins"] == ["W"]


def test_a_lobby_or_a_solo_game_has_no_deadline(friends):
    host = Player.objects.create()
    lobby, _ = create_game(host, "friends")
    solo, _ = create_game(host, "solo", "easy")
    for game in (lobby, solo):
        touch_presence(game.id, "S", f"closed-{game.id}", first=True)
        drop_presence(f"closed-{game.id}")
        assert presence_of(game.id)["deadlines"] == {}


def presence_of(game_id) -> dict:
    """The presence message of a game (None only for a game that does not exist)."""
    message = presence_module.presence_message(game_id)
    assert message is not None, f"no presence message for {game_id}"
    return message


def west_to_play_with(game: Game, phase: str) -> Game:
    """Play South's turn (and West's draw when `phase` is "play") for the seats as people would."""
    for seat in ("S", "S"):
        stored = Game.objects.get(pk=game.id)
        engine = EngineGame.from_position(stored.position)
        apply_move(game.id, seat, simple_action(engine.view(seat)), stored.version)
    if phase == "play":
        stored = Game.objects.get(pk=game.id)
        apply_move(game.id, "W", {"type": "draw"}, stored.version)
    return Game.objects.get(pk=game.id)


def test_back_before_the_computer_moved_the_seat_is_the_friends_at_once(friends, settings):
    game = west_to_play_with(friends[0], "draw")
    touch_presence(game.id, "W", "west", first=True)
    drop_presence("west")
    settings.FOOT_AWAY_GRACE_SECONDS = 0
    plan = plan_bot_move(game.id)
    assert plan is not None and plan.seat == "W" and plan.stand_in  # away past the grace: the computer plays West
    touch_presence(game.id, "W", "west-again", first=True)
    assert plan_bot_move(game.id) is None  # back before it moved: West's own turn


def test_back_after_the_computer_moved_it_finishes_the_turn_then_gives_the_seat_back(friends, settings):
    game = west_to_play_with(friends[0], "play")  # the computer drew for West ...
    after_stand_in_move(game.id, "W", turn_goes_on=True)
    touch_presence(game.id, "W", "west-again", first=True)  # ... and West came back
    plan = plan_bot_move(game.id)
    assert plan is not None and plan.seat == "W" and plan.stand_in, "the computer finishes West's turn (R24)"
    assert presence_of(game.id)["stand_ins"] == ["W"]
    engine = EngineGame.from_position(Game.objects.get(pk=game.id).position)
    result = apply_move(game.id, "W", simple_action(engine.view("W")), Game.objects.get(pk=game.id).version)
    turn_over = any(event["type"] == "turn" for event in result.parts["*"]["events"])
    if turn_over:
        after_stand_in_move(game.id, "W", turn_goes_on=False)
        assert not StandIn.objects.filter(game_id=game.id).exists()
        assert presence_of(game.id)["stand_ins"] == []
    else:  # it melded: its turn goes on, still the computer's
        still = plan_bot_move(game.id)
        assert still is not None and still.stand_in


def test_a_stand_in_left_from_an_earlier_turn_does_not_take_a_new_turn(friends):
    game = west_to_play_with(friends[0], "draw")
    StandIn.objects.create(game_id=game.id, seat="W")
    touch_presence(game.id, "W", "west", first=True)
    assert plan_bot_move(game.id) is None
    assert not StandIn.objects.filter(game_id=game.id).exists()


@pytest.mark.asyncio
async def test_the_returning_friend_is_told_the_moves_made_while_away(friends, monkeypatch, settings):
    """The recap starts at the first move made while West was away. Only the test moves: the
    grace is longer than the test, so the computer never stands in for West or for South (whose
    host never connected) — under load it otherwise could, before the reconnect or the move."""
    game, _host_cookie, friend_cookie = friends
    settings.FOOT_AWAY_GRACE_SECONDS = 600
    monkeypatch.setattr(recap_module, "RECAP_AFTER_SECONDS", 0.3)
    west = communicator(game.id, friend_cookie)
    await west.connect()
    assert "recap" not in await receive(west, "state")  # never away: no recap
    await west.disconnect()
    await asyncio.sleep(0.4)  # away longer than RECAP_AFTER_SECONDS (a lower bound: load only adds)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    engine = EngineGame.from_position(stored.position)
    result = await database_sync_to_async(apply_move)(game.id, "S", simple_action(engine.view("S")), stored.version)
    back = communicator(game.id, friend_cookie)
    await back.connect()
    state = await receive(back, "state")
    assert state["seat"] == "W"
    assert state["recap"] == {
        "from": result.version,
        "v": result.version,
        "earlier": 0,
        "moves": [{"v": result.version, "events": result.parts["W"]["events"]}],
    }
    await back.send_json_to({"type": "sync"})
    assert "recap" not in await receive(back, "state")  # told once
    await back.disconnect()


@pytest.mark.asyncio
async def test_a_second_tab_of_a_seat_is_told_so_and_nothing_else_changes(friends):
    game, host_cookie, _friend_cookie = friends
    first, second = communicator(game.id, host_cookie), communicator(game.id, host_cookie)
    await first.connect()
    assert (await receive(first, "state"))["seat"] == "S"
    await second.connect()
    state = await receive(second, "state")
    notice = await receive(second, "notice")
    assert state["seat"] == "S" and notice["code"] == "seat_open_elsewhere" and "another tab" in notice["message"]
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert stored.version == 0 and stored.seats == game.seats
    await second.disconnect()
    presence = await receive(first, "presence")
    while presence["seats"]["S"] != "connected" or "W" not in presence["seats"]:
        presence = await receive(first, "presence")
    assert presence["seats"]["S"] == "connected" and presence["deadlines"].get("S") is None
    await first.disconnect()
