"""The daily keeper (server.daily_keeper): a serving process publishes tomorrow's commitment a day
ahead on its own, with no request and no cron (R57: every daily of a date is dealt from its seed,
fixed and committed before the date begins)."""

import datetime
import sqlite3
import time

import pytest

from leaderboards import daily
from leaderboards.models import DailyDeal
from server import daily_keeper


@pytest.mark.django_db
def test_one_round_makes_today_and_tomorrow_with_their_commitments_and_par():
    assert daily_keeper.run_once()
    today = daily.today()
    deals = {deal.date: deal for deal in DailyDeal.objects.all()}
    assert set(deals) == {today, today + datetime.timedelta(days=1)}  # nothing beyond tomorrow
    for deal in deals.values():
        assert len(deal.commitment) == 64 and deal.committed_at is not None and deal.par is not None
    assert daily_keeper.run_once()  # a second round (another process, the next hour) changes nothing
    assert {d.date: d.commitment for d in DailyDeal.objects.all()} == {d: x.commitment for d, x in deals.items()}


@pytest.mark.django_db
def test_a_failing_round_is_logged_and_does_not_raise(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("database away")

    monkeypatch.setattr(daily_keeper, "call_command", broken)
    assert daily_keeper.run_once() is False
    assert "preparing the daily deals failed" in caplog.text


def test_the_setting_zero_starts_no_thread(settings):
    settings.FOOT_DAILY_PREPARE_SECONDS = 0
    assert daily_keeper.start() is None


def test_a_served_site_publishes_tomorrows_commitment_with_no_request(daphne, sqlite_url):
    daphne(sqlite_url, FOOT_DAILY_PREPARE_SECONDS=3600)
    path = sqlite_url.removeprefix("sqlite:///")
    tomorrow = (datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=1)).isoformat()
    found: list = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not found:
        with sqlite3.connect(path) as db:
            found = db.execute(
                "SELECT commitment FROM leaderboards_dailydeal WHERE date = ? AND commitment != ''", (tomorrow,)
            ).fetchall()
        time.sleep(0.3)
    assert found and len(found[0][0]) == 64
