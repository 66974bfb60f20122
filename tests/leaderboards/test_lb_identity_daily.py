"""Daily seeds and anonymous identity: the parts the room service builds on."""

import datetime
import uuid

import pytest
from django.test import RequestFactory

from games.engine import Game
from leaderboards import daily
from leaderboards.models import DailyDeal
from players import identity
from players.models import Player
from tests.leaderboards.lb_support import play_to_the_end

pytestmark = pytest.mark.django_db


def test_daily_seed_is_drawn_once_and_stable():  # R57: one seed per UTC date
    date = datetime.date(2026, 3, 1)
    first = daily.daily_seed(date)
    assert daily.daily_seed(date) == first
    assert DailyDeal.objects.filter(date=date).count() == 1
    assert 0 <= first < 2**63


def test_different_dates_get_different_seeds():
    seeds = {daily.daily_seed(datetime.date(2026, 3, 1) + datetime.timedelta(days=i)) for i in range(5)}
    assert len(seeds) == 5


def test_today_is_the_utc_date():
    assert daily.today() == datetime.datetime.now(datetime.UTC).date()


def session_request():
    from django.contrib.sessions.backends.db import SessionStore

    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.7")
    request.session = SessionStore()
    return request


def test_player_for_request_creates_only_when_asked():
    request = session_request()
    assert identity.player_for_request(request, create=False) is None
    assert Player.objects.count() == 0
    player = identity.player_for_request(request)
    assert player is not None and request.session["player_id"] == str(player.pk)
    assert identity.player_for_request(request) == player
    assert identity.player_for_session(request.session) == player
    assert Player.objects.count() == 1


def test_network_is_kept_as_a_keyed_hash_never_the_address():
    player = identity.player_for_request(session_request())
    assert player is not None and player.last_network and "203.0.113" not in player.last_network
    assert player.last_network == identity.network_hash("203.0.113.7")
    assert identity.network_hash("2001:db8::1") == identity.network_hash("2001:db8::ffff")  # one /64


def test_a_session_with_a_bad_or_unknown_id_has_no_player():
    assert identity.player_for_session({"player_id": "not-a-uuid"}) is None
    assert identity.player_for_session({"player_id": str(uuid.uuid4())}) is None
    assert identity.player_for_session({}) is None


# -- the daily game with the engine -------------------------------------------------------------


def test_same_date_same_deals_and_same_moves_give_the_same_game():  # R57, R59
    date = datetime.date(2026, 4, 2)
    first, second = Game.new(daily.daily_seed(date)), Game.new(daily.daily_seed(date))
    assert first.to_position() == second.to_position()
    for seat, action in play_to_the_end(daily.daily_seed(date), rng_seed=3):
        assert first.apply(seat, action) == second.apply(seat, action)
    assert first.to_position() == second.to_position()
    assert first.scores() == second.scores()


def test_different_dates_deal_different_cards():  # R57
    one = Game.new(daily.daily_seed(datetime.date(2026, 4, 2))).to_position()
    other = Game.new(daily.daily_seed(datetime.date(2026, 4, 3))).to_position()
    assert one["hands"] != other["hands"] and one["stock"] != other["stock"]


def test_a_concurrent_first_use_of_a_date_keeps_the_stored_seed(monkeypatch):
    """Two first players race: the loser's insert fails on the unique date and it reads the winner's seed."""
    from django.db.models.query import QuerySet

    date = datetime.date(2026, 6, 1)
    DailyDeal.objects.create(date=date, seed=1234567)  # the winner's row, committed meanwhile
    real_filter, real_get = DailyDeal.objects.filter, QuerySet.get
    misses: list[int] = []  # one entry once the first lookup has been made to miss

    def get_missing_once(queryset, *args, **kwargs):
        if queryset.model is DailyDeal and not misses:
            misses.append(1)
            raise DailyDeal.DoesNotExist  # the loser looked before the winner committed
        return real_get(queryset, *args, **kwargs)

    monkeypatch.setattr(DailyDeal.objects, "filter", lambda **kw: real_filter(pk=-1))
    monkeypatch.setattr(QuerySet, "get", get_missing_once)
    assert daily.daily_seed(date) == 1234567
    assert misses and DailyDeal.objects.count() == 1


def test_two_players_daily_games_of_a_date_share_the_deal(client):
    """Through the server's API: every player's daily of today is dealt from the same seed (R57)."""
    from django.test import Client

    first = client.post("/api/games", {"mode": "daily"}, content_type="application/json")
    second = Client().post("/api/games", {"mode": "daily"}, content_type="application/json")
    from games.models import Game

    games = Game.objects.filter(pk__in=[first.json()["id"], second.json()["id"]])
    assert {game.seed for game in games} == {daily.daily_seed(daily.today())}
    assert len({str(game.seats["S"]) for game in games}) == 2  # two different players, both South
