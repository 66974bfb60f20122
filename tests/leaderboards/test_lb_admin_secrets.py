"""The admin never shows a seed, a position or a move of a game whose cards are still hidden.

Issue 18, finding 8: a superuser saw today's daily seed (every card of the day) on a game's
change page. Fetched here as a superuser with the test client: the seed and the moves are absent
while the date is open (or a solo game is being played) and present once it is closed (over).
"""

import datetime

import pytest

from leaderboards import daily
from leaderboards.models import DailyDeal

pytestmark = pytest.mark.django_db
CLOSED_DATE = daily.today() - datetime.timedelta(days=2)


def game_page(client, game) -> str:
    answer = client.get(f"/admin/games/game/{game.pk}/change/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_todays_daily_shows_no_seed_and_no_move_until_its_date_is_closed(superuser_client, make_player, finished_daily):
    today_game = finished_daily(make_player("Anna"), daily.today())
    page = game_page(superuser_client, today_game)
    assert str(today_game.seed) not in page and "moves-group" not in page  # moves-group: the Move inline
    assert superuser_client.get(f"/admin/leaderboards/entry/replay/{today_game.pk}/").status_code == 403
    closed_game = finished_daily(make_player("Bob"), CLOSED_DATE)
    page = game_page(superuser_client, closed_game)
    assert str(closed_game.seed) in page and "moves-group" in page


def test_the_daily_deals_seeds_are_listed_only_for_closed_dates(superuser_client):
    today = DailyDeal.objects.create(date=daily.today(), seed=123456789012345)
    closed = DailyDeal.objects.create(date=CLOSED_DATE, seed=987654321098765)
    listing = superuser_client.get("/admin/leaderboards/dailydeal/").content.decode()
    assert "123456789012345" not in listing and "987654321098765" in listing
    assert (
        "123456789012345"
        not in superuser_client.get(f"/admin/leaderboards/dailydeal/{today.pk}/change/").content.decode()
    )
    assert (
        "987654321098765" in superuser_client.get(f"/admin/leaderboards/dailydeal/{closed.pk}/change/").content.decode()
    )


def test_a_solo_game_in_play_shows_no_seed_until_it_is_over(superuser_client, make_player):
    from games.models import Game
    from games.rooms.creation import create_game
    from games.rooms.moves import apply_move

    game, _ = create_game(make_player(), "solo", "easy")
    apply_move(game.id, "S", {"type": "draw"}, 0)
    page = game_page(superuser_client, game)
    assert str(game.seed) not in page and "moves-group" not in page
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    page = game_page(superuser_client, game)
    assert str(game.seed) in page and "moves-group" in page
