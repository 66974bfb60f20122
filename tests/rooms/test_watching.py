"""Watching (issue 15, item 5): someone without a seat gets the public view (no hand, no hidden
card) and may not act; a daily game cannot be watched before its date is over, neither by its
page nor by its socket (refused with a clear message, nothing else changes), and can be after."""

import datetime

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.engine import Game as EngineGame
from games.models import Game
from games.rooms.creation import create_game, join_game, start_friends_game, utc_today
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .test_consumer import close_code, communicator, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people():
    host, friend, watcher = Player.objects.create(nickname="Alice"), Player.objects.create(), Player.objects.create()
    return host, friend, watcher, {p.pk: session_cookie(p) for p in (host, friend, watcher)}


@pytest.fixture
def friends_game(people):
    host, friend, _watcher, _cookies = people
    game, _ = create_game(host, "friends")
    join_game(game.id, friend, "N")
    start_friends_game(game.id, host)
    return Game.objects.get(pk=game.id)


def daily_of(player, date) -> Game:
    game, _ = create_game(player, "solo", "easy")
    Game.objects.filter(pk=game.id).update(mode=Game.DAILY, daily_date=date, ranked=True)
    return Game.objects.get(pk=game.id)


@pytest.mark.asyncio
async def test_a_watcher_gets_the_public_view_with_no_hidden_card_and_cannot_act(people, friends_game):
    _host, _friend, watcher, cookies = people
    comm = communicator(friends_game.id, cookies[watcher.pk])
    await comm.connect()
    state = await receive(comm, "state")
    assert state["seat"] is None and "hand" not in state["view"] and state["code"] is None
    assert state["seats"] == {"S": "human", "W": "bot", "N": "human", "E": "bot"}
    assert state["names"] == {"S": "Alice", "N": None}
    engine = EngineGame.from_position((await database_sync_to_async(Game.objects.get)(pk=friends_game.id)).position)
    assert state["view"] == engine.public_view()  # R10, R11: counts of hands and feet, never a card of them
    assert all(isinstance(seat["cards"], int) for seat in state["view"]["seats"].values())
    await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "w"})
    error = await receive(comm, "error")
    assert error["code"] == "not_seated" and "watching" in error["message"]
    assert (await database_sync_to_async(Game.objects.get)(pk=friends_game.id)).version == 0
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_daily_cannot_be_watched_before_its_date_is_over(people):
    host, _friend, watcher, cookies = people
    daily = await database_sync_to_async(daily_of)(host, utc_today())
    comm = communicator(daily.id, cookies[watcher.pk])
    await comm.connect()
    error = await receive(comm, "error")
    assert error["code"] == "watch_daily_later" and "once its date is over" in error["message"]
    assert await close_code(comm) == 4403
    player = communicator(daily.id, cookies[host.pk])  # its player plays on
    await player.connect()
    assert (await receive(player, "state"))["seat"] == "S"
    await player.disconnect()
    assert (await database_sync_to_async(Game.objects.get)(pk=daily.id)).version == 0


@pytest.mark.asyncio
async def test_a_banned_player_is_told_why_their_table_is_refused(people, friends_game):
    """A banned player's socket is refused (4403) with the reason first, so the table says why it
    stays empty instead of "Connecting…" (issue 16: a banned player reloading their daily)."""
    host, _friend, _watcher, cookies = people
    await database_sync_to_async(Player.objects.filter(pk=host.pk).update)(banned=True)
    comm = communicator(friends_game.id, cookies[host.pk])
    await comm.connect()
    error = await receive(comm, "error")
    assert error["code"] == "banned" and error["message"] == "This player may not play."
    assert await close_code(comm) == 4403
    assert (await database_sync_to_async(Game.objects.get)(pk=friends_game.id)).version == 0  # nothing changed


def test_a_dailys_page_refuses_a_watcher_until_its_date_is_over_and_serves_its_player(people):
    host, _friend, watcher, _cookies = people
    today = daily_of(host, utc_today())
    old = daily_of(host, utc_today() - datetime.timedelta(days=2))

    def page_for(player, game):
        client = Client()
        session = client.session
        session["player_id"] = str(player.id)
        session.save()
        return client.get(f"/g/{game.id}/")

    refused = page_for(watcher, today)
    assert refused.status_code == 403 and b"cannot be watched yet" in refused.content
    assert page_for(host, today).status_code == 200
    assert page_for(watcher, old).status_code == 200


@pytest.mark.asyncio
async def test_a_daily_whose_date_is_over_can_be_watched(people):
    host, _friend, watcher, cookies = people
    old = await database_sync_to_async(daily_of)(host, utc_today() - datetime.timedelta(days=2))
    comm = communicator(old.id, cookies[watcher.pk])
    await comm.connect()
    state = await receive(comm, "state")
    assert state["seat"] is None and state["mode"] == "daily" and "hand" not in state["view"]
    await comm.disconnect()
