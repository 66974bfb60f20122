"""Play again over the websocket (issue 15, item 6): when a player of a finished friends game opens
the next lobby, every seated socket still on the old game's page is offered it (`play_again`, with
the new lobby's link and code); a spectator is not; a page that connects later finds the offer in
its `state`; accepting keeps the old seat."""

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from games.rooms.creation import join_game
from games.rooms.rematch import play_again
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .test_consumer import communicator, receive, session_cookie
from .test_consumer_friends import friends, quick_clocks  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connected(game_id, cookie):
    comm = communicator(game_id, cookie)
    assert (await comm.connect())[0]
    return comm, await receive(comm, "state")


@database_sync_to_async
def finish(game):
    Game.objects.filter(pk=game.id).update(status=Game.FINISHED)
    return Game.objects.get(pk=game.id)


@database_sync_to_async
def players_of(game):
    return {seat: Player.objects.get(pk=spec["player"]) for seat, spec in game.seats.items() if "player" in spec}


async def test_every_seated_page_is_offered_the_new_lobby_and_keeps_its_seat(friends):  # noqa: F811
    game, host_cookie, friend_cookie = friends
    game = await finish(game)
    people = await players_of(game)
    north, north_state = await connected(game.id, friend_cookie)
    assert north_state["status"] == "finished" and north_state["play_again"] is None  # nothing offered yet

    lobby = await database_sync_to_async(play_again)(game.id, people["S"])  # the host pressed Play again
    offer = await receive(north, "play_again")
    assert offer == {
        "type": "play_again",
        "game": str(lobby.id),
        "url": f"/g/{lobby.id}/",
        "code": lobby.invite_code,
        "by": "S",
    }
    # The friend accepts with one click: a join with no seat asked for, and North is theirs again.
    joined, seat = await database_sync_to_async(join_game)(offer["game"], people["N"])
    assert seat == "N" and joined.seats == {"S": {"player": str(people["S"].id)}, "N": {"player": str(people["N"].id)}}

    # A page of the old game that opens now still finds the offer in its state.
    south, south_state = await connected(game.id, host_cookie)
    assert south_state["play_again"] == {key: offer[key] for key in ("game", "url", "code", "by")}
    for comm in (north, south):
        await comm.disconnect()


async def test_a_spectator_is_not_offered_the_lobby(friends):  # noqa: F811
    game, _host_cookie, _friend_cookie = friends
    game = await finish(game)
    people = await players_of(game)
    stranger_cookie = await database_sync_to_async(lambda: session_cookie(Player.objects.create()))()
    watcher, state = await connected(game.id, stranger_cookie)
    assert "play_again" not in state
    await database_sync_to_async(play_again)(game.id, people["N"])
    messages = []
    while not await watcher.receive_nothing(timeout=0.3):
        messages.append((await watcher.receive_json_from())["type"])
    assert "play_again" not in messages
    await watcher.disconnect()
