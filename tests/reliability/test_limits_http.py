"""Rate limits on HTTP (issue 18, finding 7): the floods of the issue are stopped with 429 and
Retry-After, in the caller's language, and a family behind one address never meets a limit.

In process, with the default limits of server/settings.py unless a test says otherwise; every
Django test client comes from 127.0.0.1, one network. The cache is emptied after each test
(tests/conftest.py, fresh_rate_limits), and the limits' clock is held at the start of an hour,
so that no window ends while a test runs (a fixed window starts again at its end).
"""

import time

import pytest
from django.test import Client

from games.models import Game
from games.rooms.stored import load
from players import limits
from players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def still_clock(monkeypatch):
    start_of_hour = time.time() // 3600 * 3600 + 1
    monkeypatch.setattr(limits, "now", lambda: start_of_hour)


def browser(language: str = "en") -> tuple[Client, str]:
    """A client that opened the site: a session, a player and the CSRF token."""
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    answer = client.get("/api/session")
    assert answer.status_code == 200
    return client, answer.json()["csrf"]


def post(client, url, body, token):
    return client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)


def assert_limited(answer, code="rate_limited"):
    assert answer.status_code == 429
    seconds = int(answer["Retry-After"])
    assert 1 <= seconds <= 3600
    body = answer.json()
    assert body["code"] == code and body["retry_after"] == seconds
    assert str(seconds) in body["message"]
    return body


def test_a_flood_of_solo_games_from_one_session_is_stopped_at_the_session_limit():
    client, token = browser()
    answers = [post(client, "/api/games", {"mode": "solo", "level": "easy"}, token) for _ in range(40)]
    statuses = [answer.status_code for answer in answers]
    assert statuses[:20] == [201] * 20  # FOOT_LIMIT_GAME_SESSION: 20 a minute
    assert set(statuses[20:]) == {429}
    assert_limited(answers[-1])
    assert Game.objects.count() == 20  # a refused request made nothing


def test_lobbies_count_with_games_and_fresh_sessions_meet_the_network_limit(settings):
    settings.FOOT_LIMIT_GAME_SESSION, settings.FOOT_LIMIT_GAME_NETWORK = "3/60", "5/60"
    made = 0
    for _ in range(4):
        client, token = browser()
        for mode in ("friends", "solo"):
            if post(client, "/api/games", {"mode": mode, "level": "easy"}, token).status_code == 201:
                made += 1
    assert made == 5 and Game.objects.count() == 5
    client, token = browser()
    assert_limited(post(client, "/api/games", {"mode": "friends"}, token))


def test_a_flood_of_new_players_from_one_address_is_stopped():
    statuses = [Client().get("/api/session").status_code for _ in range(60)]
    assert statuses[:20] == [200] * 20  # FOOT_LIMIT_PLAYER_NETWORK: 20 a minute
    assert set(statuses[20:]) == {429}
    assert Player.objects.count() == 20


def test_guessing_invite_codes_is_stopped_and_even_a_right_code_then_waits():
    host, token = browser()
    lobby = post(host, "/api/games", {"mode": "friends"}, token).json()
    guesser = Client()  # no cookies at all: only the network limit can stop it
    guesses = [guesser.get(f"/api/games/ZZZZ{n:02d}") for n in range(80)]
    assert [g.status_code for g in guesses[:60]] == [404] * 60  # FOOT_LIMIT_JOIN_NETWORK: 60 a minute
    assert {g.status_code for g in guesses[60:]} == {429}
    assert_limited(Client().get(f"/api/games/{lobby['code']}"))
    assert host.get(f"/api/games/{lobby['id']}").status_code == 200  # by id: nothing to guess, not counted


def test_the_invite_page_answers_a_limited_caller_with_a_page_in_their_language(settings):
    settings.FOOT_LIMIT_JOIN_NETWORK = "2/60"
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    for _ in range(2):
        assert client.get("/join/ABCDEF/").status_code == 404
    page = client.get("/join/ABCDEF/")
    assert page.status_code == 429 and page["Content-Type"].startswith("text/html")
    assert 1 <= int(page["Retry-After"]) <= 60
    assert "Zu viele Anfragen: Bitte warte" in page.content.decode()


def test_joins_count_per_session(settings):
    settings.FOOT_LIMIT_JOIN_SESSION = "2/60"
    host, token = browser()
    lobby = post(host, "/api/games", {"mode": "friends"}, token).json()
    friend, friend_token = browser()
    for _ in range(2):
        assert post(friend, f"/api/games/{lobby['id']}/join", {"seat": "N"}, friend_token).status_code == 200
    assert_limited(post(friend, f"/api/games/{lobby['id']}/join", {"seat": "N"}, friend_token))


def test_nickname_changes_are_limited_on_the_api_and_the_form_in_bengali():
    client, token = browser("bn")
    answers = [post(client, "/api/nickname", {"nickname": f"Rani{n}"}, token) for n in range(6)]
    assert [a.status_code for a in answers[:5]] == [200] * 5  # FOOT_LIMIT_NICKNAME_SESSION: 5 a minute
    body = assert_limited(answers[5])
    assert "অনেক বেশি অনুরোধ" in body["message"]
    form = client.post("/leaderboard/nickname/", {"nickname": "Rani9", "csrfmiddlewaretoken": token})
    assert form.status_code == 429 and "অনেক বেশি অনুরোধ" in form.content.decode()
    assert Player.objects.get().nickname == "Rani4"


def test_a_family_behind_one_address_never_meets_a_limit():
    """Six people, one address, an evening: each opens the site on two devices, names themselves,
    plays solo games; one hosts a friends table, three join it by its code and its page."""
    people = [browser() for _ in range(6)] + [browser() for _ in range(6)]
    for number, (client, token) in enumerate(people):
        assert post(client, "/api/nickname", {"nickname": f"Family{number}"}, token).status_code == 200
        for _ in range(3):
            assert post(client, "/api/games", {"mode": "solo", "level": "easy"}, token).status_code == 201
    host, host_token = people[0]
    lobby = post(host, "/api/games", {"mode": "friends"}, host_token).json()
    for client, token in people[1:4]:
        assert client.get(f"/join/{lobby['code']}/").status_code == 200
        assert client.get(f"/api/games/{lobby['code']}").status_code == 200
        assert post(client, f"/api/games/{lobby['id']}/join", {}, token).status_code == 200
    still_a_lobby = load(lobby["id"])
    assert still_a_lobby is not None and still_a_lobby.status == Game.LOBBY
