"""Friends games over the consumer: presence, an absent friend played by a bot after the grace
period and given back on return, and the next-deal wait that times out."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.engine import Game as EngineGame
from games.models import Game
from games.rooms.creation import create_game, join_game, start_friends_game
from games.rooms.moves import apply_move
from games.rooms.seat_views import PUBLIC
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .simple_player import simple_action
from .test_consumer import Follower, communicator, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def quick_clocks(settings):
    settings.FOOT_BOT_FACTORY = "tests.rooms.simple_player:make_bot"
    settings.FOOT_BOT_POOL = "thread"
    settings.FOOT_BOT_DELAY = 0
    settings.FOOT_AWAY_GRACE_SECONDS = 0.6
    settings.FOOT_HEARTBEAT_SECONDS = 0.2
    settings.FOOT_NEXT_DEAL_TIMEOUT = 0.6
    yield
    from games.rooms import bot_runner

    bot_runner.shutdown_pool()


@pytest.fixture
def friends():
    host, friend = Player.objects.create(), Player.objects.create()
    game, _ = create_game(host, "friends")
    join_game(game.id, friend, "N")
    start_friends_game(game.id, host)
    return Game.objects.get(pk=game.id), session_cookie(host), session_cookie(friend)


async def play_my_turn(me: Follower, ref: str):
    action = simple_action(me.opened_view())
    await me.comm.send_json_to({"type": "action", "action": action, "v": me.version, "ref": ref})
    while True:
        message = await me.next_patch()
        if message.get("ref") == ref:
            return


async def test_an_absent_friend_is_played_by_a_bot_until_they_come_back(friends):
    game, host_cookie, friend_cookie = friends
    south = Follower(communicator(game.id, host_cookie))
    await south.comm.connect()
    state = await south.start()
    assert state["seats"] == {"S": "you", "W": "bot", "N": "human", "E": "bot"} and state["code"]
    await play_my_turn(south, "s1")
    await play_my_turn(south, "s2")
    await asyncio.wait_for(south.until_turn("S"), 10)  # W, then the absent N (by a bot), then E
    assert south.version == 8
    # A heartbeat saw N gone past the grace and told the room.
    assert any(seats["N"] == "away" and seats["S"] == "connected" for seats in south.presence)

    north = Follower(communicator(game.id, friend_cookie))
    await north.comm.connect()
    assert (await north.start())["seat"] == "N"
    await play_my_turn(south, "s3")
    await play_my_turn(south, "s4")
    await asyncio.wait_for(north.until_turn("N"), 10)
    await asyncio.sleep(1.0)  # longer than the grace: the returned friend's seat is theirs again
    assert (await database_sync_to_async(Game.objects.get)(pk=game.id)).version == north.version == 12
    await play_my_turn(north, "n1")
    assert north.version == 13
    await south.comm.disconnect()
    await north.comm.disconnect()


def play_until_deal_end(game_id) -> None:
    while True:
        game = Game.objects.get(pk=game_id)
        engine_game = EngineGame.from_position(game.position)
        seat = engine_game.turn
        assert seat is not None, "the game ended before a deal did"
        result = apply_move(game_id, seat, simple_action(engine_game.view(seat)), game.version)
        if any(event["type"] == "deal_end" for event in result.parts[PUBLIC]["events"]):
            return


async def test_the_bots_stop_waiting_for_next_deal_after_the_timeout(friends):
    game, host_cookie, _friend_cookie = friends
    await database_sync_to_async(play_until_deal_end)(game.id)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert sorted(stored.awaiting) == ["N", "S"]
    assert EngineGame.from_position(stored.position).turn == "W"  # R8: deal 2 opens left of dealer S
    south = Follower(communicator(game.id, host_cookie))
    await south.comm.connect()
    state = await south.start()
    assert sorted(state["awaiting"]) == ["N", "S"]
    await south.comm.send_json_to({"type": "next_deal"})
    await asyncio.sleep(0.3)
    assert (await database_sync_to_async(Game.objects.get)(pk=game.id)).version == stored.version  # N not seen yet
    await asyncio.wait_for(south.until_turn("N"), 10)  # after the timeout West plays, then North's bot
    assert south.opened_version() > stored.version
    await south.comm.disconnect()
