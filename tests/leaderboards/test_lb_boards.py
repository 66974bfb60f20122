"""The boards: ranks, pagination, "me", and hidden or banned entries that vanish and come back."""

import datetime

import pytest
from django.contrib.auth.models import User

from leaderboards import boards, daily, moderation
from leaderboards.boards import Page
from leaderboards.nicknames import NicknameError, set_nickname

pytestmark = pytest.mark.django_db
TODAY = daily.today()
CLOSED_DATE = TODAY - datetime.timedelta(days=2)  # over, and past its grace (games.daily_clock)


@pytest.fixture
def moderator(db):
    return User.objects.create_user("mod", password="x", is_staff=True)


def names(board):
    return [row["nickname"] for row in board["rows"]]


def every_board(me=None):
    return {
        "daily": boards.daily_board(CLOSED_DATE, Page(1), me, True),
        "week": boards.week_board(TODAY, Page(1), me),
        "all": boards.all_time_board(Page(1), me),
    }


def test_the_daily_board_ranks_by_score_with_shared_ranks(make_player, make_entry):
    for name, score in [("Anna", 900), ("Bob", 1200), ("Cleo", 900), ("Dan", 100)]:
        make_entry(make_player(name), CLOSED_DATE, score)
    board = boards.daily_board(CLOSED_DATE, Page(1), None, True)
    assert [(r["rank"], r["nickname"], r["score"]) for r in board["rows"]] == [
        (1, "Bob", 1200),
        (2, "Anna", 900),
        (2, "Cleo", 900),
        (4, "Dan", 100),
    ]
    assert board["count"] == 4 and board["pages"] == 1 and board["me"] is None


def test_pagination_and_me_outside_the_top(make_player, make_entry):
    players = [make_player(f"Player {i:02d}") for i in range(12)]
    for i, player in enumerate(players):
        make_entry(player, CLOSED_DATE, 1000 - i)
    page = Page(2, per_page=5)
    board = boards.daily_board(CLOSED_DATE, page, players[11], True)
    assert [r["rank"] for r in board["rows"]] == [6, 7, 8, 9, 10]
    assert board["me"]["rank"] == 12 and board["me"]["score"] == 989 and board["me"]["listed"]
    assert not any(r["me"] for r in board["rows"])
    assert boards.daily_board(CLOSED_DATE, Page(3, per_page=5), players[11], True)["rows"][-1]["me"]


def test_week_sums_the_last_seven_days_and_all_time_keeps_best_average_games_wins(make_player, make_entry):
    anna, bob = make_player("Anna"), make_player("Bob")
    make_entry(anna, TODAY, 500, 100)
    make_entry(anna, TODAY - datetime.timedelta(days=6), 700, 900)
    make_entry(anna, TODAY - datetime.timedelta(days=7), 5000, 0)  # outside the week
    make_entry(bob, CLOSED_DATE, 1000, 0)
    week = boards.week_board(TODAY, Page(1), anna)
    assert [(r["nickname"], r["total"], r["games"]) for r in week["rows"]] == [("Anna", 1200, 2), ("Bob", 1000, 1)]
    assert week["from"] == (TODAY - datetime.timedelta(days=6)).isoformat() and week["me"]["rank"] == 1
    every = boards.all_time_board(Page(1), bob)
    assert every["rows"][0] == {
        "rank": 1,
        "nickname": "Anna",
        "best": 5000,
        "average": 2067,
        "games": 3,
        "wins": 2,
        "me": False,
    }
    assert every["me"]["rank"] == 2 and every["me"]["best"] == 1000


def test_players_without_a_nickname_are_not_listed_but_see_their_rank(make_player, make_entry):
    make_entry(make_player("Anna"), CLOSED_DATE, 900)
    shy = make_player()
    make_entry(shy, CLOSED_DATE, 1500)
    for board in every_board(shy).values():
        assert names(board) == ["Anna"]
        assert board["me"]["rank"] == 1 and board["me"]["listed"] is False


def test_hidden_entries_vanish_from_every_board_and_come_back(make_player, make_entry, moderator):
    make_entry(make_player("Anna"), CLOSED_DATE, 900)
    cheat = make_entry(make_player("Bob"), CLOSED_DATE, 99999)
    moderation.hide_entry(cheat, moderator, "impossible score")
    assert all(names(board) == ["Anna"] for board in every_board().values())
    moderation.unhide_entry(cheat, moderator)
    assert all(names(board) == ["Bob", "Anna"] for board in every_board().values())


def test_a_banned_players_entries_vanish_and_come_back_when_unbanned(
    make_player, make_entry, moderator, finished_daily
):
    bob = make_player("Bob")
    make_entry(make_player("Anna"), CLOSED_DATE, 900)
    make_entry(bob, CLOSED_DATE, 5000)
    make_entry(bob, CLOSED_DATE - datetime.timedelta(days=1), 4000)
    moderation.ban_player(bob, moderator, "abuse")
    bob.refresh_from_db()
    assert all(names(board) == ["Anna"] for board in every_board().values())
    with pytest.raises(NicknameError) as refused:
        set_nickname(bob, "Robert")  # a banned player cannot take another name
    assert refused.value.code == "player_banned"
    moderation.unban_player(bob, moderator)
    assert all(names(board) == ["Bob", "Anna"] for board in every_board().values())


def test_the_share_text_has_date_score_result_and_rank_but_no_cards(make_player, make_entry):
    make_entry(make_player("Anna"), CLOSED_DATE, 9000, 100)
    entry = make_entry(make_player("Bob"), CLOSED_DATE, 5230, 3100)
    text = daily.share_text(entry)
    assert CLOSED_DATE.isoformat() in text and "5,230" in text and "Won" in text and "rank 2" in text
    assert not any(card in text.split() for card in ["JK", "AS", "2C"])


def test_the_board_api(client, make_player, make_entry):
    client.get("/api/session")
    make_entry(make_player("Anna"), CLOSED_DATE, 900)
    answer = client.get(f"/api/leaderboard/daily/{CLOSED_DATE.isoformat()}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["rows"][0]["nickname"] == "Anna" and body["rows"][0]["replay"].startswith("/leaderboard/replay/")
    assert body["me"]["played"] is False
    assert client.get("/api/leaderboard/week?page=1").json()["rows"][0]["total"] == 900
    assert client.get("/api/leaderboard/all").json()["rows"][0]["best"] == 900
    assert client.get("/api/leaderboard/all?page=zero").json()["code"] == "bad_page"
    assert client.get("/api/leaderboard/daily/2026-13-40").status_code == 404
    assert client.get(f"/api/leaderboard/daily/{CLOSED_DATE:%Y%m%d}").status_code == 404  # one spelling only
    future = (TODAY + datetime.timedelta(days=1)).isoformat()
    assert client.get(f"/api/leaderboard/daily/{future}").status_code == 404


def test_todays_board_offers_no_replay_yet(client, make_player, make_entry):
    make_entry(make_player("Anna"), TODAY, 900)
    row = client.get(f"/api/leaderboard/daily/{TODAY.isoformat()}").json()["rows"][0]
    assert "replay" not in row and "game_id" not in row


def test_share_api_is_for_the_entrys_own_player(client, make_entry):
    from players.models import Player

    client.get("/api/session")
    me = Player.objects.get(pk=client.session["player_id"])
    entry = make_entry(me, CLOSED_DATE, 1000, 2000)
    answer = client.get(f"/api/daily/share/{entry.game_id}")
    assert answer.status_code == 200 and "Lost" in answer.json()["text"]
    from django.test import Client

    assert Client().get(f"/api/daily/share/{entry.game_id}").status_code == 404


def test_the_pages_render_the_boards_and_highlight_me(client, make_entry):
    from players.models import Player

    client.post("/api/nickname", {"nickname": "Anna"}, content_type="application/json")
    me = Player.objects.get(pk=client.session["player_id"])
    make_entry(me, TODAY, 777)
    for url in ["/leaderboard/", f"/leaderboard/{TODAY.isoformat()}/", "/leaderboard/week/", "/leaderboard/all/"]:
        page = client.get(url)
        assert page.status_code == 200
        assert 'class="me"' in page.content.decode() and "Anna" in page.content.decode()
    assert client.get("/leaderboard/2999-01-01/").status_code == 404


def test_the_nickname_form_of_the_page(client):
    answer = client.post("/leaderboard/nickname/", {"nickname": "Jörg", "next": "/leaderboard/week/"})
    assert answer.status_code == 302 and answer["Location"] == "/leaderboard/week/"
    from players.models import Player

    assert Player.objects.get(pk=client.session["player_id"]).nickname == "Jörg"
    evil = client.post("/leaderboard/nickname/", {"nickname": "Jörg", "next": "https://evil.example/"})
    assert evil["Location"] == "/leaderboard/"


def test_a_page_past_the_end_still_knows_the_boards_size(make_player, make_entry):
    for i in range(3):
        make_entry(make_player(f"Player {i}"), CLOSED_DATE, 100 * i)
    beyond = boards.daily_board(CLOSED_DATE, Page(2, per_page=5), None, True)
    assert beyond["rows"] == [] and beyond["count"] == 3 and beyond["pages"] == 1
    week_beyond = boards.week_board(TODAY, Page(2, per_page=5), None)
    assert week_beyond["rows"] == [] and week_beyond["count"] == 3
