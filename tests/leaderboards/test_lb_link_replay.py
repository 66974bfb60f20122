"""The personal link carries a player to another browser; ranked dailies can be watched once over."""

import datetime

import pytest
from django.test import Client

from leaderboards import daily
from players.models import Player

pytestmark = pytest.mark.django_db
CLOSED_DATE = daily.today() - datetime.timedelta(days=2)  # over, and past its grace (games.daily_clock)


def test_the_personal_link_binds_another_browser_to_the_same_player(client):
    client.post("/api/nickname", {"nickname": "Anna"}, content_type="application/json")
    anna = Player.objects.get(pk=client.session["player_id"])
    url = client.post("/api/link").json()["url"]
    assert url.startswith("/me/")
    token = url.split("/")[2]
    assert token not in (Player.objects.get(pk=anna.pk).link_token or "")  # only its digest is stored
    other_device = Client()
    other_device.get("/api/session")
    assert other_device.get(url).status_code == 200  # "Continue as Anna?"
    assert other_device.post(url).status_code == 200
    assert other_device.session["player_id"] == str(anna.pk)


def test_a_new_link_turns_the_old_one_off_and_unknown_links_fail(client):
    first = client.post("/api/link").json()["url"]
    second = client.post("/api/link").json()["url"]
    assert Client().get(first).status_code == 404
    assert Client().get(second).status_code == 200
    assert Client().get("/me/not-a-token/").status_code == 404


def test_a_ranked_daily_can_be_watched_once_its_date_is_over(client, make_player, finished_daily):
    player = make_player("Anna")
    game = finished_daily(player, CLOSED_DATE)
    daily.on_game_finished(game)
    answer = client.get(f"/api/replay/{game.pk}", {"count": 50}).json()
    assert answer["total_steps"] == game.moves.count() + 1 and len(answer["steps"]) == 50
    assert answer["next"] == 50 and answer["nickname"] == "Anna"
    last = client.get(f"/api/replay/{game.pk}", {"start": answer["total_steps"] - 1}).json()
    final_view = last["steps"][-1]["view"]
    assert final_view["phase"] == "over" and last["next"] is None
    assert "hand" not in final_view  # public views only: nobody's cards
    assert final_view["scores"]["totals"]["NS"] == answer["score"]
    page = client.get(f"/leaderboard/replay/{game.pk}/", {"step": 3})
    assert page.status_code == 200 and "Move 3 of" in page.content.decode()


def test_todays_hidden_or_unranked_games_cannot_be_watched(client, make_player, finished_daily):
    from django.contrib.auth.models import User

    from leaderboards import moderation

    today_game = finished_daily(make_player("Anna"), daily.today())
    daily.on_game_finished(today_game)
    unranked = finished_daily(make_player("Bob"), CLOSED_DATE, ranked=False)
    hidden = finished_daily(make_player("Cleo"), CLOSED_DATE)
    hidden_entry = daily.on_game_finished(hidden)
    assert hidden_entry is not None
    moderation.hide_entry(hidden_entry, User.objects.create_user("m"), "test")
    for game in (today_game, unranked, hidden):
        assert client.get(f"/api/replay/{game.pk}").status_code == 404
        assert client.get(f"/leaderboard/replay/{game.pk}/").status_code == 404


def test_a_window_of_steps_equals_the_same_steps_of_the_whole_replay(make_player, finished_daily):
    from games.replay import replay_steps, step_count

    game = finished_daily(make_player("Anna"), CLOSED_DATE)
    whole = replay_steps(game)
    assert len(whole) == step_count(game) and [s["seq"] for s in whole] == list(range(len(whole)))
    assert replay_steps(game, 10, 15) == whole[10:15]
    assert replay_steps(game, 0, 1) == whole[:1]
