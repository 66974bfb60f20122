"""Deals anyone can verify (issue 16, item 1): a date's commitment is published before the date
begins, its seed and nonce only once it is over, and `verify_daily` re-deals the four deals (R57)
and compares them with every stored game of the date.
"""

import datetime
import hashlib
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import daily_clock
from games.engine import Game as EngineGame
from games.models import Game
from leaderboards import daily
from leaderboards.models import DailyDeal

pytestmark = pytest.mark.django_db
TODAY = daily.today()
TOMORROW = TODAY + datetime.timedelta(days=1)
CLOSED = TODAY - datetime.timedelta(days=2)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def closing_at(moment: datetime.datetime, date: datetime.date) -> float:
    """The grace in seconds that puts `date`'s deadline at `moment`."""
    return (moment - daily_clock.ranked_until(date) + daily_clock.grace()).total_seconds()


@pytest.mark.parametrize("date", [TODAY, TOMORROW])
def test_todays_and_tomorrows_commitments_are_published_without_seed_or_nonce(client, date):  # R57
    answer = client.get(f"/api/daily/{date.isoformat()}")
    assert answer.status_code == 200
    body = answer.json()
    deal = DailyDeal.objects.get(date=date)
    assert body["date"] == date.isoformat() and body["seed"] is None and body["nonce"] is None
    assert body["commitment"] == deal.commitment == sha256(f"{date.isoformat()}:{deal.seed}:{deal.nonce}")
    assert str(deal.seed) not in answer.content.decode() and deal.nonce not in answer.content.decode()
    assert len(deal.nonce) >= 32 and int(deal.nonce, 16) >= 0  # at least 128 bits of hex


def test_tomorrows_deal_is_committed_when_todays_daily_is_opened(client, make_player):  # R57
    from games.rooms.creation import create_game

    create_game(make_player(), "daily")
    tomorrow = DailyDeal.objects.get(date=TOMORROW)
    midnight = datetime.datetime.combine(TOMORROW, datetime.time(), tzinfo=datetime.UTC)
    assert tomorrow.committed_at is not None and tomorrow.committed_at < midnight and len(tomorrow.commitment) == 64
    published = client.get(f"/api/daily/{TOMORROW.isoformat()}").json()
    assert datetime.datetime.fromisoformat(published["committed_at"]) == tomorrow.committed_at


def test_the_reveal_after_the_deadline_opens_the_commitment_published_before(client, settings):  # R57
    published = client.get(f"/api/daily/{TODAY.isoformat()}").json()
    settings.FOOT_DAILY_GRACE_SECONDS = closing_at(timezone.now() + datetime.timedelta(minutes=5), TODAY)
    assert client.get(f"/api/daily/{TODAY.isoformat()}").json()["seed"] is None  # in the grace: still hidden
    settings.FOOT_DAILY_GRACE_SECONDS = closing_at(timezone.now() - datetime.timedelta(seconds=1), TODAY)
    revealed = client.get(f"/api/daily/{TODAY.isoformat()}").json()
    assert revealed["commitment"] == published["commitment"]
    assert sha256(f"{TODAY.isoformat()}:{revealed['seed']}:{revealed['nonce']}") == published["commitment"]
    assert int(revealed["seed"]) == daily.daily_seed(TODAY)  # the one seed the date's games were dealt from


def test_a_closed_date_with_a_deal_answers_its_seed_and_one_without_answers_404(client):
    deal = DailyDeal.objects.create(date=CLOSED, seed=4242424242424242)
    body = client.get(f"/api/daily/{CLOSED.isoformat()}").json()
    assert body["seed"] == "4242424242424242" and body["nonce"] == deal.nonce
    empty = CLOSED - datetime.timedelta(days=1)
    answer = client.get(f"/api/daily/{empty.isoformat()}")
    assert answer.status_code == 404 and answer.json()["code"] == "no_deal"
    assert not DailyDeal.objects.filter(date=empty).exists()


@pytest.mark.parametrize("text", ["2026-13-01", "2026-02-30", "20261201", "２０２６-12-01", "2026-12-1", "x", "share"])
def test_a_malformed_date_is_refused_with_400_and_creates_nothing(client, text):
    answer = client.get(f"/api/daily/{text}")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_date"
    assert not DailyDeal.objects.exists()


@pytest.mark.parametrize("days", [2, 30, 3000])
def test_a_date_beyond_tomorrow_is_404_and_no_deal_is_made_for_it(client, days):
    date = TODAY + datetime.timedelta(days=days)
    answer = client.get(f"/api/daily/{date.isoformat()}")
    assert answer.status_code == 404 and answer.json()["code"] == "no_such_date"
    assert not DailyDeal.objects.filter(date__gt=TOMORROW).exists()


def verify(date: datetime.date) -> str:
    out = io.StringIO()
    call_command("verify_daily", date.isoformat(), stdout=out)
    return out.getvalue()


def test_verify_daily_passes_on_a_played_date(make_player, finished_daily):  # R57
    finished_daily(make_player("Anna"), CLOSED, rng_seed=1)
    finished_daily(make_player("Bob"), CLOSED, rng_seed=2)
    report = verify(CLOSED)
    assert "opens with seed" in report and report.count("deals 1-4 match") == 2
    assert "the commitment and every stored deal match" in report


def test_verify_daily_fails_when_a_stored_initial_position_is_altered(make_player, finished_daily):  # R57
    game = finished_daily(make_player("Anna"), CLOSED)
    position = dict(game.initial_position)
    south, north = position["hands"]["S"].split(), position["hands"]["N"].split()
    different = next(i for i, card in enumerate(north) if card not in south)
    south[0], north[different] = north[different], south[0]  # one card swapped between two hands
    position["hands"] = {**position["hands"], "S": " ".join(south), "N": " ".join(north)}
    Game.objects.filter(pk=game.pk).update(initial_position=position)
    with pytest.raises(CommandError, match="1 difference"):
        verify(CLOSED)


def test_verify_daily_fails_when_a_later_deal_is_not_the_seeds(make_player, finished_daily, monkeypatch):  # R57
    finished_daily(make_player("Anna"), CLOSED)
    from leaderboards import proof

    real = proof.dealt_positions
    monkeypatch.setattr(proof, "dealt_positions", lambda seed: {**real(seed), 3: real(seed + 1)[3]})
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_daily", CLOSED.isoformat(), stdout=out)
    assert "deal 3 differs" in out.getvalue()


def test_verify_daily_fails_when_the_commitment_does_not_open(make_player, finished_daily):
    finished_daily(make_player("Anna"), CLOSED)
    DailyDeal.objects.filter(date=CLOSED).update(nonce="00" * 16)
    with pytest.raises(CommandError):
        verify(CLOSED)


def test_verify_daily_of_a_date_without_a_deal_says_so_and_fails():
    with pytest.raises(CommandError, match="no daily deal"):
        verify(CLOSED)
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("verify_daily", "yesterday")


def test_verify_daily_of_an_open_date_keeps_the_seed_secret(make_player, finished_daily):
    game = finished_daily(make_player("Anna"), TODAY)
    report = verify(TODAY)
    assert str(game.seed) not in report and "kept secret" in report


def test_each_of_the_four_deals_is_the_engines_deal_of_the_seed():  # R57
    from games.engine.deal import deal_cards, shuffled_deck

    seed = daily.daily_seed(CLOSED)
    for number in range(1, 5):
        dealt = deal_cards(shuffled_deck(seed, number), number)
        position = EngineGame.at_deal(seed, number).to_position()
        assert position["feet"] == {seat: " ".join(cards) for seat, cards in dealt.feet.items()}
        assert position["dealer"] == dealt.dealer


def test_prepare_daily_commits_today_and_tomorrow():
    out = io.StringIO()
    call_command("prepare_daily", stdout=out)
    deals = {deal.date: deal for deal in DailyDeal.objects.all()}
    assert set(deals) == {TODAY, TOMORROW}
    assert all(deal.commitment in out.getvalue() and str(deal.seed) not in out.getvalue() for deal in deals.values())
    call_command("prepare_daily", stdout=io.StringIO())
    assert {deal.date: deal.seed for deal in DailyDeal.objects.all()} == {d: deal.seed for d, deal in deals.items()}


def program_output(page: str) -> str:
    import contextlib
    import html
    import re

    program = re.search(r'<pre id="check-program"><code>(.*?)</code></pre>', page, re.S)
    assert program is not None, "the page shows no program"
    code = html.unescape(program.group(1))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "check-program", "exec"), {})  # the page's own program, as a checker runs it
    return out.getvalue()


def test_the_check_page_shows_the_commitments_and_a_program_that_redeals_the_cards(client):  # R57, R11
    closed = DailyDeal.objects.create(date=CLOSED, seed=31415926535897932)
    page = client.get("/leaderboard/check/").content.decode()
    for date in (TODAY, TOMORROW):
        deal = DailyDeal.objects.get(date=date)
        assert deal.commitment in page and str(deal.seed) not in page and deal.nonce not in page
    assert closed.nonce in page and str(closed.seed) in page
    printed = program_output(page)
    assert f"commitment {closed.commitment}" in printed
    for number in range(1, 5):
        position = EngineGame.at_deal(closed.seed, number).to_position()
        # The feet are dealt as they are (R11); hands may have had red threes laid and replaced (R13).
        for seat in "SWNE":
            foot = " ".join(sorted(position["feet"][seat].split()))
            assert f"deal {number} {seat} hand" in printed and f"foot {foot}" in printed


@pytest.mark.parametrize(
    ("language", "heading"), [("en", "Check the deals"), ("de", "Die Blätter prüfen"), ("bn", "দানগুলো যাচাই করুন")]
)
def test_the_check_page_reads_in_each_language_and_is_linked_from_the_board_and_the_rules(
    client, german_catalogue, language, heading
):
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    assert heading in client.get("/leaderboard/check/", **headers).content.decode()
    for page in ("/leaderboard/", "/rules/"):
        text = client.get(page, **headers).content.decode()
        assert 'href="/leaderboard/check/"' in text and heading in text


def test_the_days_board_leaves_the_commitment_to_check_the_deals_and_makes_no_deal(client):
    """Issue 29: a 64-character hash on every player's board read as noise; the board links
    "Check the deals", which shows it to whoever wants to note it."""
    client.get(f"/leaderboard/{CLOSED.isoformat()}/")
    assert not DailyDeal.objects.filter(date=CLOSED).exists()
    deal = DailyDeal.objects.create(date=TODAY, seed=918273645546372819)
    page = client.get("/leaderboard/").content.decode()
    assert deal.commitment not in page and str(deal.seed) not in page
    assert 'href="/leaderboard/check/"' in page
    assert deal.commitment in client.get("/leaderboard/check/").content.decode()
