"""A ranked daily counts only if finished by its date's end plus the grace; replays wait for it.

Issue 18, finding 1: a daily started at 23:59 and finished after midnight, with the moves read
from a replay already public, ranked first. The websocket side (the game told it no longer
counts) is in tests/rooms/test_daily_deadline.py.
"""

import datetime

import pytest
from django.utils import timezone

from games import daily_clock
from leaderboards import daily
from leaderboards.models import Entry

pytestmark = pytest.mark.django_db
YESTERDAY = daily.today() - datetime.timedelta(days=1)


def test_the_deadline_is_the_end_of_the_utc_date_plus_ten_minutes():
    date = datetime.date(2026, 12, 1)
    deadline = datetime.datetime(2026, 12, 2, 0, 10, tzinfo=datetime.UTC)
    assert daily_clock.ranked_until(date) == deadline
    assert daily_clock.counts_at(date, deadline)
    assert not daily_clock.counts_at(date, deadline + datetime.timedelta(seconds=1))
    assert not daily_clock.is_closed(date, deadline) and daily_clock.is_closed(
        date, deadline + datetime.timedelta(seconds=1)
    )


def test_a_daily_finished_after_its_deadline_is_not_recorded(make_player, finished_daily):
    date = daily.today() - datetime.timedelta(days=2)
    late = finished_daily(
        make_player("Late"), date, finished_at=daily_clock.ranked_until(date) + datetime.timedelta(seconds=1)
    )
    assert daily.on_game_finished(late) is None and not Entry.objects.exists()
    in_time = finished_daily(make_player("OnTime"), date, rng_seed=1, finished_at=daily_clock.ranked_until(date))
    entry = daily.on_game_finished(in_time)
    assert entry is not None and entry.finished_at == daily_clock.ranked_until(date)


def grace_until(moment: datetime.datetime) -> float:
    """The grace in seconds that puts yesterday's deadline at `moment`."""
    return (moment - daily_clock.ranked_until(YESTERDAY) + daily_clock.grace()).total_seconds()


def test_a_dates_replays_are_refused_until_every_ranked_game_of_it_is_closed(
    client, settings, make_player, finished_daily
):
    game = finished_daily(make_player("Anna"), YESTERDAY)
    assert daily.on_game_finished(game) is not None
    settings.FOOT_DAILY_GRACE_SECONDS = grace_until(timezone.now() + datetime.timedelta(minutes=5))
    assert client.get(f"/api/replay/{game.pk}").status_code == 404
    assert client.get(f"/leaderboard/replay/{game.pk}/").status_code == 404
    board = client.get(f"/api/leaderboard/daily/{YESTERDAY.isoformat()}").json()
    assert "replay" not in board["rows"][0] and "game_id" not in board["rows"][0]
    settings.FOOT_DAILY_GRACE_SECONDS = grace_until(timezone.now() - datetime.timedelta(seconds=1))
    assert client.get(f"/api/replay/{game.pk}").status_code == 200
    assert client.get(f"/leaderboard/replay/{game.pk}/").status_code == 200
    board = client.get(f"/api/leaderboard/daily/{YESTERDAY.isoformat()}").json()
    assert board["rows"][0]["replay"] == f"/leaderboard/replay/{game.pk}/"
