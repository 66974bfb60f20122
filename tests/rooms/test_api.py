"""The JSON API: the anonymous session, creating, joining, starting and reading games, CSRF, errors."""

import pytest
from django.test import Client

from games.models import Game
from players.models import Player

pytestmark = pytest.mark.django_db


def browser() -> tuple[Client, dict]:
    """A client that opened the site: a player, a session and the CSRF token."""
    client = Client(enforce_csrf_checks=True)
    answer = client.get("/api/session")
    assert answer.status_code == 200
    return client, answer.json()


def post(client, url, body, token):
    return client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)


def test_the_session_creates_one_player_and_gives_a_csrf_token():
    client, body = browser()
    assert body["player"]["nickname"] is None and body["csrf"]
    assert client.get("/api/session").json()["player"]["id"] == body["player"]["id"]
    assert Player.objects.count() == 1


def test_reading_a_game_makes_no_player():
    client = Client()
    assert client.get("/api/games/00000000-0000-0000-0000-000000000000").status_code == 404
    assert Player.objects.count() == 0


def test_a_solo_game_is_created_for_the_caller_in_south():
    client, session = browser()
    answer = post(client, "/api/games", {"mode": "solo", "level": "easy"}, session["csrf"])
    assert answer.status_code == 201
    body = answer.json()
    assert body["url"] == f"/g/{body['id']}/" and body["ws"] == f"/ws/game/{body['id']}/"
    assert body["seat"] == "S" and body["ranked"] is False and body["code"] is None
    detail = client.get(f"/api/games/{body['id']}").json()
    assert detail["status"] == "playing" and detail["seats"] == {"S": "you", "W": "bot", "N": "bot", "E": "bot"}
    assert Client().get(f"/api/games/{body['id']}").json()["seat"] is None  # a stranger is a spectator


def test_a_post_without_the_csrf_token_is_refused_as_json():
    client, _session = browser()
    answer = client.post("/api/games", {"mode": "solo"}, content_type="application/json")
    assert answer.status_code == 403 and answer.json()["code"] == "csrf_failed"
    assert not Game.objects.exists()


def test_bad_requests_answer_codes_and_messages():
    client, session = browser()
    for body, code in [
        ({"mode": "chess"}, "bad_mode"),
        ({"mode": "solo", "level": "wizard"}, "bad_level"),
        ({"mode": "solo", "level": 3}, "bad_level"),
    ]:
        answer = post(client, "/api/games", body, session["csrf"])
        assert answer.status_code == 400 and answer.json()["code"] == code and answer.json()["message"]
    for body in ("{nope", "[" * 20000 + "]" * 20000):
        answer = client.post("/api/games", body, content_type="application/json", HTTP_X_CSRFTOKEN=session["csrf"])
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert client.put("/api/games").status_code == 405


def test_the_daily_is_resumed_while_unfinished():
    client, session = browser()
    first = post(client, "/api/games", {"mode": "daily"}, session["csrf"])
    assert first.status_code == 201 and first.json()["ranked"] is True
    again = post(client, "/api/games", {"mode": "daily"}, session["csrf"])
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    Game.objects.filter(pk=first.json()["id"]).update(status=Game.FINISHED)
    third = post(client, "/api/games", {"mode": "daily"}, session["csrf"])
    assert third.status_code == 201 and third.json()["ranked"] is False


def test_the_home_page_says_when_a_daily_try_would_not_count():
    """Issue 16 (the end of a daily): once today's daily is finished, another is unranked, and the
    home page's Daily card says so; while one is under way its button says Continue instead."""
    client, session = browser()
    played = "Another try is for practice: it does not count."
    assert played not in client.get("/").content.decode()
    first = post(client, "/api/games", {"mode": "daily"}, session["csrf"]).json()
    home = client.get("/").content.decode()
    assert "Continue today’s game" in home and played not in home
    Game.objects.filter(pk=first["id"]).update(status=Game.FINISHED)
    home = client.get("/").content.decode()
    assert played in home and "Play today’s game" in home and 'href="/leaderboard/">See today' in home
    post(client, "/api/games", {"mode": "daily"}, session["csrf"])  # a practice try under way: Continue
    home = client.get("/").content.decode()
    assert "Continue today’s game" in home and played not in home


def test_friends_join_by_id_and_the_host_starts():
    host, host_session = browser()
    friend, friend_session = browser()
    made = post(host, "/api/games", {"mode": "friends"}, host_session["csrf"]).json()
    assert made["seat"] == "S" and len(made["code"]) == 6
    joined = post(friend, f"/api/games/{made['id']}/join", {"seat": "E"}, friend_session["csrf"])
    assert joined.status_code == 200 and joined.json()["seat"] == "E"
    refused = post(friend, f"/api/games/{made['id']}/start", {}, friend_session["csrf"])
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    started = post(host, f"/api/games/{made['id']}/start", {}, host_session["csrf"])
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert started.json()["seats"] == {"S": "you", "W": "bot", "N": "bot", "E": "human"}
    again = post(host, f"/api/games/{made['id']}/start", {}, host_session["csrf"])
    assert again.status_code == 409 and again.json()["code"] == "already_started"


def test_joining_a_solo_game_is_refused():
    owner, owner_session = browser()
    other, other_session = browser()
    made = post(owner, "/api/games", {"mode": "solo"}, owner_session["csrf"]).json()
    answer = post(other, f"/api/games/{made['id']}/join", {}, other_session["csrf"])
    assert answer.status_code == 409 and answer.json()["code"] == "not_friends"
    missing = post(other, "/api/games/not-a-game/join", {}, other_session["csrf"])
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_a_banned_player_cannot_make_games():
    client, session = browser()
    Player.objects.filter(pk=session["player"]["id"]).update(banned=True)
    answer = post(client, "/api/games", {"mode": "solo"}, session["csrf"])
    assert answer.status_code == 403 and answer.json()["code"] == "banned"


def test_a_friend_can_join_with_the_invite_code_in_place_of_the_id():
    host, host_session = browser()
    friend, friend_session = browser()
    made = post(host, "/api/games", {"mode": "friends"}, host_session["csrf"]).json()
    joined = post(friend, f"/api/games/{made['code'].lower()}/join", {}, friend_session["csrf"])
    assert joined.status_code == 200 and joined.json()["id"] == made["id"] and joined.json()["seat"] == "N"
    assert friend.get(f"/api/games/{made['code']}").json()["seat"] == "N"


def test_http_errors_come_in_the_requests_language(german_catalogue):
    client, session = browser()
    answer = client.post(
        "/api/games",
        {"mode": "chess"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=session["csrf"],
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert answer.json() == {"code": "bad_mode", "message": "Unbekannte Spielart."}
