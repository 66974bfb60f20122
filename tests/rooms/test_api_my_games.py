"""GET /api/games: the caller's own games (issue 15, item 4) — private to the caller, unfinished
first and newest first, bounded, rate limited, and a fixed number of queries however many."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from players.models import Player

from .test_api import browser, post

pytestmark = pytest.mark.django_db

DEAL_SCORE = {
    "NS": {"melded": 300, "cards_left": -20, "red_threes": 100, "piles": 800, "going_out": 100, "total": 1280},
    "EW": {"melded": 200, "cards_left": -50, "red_threes": 0, "piles": 500, "going_out": 0, "total": 650},
}


def my_games(client) -> list[dict]:
    answer = client.get("/api/games")
    assert answer.status_code == 200, answer.content
    return answer.json()["games"]


def player_of(session: dict) -> Player:
    return Player.objects.get(pk=session["player"]["id"])


def new_game(client, session, mode="solo") -> dict:
    answer = post(client, "/api/games", {"mode": mode, "level": "easy"}, session["csrf"])
    assert answer.status_code == 201
    return answer.json()


def dated(game_id, minutes_ago: int, **fields) -> None:
    """Sets the row's last change (auto_now only moves on save) and any other field."""
    when = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    Game.objects.filter(pk=game_id).update(updated=when, **fields)


def test_a_new_browser_has_no_games_and_gets_no_player():
    assert my_games(Client()) == []
    assert not Player.objects.exists()


def test_the_list_is_private_to_the_caller():
    alice, alice_session = browser()
    bob, bob_session = browser()
    solo = new_game(alice, alice_session)
    lobby = new_game(alice, alice_session, "friends")
    assert {game["id"] for game in my_games(alice)} == {solo["id"], lobby["id"]}
    assert my_games(bob) == []  # another session sees none of them
    assert my_games(Client()) == []
    own = new_game(bob, bob_session)
    assert [game["id"] for game in my_games(bob)] == [own["id"]]
    assert own["id"] not in {game["id"] for game in my_games(alice)}


def test_a_friend_who_joined_sees_the_game_in_their_seat():
    host, host_session = browser()
    friend, friend_session = browser()
    lobby = new_game(host, host_session, "friends")
    assert post(friend, f"/api/games/{lobby['id']}/join", {"seat": "E"}, friend_session["csrf"]).status_code == 200
    [seen] = my_games(friend)
    assert seen["id"] == lobby["id"] and seen["seat"] == "E" and seen["team"] == "EW"
    assert seen["status"] == "lobby" and seen["mode"] == "friends" and seen["host"] is False
    assert seen["deal"] is None and seen["code"] == lobby["code"]
    assert seen["seats"] == {"S": "human", "W": "empty", "N": "empty", "E": "you"}


def test_an_entry_says_mode_deal_scores_and_when_it_was_last_played():
    """R55: the scores are the deals' totals added up; R56: a finished game names its winner."""
    client, session = browser()
    game = new_game(client, session)
    position = Game.objects.get(pk=game["id"]).position
    assert position is not None  # a started game has one
    dated(game["id"], 120, position={**position, "deal": 3, "scores": [DEAL_SCORE, DEAL_SCORE]})
    [entry] = my_games(client)
    assert entry["url"] == game["url"] and entry["mode"] == "solo" and entry["status"] == "playing"
    assert entry["deal"] == 3 and entry["deals"] == 4 and entry["level"] == "easy"
    assert entry["scores"] == {"NS": 2560, "EW": 1300} and entry["team"] == "NS" and entry["winner"] is None
    updated = datetime.datetime.fromisoformat(entry["updated"])
    assert abs((timezone.now() - updated) - datetime.timedelta(minutes=120)) < datetime.timedelta(seconds=5)
    Game.objects.filter(pk=game["id"]).update(status=Game.FINISHED)
    assert my_games(client)[0]["winner"] == "NS"
    fresh = new_game(client, session)
    assert my_games(client)[0]["scores"] == {"NS": 0, "EW": 0} and my_games(client)[0]["id"] == fresh["id"]


def test_unfinished_games_come_first_newest_first():
    client, session = browser()
    old_solo, lobby, finished_new, finished_old, new_solo = (
        new_game(client, session, mode)["id"] for mode in ("solo", "friends", "solo", "solo", "solo")
    )
    dated(old_solo, 300)
    dated(lobby, 200)
    dated(new_solo, 100)
    dated(finished_new, 1, status=Game.FINISHED)  # the newest of all, but finished
    dated(finished_old, 400, status=Game.FINISHED)
    assert [game["id"] for game in my_games(client)] == [new_solo, lobby, old_solo, finished_new, finished_old]


def test_the_list_is_bounded(settings):
    settings.FOOT_MY_GAMES_UNFINISHED = 3
    settings.FOOT_MY_GAMES_FINISHED = 2
    settings.FOOT_LIMIT_GAME_SESSION = ""
    client, session = browser()
    ids = [new_game(client, session)["id"] for _ in range(8)]
    for index, game_id in enumerate(ids):
        dated(game_id, index, status=Game.FINISHED if index % 2 else Game.PLAYING)
    listed = [game["id"] for game in my_games(client)]
    assert listed == [ids[0], ids[2], ids[4], ids[1], ids[3]]  # the newest three unfinished, two finished


def test_the_queries_do_not_grow_with_the_games(settings, django_assert_max_num_queries):
    settings.FOOT_LIMIT_GAME_SESSION = ""
    client, session = browser()
    new_game(client, session)
    with django_assert_max_num_queries(4):  # session, player, the unfinished, the finished
        assert len(my_games(client)) == 1
    for _ in range(12):
        new_game(client, session)
    with django_assert_max_num_queries(4):
        assert len(my_games(client)) == 13


def test_looking_is_rate_limited_per_session(settings):
    settings.FOOT_LIMIT_LIST_SESSION = "3/60"
    client, _session = browser()
    for _ in range(3):
        my_games(client)
    refused = client.get("/api/games")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert refused.json()["message"] and int(refused["Retry-After"]) >= 1
    other, _ = browser()
    assert other.get("/api/games").status_code == 200  # another session is counted apart


def test_other_methods_are_refused_and_change_nothing():
    client, session = browser()
    new_game(client, session)
    for method in (client.put, client.delete, client.patch):
        answer = method("/api/games", HTTP_X_CSRFTOKEN=session["csrf"])
        assert answer.status_code == 405 and answer.json()["code"] == "method_not_allowed"
    assert Game.objects.count() == 1
    assert len(my_games(client)) == 1
    # A query string asks for nothing more: still only the caller's own games.
    assert [game["id"] for game in client.get("/api/games?player=all&limit=1000").json()["games"]] == [
        game["id"] for game in my_games(client)
    ]


def test_a_lesson_started_again_takes_the_place_of_the_one_before():
    """Issue 29: after "Start this part again" Home listed two identical "Learn to play" rows."""
    client, session = browser()
    first = post(client, "/api/games", {"mode": "lesson"}, session["csrf"]).json()
    dated(first["id"], 5)
    again = post(client, "/api/games", {"mode": "lesson"}, session["csrf"]).json()
    solo = new_game(client, session)
    listed = [(game["id"], game["mode"]) for game in my_games(client)]
    assert listed == [(solo["id"], "solo"), (again["id"], "lesson")]
