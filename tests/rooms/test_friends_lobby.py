"""A lobby people gather in (issue 15, item 2): the state says who hosts and who sits where,
seats change over the socket (refused clearly when taken, bad, or after the start, changing
nothing), everyone's socket hears each change, and the join page says why a full or started
game or an unknown code cannot be joined."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import Game, Presence
from games.rooms.creation import create_game, join_game, start_friends_game
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixtures)
from testsupport.sockets import communicator, receive, receive_where, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby():
    host, friend, stranger = Player.objects.create(nickname="Alice"), Player.objects.create(), Player.objects.create()
    game, _ = create_game(host, "friends")
    join_game(game.id, friend, "N")
    cookies = {
        name: session_cookie(player) for name, player in (("host", host), ("friend", friend), ("stranger", stranger))
    }
    return Game.objects.get(pk=game.id), cookies, host


@pytest.mark.asyncio
async def test_a_seat_change_is_seen_live_by_everyone_and_presence_follows_it(lobby):
    game, cookies, _host = lobby
    host, friend = communicator(game.id, cookies["host"]), communicator(game.id, cookies["friend"])
    await host.connect()
    await friend.connect()
    first = await receive(host, "state")
    assert first["status"] == "lobby" and first["host"] == "S" and first["code"] == game.invite_code
    assert first["seats"] == {"S": "you", "W": "empty", "N": "human", "E": "empty"}
    await receive(friend, "state")
    await friend.send_json_to({"type": "seat", "seat": "E"})
    moved = await receive_where(friend, "state", lambda s: s["seat"] == "E")
    assert moved["seats"] == {"S": "human", "W": "empty", "N": "empty", "E": "you"} and moved["host"] == "S"
    seen = await receive_where(host, "state", lambda s: s["seats"]["E"] == "human")
    assert seen["seats"]["N"] == "empty" and seen["names"] == {"S": "Alice", "E": None}
    presence = await receive(host, "presence")
    while presence["seats"]["E"] != "connected":
        presence = await receive(host, "presence")
    rows = await database_sync_to_async(
        lambda: sorted(Presence.objects.filter(game=game).values_list("seat", flat=True))
    )()
    assert rows == ["E", "S"]  # the friend's socket now counts for East, not North
    await host.disconnect()
    await friend.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "who, seat, code",
    [
        ("friend", "S", "seat_taken"),
        ("friend", "X", "bad_seat"),
        ("friend", None, "bad_seat"),
        ("stranger", "W", "not_seated"),  # someone watching joins with the join route (a Join button)
    ],
)
async def test_a_refused_seat_change_says_why_and_changes_nothing(lobby, who, seat, code):
    game, cookies, _host = lobby
    comm = communicator(game.id, cookies[who])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "seat", "seat": seat, "ref": "s1"})
    error = await receive(comm, "error")
    assert error["code"] == code and error["ref"] == "s1" and error["message"]
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert stored.seats == game.seats and stored.status == Game.LOBBY
    await comm.disconnect()


@pytest.mark.asyncio
async def test_no_seat_change_after_the_start(lobby):
    game, cookies, host = lobby
    await database_sync_to_async(start_friends_game)(game.id, host)
    comm = communicator(game.id, cookies["friend"])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "seat", "seat": "W"})
    error = await receive(comm, "error")
    assert error["code"] == "already_started" and "already started" in error["message"]
    stored = await database_sync_to_async(Game.objects.get)(pk=game.id)
    assert stored.seats["N"] == game.seats["N"] and stored.seats["W"] == {"bot": "normal"}
    await comm.disconnect()


def join_page(cookie_player, code):
    client = Client()
    if cookie_player is not None:
        session = client.session
        session["player_id"] = str(cookie_player.id)
        session.save()
    return client.get(f"/join/{code}/")


def test_the_join_page_says_why_an_unknown_code_a_full_or_a_started_game_cannot_be_joined(lobby):
    game, _cookies, host = lobby
    unknown = join_page(None, "ZZZZZZ")
    assert unknown.status_code == 404 and b"No table has this code" in unknown.content
    for seat in ("W", "E"):
        join_game(game.id, Player.objects.create(), seat)
    full = join_page(Player.objects.create(), game.invite_code)
    assert b"This table is full" in full.content and b"Join the table" not in full.content
    assert join_page(host, game.invite_code.lower()).content.count(b"Back to the table") == 1  # seated: go back
    start_friends_game(game.id, host)
    started = join_page(Player.objects.create(), game.invite_code)
    assert b"already started" in started.content and f"/g/{game.id}/".encode() in started.content


def test_joining_a_full_or_started_game_by_the_api_is_refused_and_changes_nothing(lobby):
    game, _cookies, host = lobby
    client = Client()
    token = client.get("/api/session").json()["csrf"]
    for seat in ("W", "E"):
        join_game(game.id, Player.objects.create(), seat)
    before = Game.objects.get(pk=game.id).seats
    full = client.post(f"/api/games/{game.id}/join", {}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert full.status_code == 409 and full.json()["code"] == "game_full"
    stale = client.post("/api/games/QQQQQQ/join", {}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert stale.status_code == 404 and stale.json()["code"] == "not_found"
    start_friends_game(game.id, host)
    started = client.post(f"/api/games/{game.id}/join", {}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert started.status_code == 409 and started.json()["code"] == "already_started"
    assert Game.objects.get(pk=game.id).seats == before


def test_the_code_box_joins_by_code_and_a_bad_code_is_refused_and_changes_nothing(lobby):
    """Issue 29 item 8: POST /api/join {"code"} (the home page's and /join/'s code box)."""
    game, _cookies, _host = lobby
    client = Client()
    token = client.get("/api/session").json()["csrf"]
    before = Game.objects.get(pk=game.id).seats
    for bad in ("QQQQ22", "", 42, "x" * 500):
        refused = client.post("/api/join", {"code": bad}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
        assert refused.status_code == 404 and refused.json()["code"] == "unknown_invite"
        assert "No table has this code." in refused.json()["message"]
    assert Game.objects.get(pk=game.id).seats == before
    joined = client.post(
        "/api/join", {"code": f" {game.invite_code.lower()} "}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert joined.status_code == 200 and joined.json()["id"] == str(game.id) and joined.json()["seat"]
    assert len(Game.objects.get(pk=game.id).seats) == len(before) + 1


def test_the_join_route_without_a_code_shows_the_code_box():
    page = Client().get("/join/")
    assert page.status_code == 200 and b'id="invite-code"' in page.content and b"invite code" in page.content
    assert Client().get("/join/?code=ab-c1/x").headers["Location"] == "/join/abc1x/"
    assert b'id="invite-code"' in Client().get("/").content  # and on the home page
