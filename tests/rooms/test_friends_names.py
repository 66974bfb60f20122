"""Names at a friends table (issue 15, item 1): every socket is told each human seat's nickname
(None for a player without one; the page says "Friend"), in the state and in presence, and a
nickname with markup is refused and changes nothing."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import Game
from games.rooms.creation import create_game, join_game
from games.rooms.names import seat_names
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .test_consumer import communicator, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby():
    host = Player.objects.create(nickname="Alice")
    friend = Player.objects.create()
    game, _ = create_game(host, "friends")
    join_game(game.id, friend, "N")
    return Game.objects.get(pk=game.id), host, friend


@pytest.fixture
def cookies(lobby):
    _game, host, friend = lobby
    return session_cookie(host), session_cookie(friend)


@pytest.mark.asyncio
async def test_both_seats_are_told_each_others_names_in_state_and_presence(lobby, cookies):
    game = lobby[0]
    alice = communicator(game.id, cookies[0])
    friend_socket = communicator(game.id, cookies[1])
    await alice.connect()
    await friend_socket.connect()
    for socket, seat in ((alice, "S"), (friend_socket, "N")):
        state = await receive(socket, "state")
        assert state["seat"] == seat
        assert state["names"] == {"S": "Alice", "N": None}  # R5: seats are absolute; only people have names
        presence = await receive(socket, "presence")
        assert presence["names"] == {"S": "Alice", "N": None}
    await alice.disconnect()
    await friend_socket.disconnect()


def test_bots_and_empty_seats_have_no_name_and_a_banned_nickname_is_not_shown(lobby):
    game, host, _friend = lobby
    game.seats = {**game.seats, "W": {"bot": "easy"}}
    assert seat_names(game) == {"S": "Alice", "N": None}
    Player.objects.filter(pk=host.pk).update(banned=True)
    assert seat_names(game) == {"S": None, "N": None}


@pytest.mark.parametrize("markup", ["<b>Bob</b>", "Bob<script>", "<img src=x onerror=alert(1)>"])
def test_a_nickname_with_markup_is_refused_and_nothing_changes(lobby, markup):
    game, _host, friend = lobby
    client = Client()
    session = client.session
    session["player_id"] = str(friend.id)
    session.save()
    token = client.get("/api/session").json()["csrf"]
    answer = client.post("/api/nickname", {"nickname": markup}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 400 and answer.json()["message"]
    friend.refresh_from_db()
    assert friend.nickname is None
    assert seat_names(Game.objects.get(pk=game.id)) == {"S": "Alice", "N": None}


def client_of(player) -> tuple[Client, str]:
    client = Client()
    session = client.session
    session["player_id"] = str(player.id)
    session.save()
    return client, client.get("/api/session").json()["csrf"]


@pytest.mark.asyncio
async def test_a_nickname_chosen_in_the_lobby_reaches_the_others_page_at_once(lobby, cookies):
    """Issue 29 item 8: the name box saves through POST /api/nickname (the daily's rules) and the
    server has every socket of the player's open tables fetch a fresh state with the name."""
    game, _host, friend = lobby
    alice = communicator(game.id, cookies[0])
    await alice.connect()
    assert (await receive(alice, "state"))["names"] == {"S": "Alice", "N": None}
    client, token = await database_sync_to_async(client_of)(friend)
    answer = await database_sync_to_async(client.post)(
        "/api/nickname", {"nickname": "Zoë"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert answer.status_code == 200
    state = await receive(alice, "state")  # no reload, no move: pushed
    assert state["names"] == {"S": "Alice", "N": "Zoë"}
    await alice.disconnect()
