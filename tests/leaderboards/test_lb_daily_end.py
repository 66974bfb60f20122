"""The end of a ranked daily for its player (GET /api/daily/result/<game>): the score, the par, and a
rank only when it is true — the player is on the board (R57, R59: the entry is the server's own
result). A player without a nickname is asked for one; a banned player is told their results are
hidden and is not offered the nickname form, in the dialog nor on the board page.
"""

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboards import daily, moderation
from players.models import Player

pytestmark = pytest.mark.django_db
TODAY = daily.today()


@pytest.fixture
def me(client):
    client.get("/api/session")
    return Player.objects.get(pk=client.session["player_id"])


def result(client, entry):
    return client.get(f"/api/daily/result/{entry.game_id}")


def test_a_player_without_a_nickname_gets_no_rank_until_they_choose_one(client, me, make_player, make_entry):
    make_entry(make_player("Anna"), TODAY, 5000)
    entry = make_entry(me, TODAY, 3000, 2000)
    answer = result(client, entry).json()
    # Not on the board: no rank is told (the board has one row, Anna's; "rank 2" would be a promise).
    assert answer["standing"] == "unnamed" and answer["rank"] is None and answer["nickname"] is None
    assert (answer["score"], answer["opponents_score"], answer["result"]) == (3000, 2000, "won")
    assert answer["board"] == f"/leaderboard/{TODAY.isoformat()}/"
    assert "rank" not in answer["text"]

    refused = client.post("/api/nickname", {"nickname": "<b>Zoë</b>"}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "nickname_characters"
    assert result(client, entry).json()["standing"] == "unnamed"  # a refusal changes nothing

    assert client.post("/api/nickname", {"nickname": "Zoë"}, content_type="application/json").status_code == 200
    answer = result(client, entry).json()
    assert (answer["standing"], answer["rank"], answer["nickname"]) == ("listed", 2, "Zoë")
    board = client.get(f"/api/leaderboard/daily/{TODAY.isoformat()}").json()
    assert [row["nickname"] for row in board["rows"]] == ["Anna", "Zoë"] and board["me"]["rank"] == 2
    assert "rank 2" in answer["text"]


def test_a_banned_player_is_told_their_results_are_hidden(client, me, make_entry):
    entry = make_entry(me, TODAY, 3000)
    moderation.ban_player(me, User.objects.create_user("mod"), "test")
    answer = result(client, entry).json()
    assert answer["standing"] == "hidden" and answer["rank"] is None
    page = client.get("/leaderboard/").content.decode()
    assert "Your results are hidden from the boards." in page
    assert 'class="nickname"' not in page and "Choose a nickname" not in page
    refused = client.post("/api/nickname", {"nickname": "Zoë"}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "player_banned"


def test_an_entry_a_moderator_hid_is_hidden_for_its_player_too(client, me, make_entry):
    from leaderboards.nicknames import set_nickname

    set_nickname(me, "Zoë")
    entry = make_entry(me, TODAY, 3000)
    moderation.hide_entry(entry, User.objects.create_user("mod"), "test")
    assert result(client, entry).json()["standing"] == "hidden"


def test_a_named_player_gets_their_rank_at_once(client, me, make_entry):
    from leaderboards.nicknames import set_nickname

    set_nickname(me, "Zoë")
    answer = result(client, make_entry(me, TODAY, 3000)).json()
    assert (answer["standing"], answer["rank"]) == ("listed", 1)


def test_the_par_is_absent_until_the_date_has_one_then_told_against_the_score(client, me, make_entry):
    from leaderboards.models import DailyDeal

    entry = make_entry(me, TODAY, 3000)
    answer = result(client, entry).json()
    assert answer["par"] is None and answer["against_par"] is None
    daily.daily_seed(TODAY)
    DailyDeal.objects.filter(date=TODAY).update(par=2200)
    answer = result(client, entry).json()
    assert (answer["par"], answer["against_par"]) == (2200, 800)


def test_someone_elses_result_and_unknown_games_answer_404(client, me, make_player, make_entry):
    other = make_entry(make_player("Anna"), TODAY, 3000)
    assert result(client, other).status_code == 404
    assert client.get(f"/api/daily/result/{uuid.uuid4()}").status_code == 404
    assert client.get("/api/daily/result/not-a-game").status_code == 404
    assert Client().get(f"/api/daily/result/{other.game_id}").status_code == 404  # no session, no player
    assert Player.objects.count() == 2  # asking created nobody
