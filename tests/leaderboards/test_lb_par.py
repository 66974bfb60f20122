"""A par to beat (issue 16, item 2): the date's deals played once by computer players in all four
seats, off the request path; a finished player's result, board row and share text show their
score against it, and nobody sees it before finishing (or before the date is over).
"""

import datetime
import io
import threading
from concurrent.futures import Future

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError, connection
from django.db.models import QuerySet
from django.utils import translation

from games.bots.tournament import play_game
from leaderboards import daily, par, wording
from leaderboards.models import DailyDeal

TODAY = daily.today()
TOMORROW = TODAY + datetime.timedelta(days=1)
CLOSED = TODAY - datetime.timedelta(days=2)


def test_the_par_is_north_souths_total_of_the_normal_bots_on_the_seeds_deals():  # R57, R59
    seed = 20261202
    assert par.play_par(seed) == play_game(seed, "normal", "normal").totals["NS"]
    assert par.play_par(seed) == par.play_par(seed)  # R59: no other randomness


@pytest.mark.django_db
def test_the_par_is_computed_once_per_date(monkeypatch):
    deal = DailyDeal.objects.create(date=CLOSED, seed=77)
    played: list[int] = []

    def play_par(seed: int) -> int:
        played.append(seed)
        return 4321

    monkeypatch.setattr(par, "play_par", play_par)
    assert par.compute_par(CLOSED) == 4321
    assert par.compute_par(CLOSED) is None and par.compute_missing(TOMORROW) == []
    assert played == [77] and DailyDeal.objects.get(pk=deal.pk).par == 4321


@pytest.mark.django_db
def test_a_claim_is_won_once_and_taken_again_only_when_stale():
    DailyDeal.objects.create(date=CLOSED, seed=77)
    assert par.claim(CLOSED) and not par.claim(CLOSED)
    stale = datetime.datetime.now(datetime.UTC) - par.CLAIM_TIMEOUT - datetime.timedelta(seconds=1)
    DailyDeal.objects.filter(date=CLOSED).update(par_started_at=stale)  # its worker died
    assert par.claim(CLOSED)


@pytest.mark.django_db(transaction=True)
def test_a_deal_made_by_a_request_gets_its_par_in_a_background_thread_after_the_answer(client, monkeypatch, settings):
    assert settings.FOOT_PAR_IN_BACKGROUND is False  # every other in-process test: no thread
    settings.FOOT_PAR_IN_BACKGROUND = True  # the site's default (server/settings.py)
    release = threading.Event()
    threads: list[str] = []
    futures: list[Future[None]] = []
    real_submit = par.submit

    def slow_par(seed):
        threads.append(threading.current_thread().name)
        assert release.wait(30)
        return 1000 + len(threads)

    monkeypatch.setattr(par, "play_par", slow_par)

    def submit(date: datetime.date) -> Future[None]:
        futures.append(real_submit(date))
        return futures[-1]

    monkeypatch.setattr(par, "submit", submit)
    answer = client.get(f"/api/daily/{TOMORROW.isoformat()}")  # makes today's and tomorrow's deals
    assert answer.status_code == 200 and answer.json()["par"] is None
    assert list(DailyDeal.objects.values_list("par", flat=True)) == [None, None]  # answered before the par
    release.set()
    for future in futures:
        future.result(timeout=30)
    assert len(futures) == 2 and len(threads) == 2 and all(name.startswith("daily-par") for name in threads)
    assert threading.current_thread().name not in threads
    assert list(DailyDeal.objects.order_by("par").values_list("par", flat=True)) == [1001, 1002]
    client.get(f"/api/daily/{TOMORROW.isoformat()}")  # the deals exist: nothing more is computed
    assert len(futures) == 2 and len(threads) == 2


@pytest.mark.django_db(transaction=True)
def test_with_the_background_par_off_a_request_starts_no_thread_and_prepare_daily_computes_it(client, monkeypatch):
    import server.settings

    assert server.settings.FOOT_PAR_IN_BACKGROUND is True  # the site's default: only the tests turn it off
    submitted: list[datetime.date] = []
    monkeypatch.setattr(par, "submit", submitted.append)
    monkeypatch.setattr(par, "play_par", lambda seed: 5000)
    assert client.get(f"/api/daily/{TOMORROW.isoformat()}").status_code == 200  # makes today's and tomorrow's deals
    assert submitted == [] and list(DailyDeal.objects.values_list("par", flat=True)) == [None, None]
    call_command("prepare_daily", stdout=io.StringIO())
    assert dict(DailyDeal.objects.values_list("date", "par")) == {TODAY: 5000, TOMORROW: 5000}


@pytest.mark.django_db
def test_prepare_daily_computes_the_par_of_today_and_tomorrow(monkeypatch):
    monkeypatch.setattr(par, "play_par", lambda seed: 5000)
    call_command("prepare_daily", stdout=io.StringIO())
    assert dict(DailyDeal.objects.values_list("date", "par")) == {TODAY: 5000, TOMORROW: 5000}


@pytest.mark.django_db
def test_the_board_shows_the_par_only_to_a_player_who_finished_or_once_the_date_is_over(
    client, make_player, make_entry
):
    DailyDeal.objects.create(date=TODAY, seed=1)
    DailyDeal.objects.filter(date=TODAY).update(par=6000)
    make_entry(make_player("Anna"), TODAY, 7240, 3000)
    client.get("/api/session")
    board = client.get(f"/api/leaderboard/daily/{TODAY.isoformat()}").json()
    assert board["par"] is None and board["rows"][0]["against_par"] is None
    assert "computers' par" not in client.get("/leaderboard/").content.decode()
    from players.identity import player_for_session

    me = player_for_session(client.session)
    make_entry(me, TODAY, 5000, 5100)
    board = client.get(f"/api/leaderboard/daily/{TODAY.isoformat()}").json()
    assert board["par"] == 6000 and board["rows"][0]["against_par"] == 1240
    assert board["me"]["against_par"] == -1000
    page = client.get("/leaderboard/").content.decode()
    assert (
        "1,240 points above the computers&#x27; par" in page
        and "1,000 points below the computers&#x27; par" in page
        and "6,000" in page
    )


@pytest.mark.django_db
def test_a_closed_dates_board_and_deal_show_its_par_to_anyone(client, make_player, make_entry):
    DailyDeal.objects.create(date=CLOSED, seed=1)
    DailyDeal.objects.filter(date=CLOSED).update(par=6000)
    make_entry(make_player("Anna"), CLOSED, 6000, 3000)
    board = client.get(f"/api/leaderboard/daily/{CLOSED.isoformat()}").json()
    assert board["par"] == 6000 and board["rows"][0]["against_par"] == 0
    assert client.get(f"/api/daily/{CLOSED.isoformat()}").json()["par"] == 6000
    assert client.get(f"/api/daily/{TODAY.isoformat()}").json()["par"] is None


@pytest.mark.django_db
def test_the_share_text_and_the_results_show_the_score_against_par(client, make_entry):
    client.get("/api/session")
    from players.identity import player_for_session

    me = player_for_session(client.session)
    DailyDeal.objects.create(date=TODAY, seed=1)
    entry = make_entry(me, TODAY, 7240, 3000)
    share = client.get(f"/api/daily/share/{entry.game_id}").json()
    assert share["par"] is None and "par" not in share["text"]  # not computed yet: nothing to say
    DailyDeal.objects.filter(date=TODAY).update(par=6000)
    share = client.get(f"/api/daily/share/{entry.game_id}").json()
    assert share["against_par"] == 1240 and share["against_par_text"] == "1,240 points above the computers' par"
    assert share["text"].endswith("Won 7,240 to 3,000 · 1,240 points above the computers' par")
    result = client.get(f"/api/daily/result/{entry.game_id}").json()
    assert result["against_par"] == 1240 and result["against_par_text"] == "1,240 points above the computers' par"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "over", "under", "won"),
    [
        ("en", "1,240 points above the computers' par", "310 points below the computers' par", "Won 7,240 to 3,000"),
        (
            "de",
            "1.240 Punkte über dem Par der Computer",
            "310 Punkte unter dem Par der Computer",
            "Gewonnen 7.240 zu 3.000",
        ),
        ("bn", "কম্পিউটারের পারের চেয়ে ১,২৪০ পয়েন্ট বেশি", "কম্পিউটারের পারের চেয়ে ৩১০ পয়েন্ট কম", "জয় ৭,২৪০ বনাম ৩,০০০"),
    ],
)
def test_the_score_against_par_reads_in_each_language(
    german_catalogue, make_player, make_entry, language, over, under, won
):
    DailyDeal.objects.create(date=CLOSED, seed=1)
    DailyDeal.objects.filter(date=CLOSED).update(par=6000)
    entry = make_entry(make_player(), CLOSED, 7240, 3000)
    with translation.override(language):
        assert wording.against_par(1240) == over and wording.against_par(-310) == under
        assert won in daily.share_text(entry) and over in daily.share_text(entry)


@pytest.mark.django_db
def test_verify_daily_replays_the_par_and_fails_on_a_changed_one(make_player, finished_daily):  # R59
    finished_daily(make_player("Anna"), CLOSED)
    assert par.compute_par(CLOSED) is not None
    out = io.StringIO()
    call_command("verify_daily", CLOSED.isoformat(), stdout=out)
    assert "scores it again" in out.getvalue()
    DailyDeal.objects.filter(date=CLOSED).update(par=1)
    with pytest.raises(CommandError):
        call_command("verify_daily", CLOSED.isoformat(), stdout=io.StringIO())


@pytest.mark.django_db(transaction=True)
def test_workers_racing_for_one_date_play_its_par_once(monkeypatch):

    DailyDeal.objects.create(date=CLOSED, seed=77)
    played, start = [], threading.Barrier(4)

    def slow_par(seed):
        played.append(seed)
        threading.Event().wait(0.2)  # long enough for the others to try their claim meanwhile
        return 4321

    monkeypatch.setattr(par, "play_par", slow_par)
    results = []

    def worker():
        try:
            start.wait(10)
            results.append(par.compute_par(CLOSED))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert played == [77] and sorted(results, key=str) == [4321, None, None, None]
    assert DailyDeal.objects.get(date=CLOSED).par == 4321


@pytest.mark.django_db
def test_a_claim_that_meets_sqlites_write_lock_has_lost_the_race(monkeypatch):
    DailyDeal.objects.create(date=CLOSED, seed=78)

    def locked(self, **fields):
        raise OperationalError("database table is locked: leaderboards_dailydeal")

    monkeypatch.setattr(QuerySet, "update", locked)
    monkeypatch.setattr(par, "SQLITE_CLAIM_PAUSE", 0)
    if connection.vendor == "sqlite":
        assert par.claim(CLOSED) is False and par.compute_par(CLOSED) is None
    else:  # PostgreSQL waits for a row lock instead: any OperationalError there is a real one
        with pytest.raises(OperationalError, match="locked"):
            par.claim(CLOSED)
    monkeypatch.undo()
    assert DailyDeal.objects.get(date=CLOSED).par_started_at is None  # nothing claimed: a later round may


@pytest.mark.django_db
def test_a_claim_that_meets_a_brief_sqlite_lock_tries_again_and_wins(monkeypatch):
    if connection.vendor != "sqlite":
        pytest.skip("only SQLite refuses a writer at once; PostgreSQL waits for the row lock")
    DailyDeal.objects.create(date=CLOSED, seed=79)
    real_update = QuerySet.update
    refused: list[dict] = []

    def locked_twice(self, **fields):
        if len(refused) < 2:  # a reader's table lock, released a moment later
            refused.append(fields)
            raise OperationalError("database table is locked: leaderboards_dailydeal")
        return real_update(self, **fields)

    monkeypatch.setattr(QuerySet, "update", locked_twice)
    monkeypatch.setattr(par, "SQLITE_CLAIM_PAUSE", 0)
    assert par.claim(CLOSED) is True and len(refused) == 2
    monkeypatch.undo()
    assert DailyDeal.objects.get(date=CLOSED).par_started_at is not None
