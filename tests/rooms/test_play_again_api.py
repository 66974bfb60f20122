"""Play again over HTTP (issue 15, item 6): POST /api/games/<id>/again at the end of a friends game
opens one new lobby with the caller in their old seat; every other player of the game who accepts
gets their old seat back; anything else is refused with a clear message and changes nothing."""

import pytest
from django.test import Client

from games.models import Game

from .test_api import browser, post

pytestmark = pytest.mark.django_db


def again(client, session, game_id):
    return post(client, f"/api/games/{game_id}/again", {}, session["csrf"])


@pytest.fixture
def table():
    """A friends game of a host (S) and a friend who chose East, started: (game id, host, friend)."""
    host = browser()
    friend = browser()
    lobby = post(host[0], "/api/games", {"mode": "friends", "level": "easy"}, host[1]["csrf"]).json()
    assert post(friend[0], f"/api/games/{lobby['id']}/join", {"seat": "E"}, friend[1]["csrf"]).status_code == 200
    assert post(host[0], f"/api/games/{lobby['id']}/start", {}, host[1]["csrf"]).status_code == 200
    return lobby["id"], host, friend


def finish(game_id):
    Game.objects.filter(pk=game_id).update(status=Game.FINISHED)


def test_play_again_opens_a_lobby_with_the_same_seats(table):
    game_id, (host, host_session), (friend, friend_session) = table
    finish(game_id)
    answer = again(friend, friend_session, game_id)  # the friend presses it first: they host the new table
    assert answer.status_code == 200
    lobby = answer.json()
    assert lobby["status"] == "lobby" and lobby["mode"] == "friends" and lobby["level"] == "easy"
    assert lobby["seat"] == "E" and lobby["host"] is True and lobby["code"] and lobby["id"] != game_id
    assert lobby["seats"] == {"S": "empty", "W": "empty", "N": "empty", "E": "you"}
    # The old host accepts the offer by joining the new lobby (no seat asked): South again.
    joined = post(host, f"/api/games/{lobby['id']}/join", {}, host_session["csrf"]).json()
    assert joined["seat"] == "S" and joined["host"] is False
    row = Game.objects.get(pk=lobby["id"])
    assert row.rematch_of_id is not None and str(row.rematch_of_id) == game_id
    assert set(row.seats) == {"S", "E"}


def test_a_second_play_again_joins_the_same_lobby(table):
    game_id, (host, host_session), (friend, friend_session) = table
    finish(game_id)
    first = again(host, host_session, game_id).json()
    second = again(friend, friend_session, game_id).json()
    assert second["id"] == first["id"] and second["seat"] == "E"  # the friend's old seat, in the one lobby
    assert again(host, host_session, game_id).json()["id"] == first["id"]  # pressing it again changes nothing
    assert Game.objects.filter(rematch_of_id=game_id).count() == 1
    assert Game.objects.get(pk=first["id"]).seats == {
        "S": {"player": host_session["player"]["id"]},
        "E": {"player": friend_session["player"]["id"]},
    }


def test_a_stranger_with_the_new_code_takes_a_free_seat_not_a_kept_one_already_taken(table):
    game_id, (host, host_session), (friend, friend_session) = table
    finish(game_id)
    lobby = again(host, host_session, game_id).json()
    stranger, stranger_session = browser()
    taken = post(stranger, f"/api/games/{lobby['code']}/join", {}, stranger_session["csrf"]).json()
    assert taken["seat"] == "N"  # the first free seat, as in any lobby
    assert post(friend, f"/api/games/{lobby['id']}/join", {}, friend_session["csrf"]).json()["seat"] == "E"


@pytest.mark.parametrize("status", [Game.PLAYING, Game.LOBBY])
def test_a_game_not_over_cannot_be_played_again(table, status):
    game_id, (host, host_session), _friend = table
    Game.objects.filter(pk=game_id).update(status=status)
    answer = again(host, host_session, game_id)
    assert answer.status_code == 409 and answer.json()["code"] == "not_finished"
    assert answer.json()["message"] == "The game is not over yet: play again once it has ended."
    assert Game.objects.count() == 1 and Game.objects.get(pk=game_id).status == status


def test_only_the_game_s_players_may_play_it_again(table):
    game_id, (host, _host_session), _friend = table
    finish(game_id)
    before = Game.objects.get(pk=game_id)
    stranger, stranger_session = browser()
    answer = again(stranger, stranger_session, game_id)
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated" and answer.json()["message"]
    fresh = Client(enforce_csrf_checks=True)
    token = fresh.get("/api/session").json()["csrf"]
    assert post(fresh, f"/api/games/{game_id}/again", {}, token).status_code == 403
    assert host.post(f"/api/games/{game_id}/again", {}, content_type="application/json").json()["code"] == "csrf_failed"
    assert Game.objects.count() == 1
    after = Game.objects.get(pk=game_id)
    assert (after.status, after.version, after.seats) == (before.status, before.version, before.seats)


def test_a_solo_game_or_no_game_is_refused():
    client, session = browser()
    solo = post(client, "/api/games", {"mode": "solo"}, session["csrf"]).json()
    finish(solo["id"])
    answer = again(client, session, solo["id"])
    assert answer.status_code == 409 and answer.json()["code"] == "not_friends"
    missing = again(client, session, "00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert client.get(f"/api/games/{solo['id']}/again").status_code == 405
    assert Game.objects.count() == 1


def test_the_new_lobby_counts_as_a_game_made(table, settings):
    game_id, (host, host_session), _friend = table
    finish(game_id)
    settings.FOOT_LIMIT_GAME_SESSION = "0/60"
    answer = again(host, host_session, game_id)
    assert answer.status_code == 429 and answer.json()["code"] == "rate_limited"
    assert not Game.objects.filter(rematch_of_id=game_id).exists()
