"""Your record without an account (/record/, leaderboards.record): days played, streaks, best
rank, average against par, the plot of the last 60 days and the games with their replays — in a
number of queries that does not grow with the record. Each daily counted is the player's one
ranked result of its date (R57, R59).
"""

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from leaderboards import daily, record
from leaderboards.models import Entry
from players.models import Player

pytestmark = pytest.mark.django_db
TODAY = daily.today()


def days_ago(n: int) -> datetime.date:
    return TODAY - datetime.timedelta(days=n)


@pytest.fixture
def me(client):
    client.get("/api/session")
    return Player.objects.get(pk=client.session["player_id"])


def test_streaks_count_consecutive_days_and_today_not_played_keeps_yesterdays():
    dates = [days_ago(n) for n in (1, 2, 3, 7, 8, 9, 10, 11, 20)]
    assert record.streaks(dates, TODAY) == (3, 5)
    assert record.streaks([TODAY, *dates], TODAY) == (4, 5)
    assert record.streaks([days_ago(2), days_ago(3)], TODAY) == (0, 2)  # yesterday missed: the run is over
    assert record.streaks([], TODAY) == (0, 0)


def test_the_figures_of_a_record(me, make_player, make_entry):
    from leaderboards.nicknames import set_nickname

    set_nickname(me, "Zoë")
    anna = make_player("Anna")
    for n, score in ((0, 4000), (1, 3000), (2, 2500), (5, 6000)):
        make_entry(me, days_ago(n), score, 3500)
    make_entry(anna, days_ago(1), 5000)  # Anna beat me yesterday: rank 2 then
    make_entry(anna, days_ago(5), 7000)
    mine = record.record_of(me)
    assert (mine.days_played, mine.current_streak, mine.best_streak) == (4, 3, 3)
    assert mine.best_rank == 1  # today, and two days ago, nobody scored more
    assert mine.average_against_par is None  # no par known for these dates
    assert [day.date for day in mine.dailies] == [days_ago(n) for n in (0, 1, 2, 5)]
    assert len(mine.plot) == record.PLOT_DAYS and mine.plot[-1].date == TODAY
    assert [day.entry.score for day in mine.plot if day.entry] == [6000, 2500, 3000, 4000]


def test_an_unnamed_player_has_no_rank_to_show(me, make_entry):
    make_entry(me, TODAY, 4000)
    assert record.record_of(me).best_rank is None
    page = Client(cookies=None)
    assert page.get("/record/").status_code == 200  # a new browser: an empty record, nobody created
    assert Player.objects.count() == 1


def test_the_page_shows_the_figures_the_plot_and_the_replays(client, me, make_entry):
    closed = make_entry(me, days_ago(3), 2500, 3000)
    make_entry(me, TODAY, 4000, 1000)
    html = client.get("/record/").content.decode()
    assert "<svg" in html and html.count('class="bar won"') == 1 and html.count('class="bar lost"') == 1
    assert f'href="/replay/{closed.game_id}/"' in html  # closed date: its replay
    assert "after the day" in html  # today's: not yet
    assert "style=" not in html and "<script>" not in html  # the CSP allows neither (server/csp.py)


def test_the_plot_is_written_with_bengali_digits_and_never_with_a_decimal_comma(client, me, make_entry):
    make_entry(me, TODAY, 4321)
    client.cookies["django_language"] = "bn"
    html = client.get("/record/").content.decode()
    assert "৪৩২১" in html
    client.cookies["django_language"] = "de"
    html = client.get("/record/").content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    import re

    assert not re.search(r'="-?\d+,\d', svg)  # coordinates stay "12.5" whatever the language


def test_the_record_costs_the_same_queries_for_one_day_or_two_hundred(client, me, make_entry):
    make_entry(me, TODAY, 1000)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/record/").status_code == 200
        return len(captured)

    few = queries()
    for n in range(1, 200):
        make_entry(me, days_ago(n), 1000 + n)
    assert queries() == few <= 8, few


def test_the_average_against_par_and_the_par_marks_once_dates_have_a_par(client, me, make_entry):
    from leaderboards.models import DailyDeal

    for n, score in ((0, 4000), (1, 3000), (2, 5000)):
        make_entry(me, days_ago(n), score)
        daily.daily_seed(days_ago(n))
    DailyDeal.objects.filter(date__in=[days_ago(0), days_ago(1)]).update(par=3500)  # day 2: not computed yet
    mine = record.record_of(me)
    assert mine.average_against_par == 0  # +500 and -500; day 2 has no par to count
    assert [day.against_par for day in mine.dailies] == [500, -500, None]
    plot = record.plot_bars(mine.plot)
    marked = [bar for bar in plot["bars"] if bar.par_y is not None]
    assert plot["any_par"] and len(marked) == 2 and marked[0].par_y == marked[1].par_y
    assert all(bar.height >= 1 and bar.y + bar.height <= record.PLOT_HEIGHT for bar in plot["bars"])
    html = client.get("/record/").content.decode()
    assert "Average against par" in html and "+500" in html and "−500" in html
    assert html.count('class="par"') == 2


def test_a_negative_score_goes_below_the_zero_line():
    days = [record.Day(TODAY, unsaved_entry(-200)), record.Day(days_ago(1), unsaved_entry(800))]
    plot = record.plot_bars(days)
    low, high = plot["bars"]
    assert low.y == plot["zero"] and high.y + high.height == plot["zero"]  # one below, one above
    assert plot["bottom"] == -200


def unsaved_entry(score: int) -> Entry:
    """An entry with only what the plot reads (its score and result); never saved."""
    return Entry(score=score, result="lost")
