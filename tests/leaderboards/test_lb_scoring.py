"""A daily result is the server's replay of its own record; nothing else can set a score."""

import datetime

import pytest

from games.engine import Game
from leaderboards import daily
from leaderboards.models import Entry

pytestmark = pytest.mark.django_db
DATE = datetime.date(2026, 5, 1)


def replayed_totals(game):
    replay = Game.new(game.seed)
    for move in game.moves.order_by("seq"):
        replay.apply(move.seat, move.action)
    return replay.scores()["totals"]


def test_a_finished_ranked_daily_writes_the_souths_team_score(make_player, finished_daily):  # R56
    player = make_player("Anna")
    game = finished_daily(player, DATE)
    entry = daily.on_game_finished(game)
    assert entry is not None  # it ranks
    totals = replayed_totals(game)
    assert (entry.score, entry.opponents_score) == (totals["NS"], totals["EW"])
    assert entry.result == daily.result_of(totals["NS"], totals["EW"])
    assert (entry.player, entry.date, entry.game_id) == (player, DATE, game.pk)


def test_recording_twice_keeps_one_entry(make_player, finished_daily):
    game = finished_daily(make_player("Anna"), DATE)
    assert daily.on_game_finished(game) == daily.on_game_finished(game)
    assert Entry.objects.count() == 1


def test_a_forged_stored_position_or_score_is_ignored(make_player, finished_daily):
    game = finished_daily(make_player("Anna"), DATE)
    # Whatever the stored position claims, only the replay of the moves counts.
    game.position = {"scores": [{"NS": {"total": 999999}, "EW": {"total": -5}}]}
    game.score = 999999
    game.save(update_fields=["position"])
    entry = daily.on_game_finished(game)
    assert entry is not None and entry.score == replayed_totals(game)["NS"] != 999999


def test_a_game_not_dealt_from_the_dates_seed_never_ranks(make_player, finished_daily):
    game = finished_daily(make_player("Anna"), DATE)
    game.daily_date = DATE + datetime.timedelta(days=1)  # its moves were played on another deal
    assert daily.on_game_finished(game) is None
    assert not Entry.objects.exists()


def test_a_daily_that_started_from_another_position_never_ranks(make_player, finished_daily):  # R57
    game = finished_daily(make_player("Anna"), DATE)
    game.initial_position = Game.new(game.seed + 1).to_position()  # the right seed, another deal
    assert daily.on_game_finished(game) is None
    assert not Entry.objects.exists()


def test_the_replay_starts_from_the_stored_initial_position(make_player, finished_daily):
    from games.replay import replay_steps

    game = finished_daily(make_player("Anna"), DATE)
    game.initial_position = Game.new(7).to_position()  # e.g. a game started from a prepared position
    game.moves.all().delete()
    (deal,) = replay_steps(game)
    assert deal["view"] == Game.from_position(game.initial_position).public_view()
    assert deal["view"] != Game.new(game.seed).public_view()


def test_an_unfinished_replay_does_not_rank(make_player, finished_daily):
    game = finished_daily(make_player("Anna"), DATE)
    game.moves.order_by("-seq").first().delete()
    assert daily.on_game_finished(game) is None


def test_unranked_and_non_daily_games_write_nothing(make_player, finished_daily):
    player = make_player("Anna")
    assert daily.on_game_finished(finished_daily(player, DATE, ranked=False)) is None
    solo = finished_daily(player, DATE)
    solo.mode = "solo"
    assert daily.on_game_finished(solo) is None
    assert not Entry.objects.exists()


def test_a_second_ranked_game_of_the_date_does_not_rank_again(make_player, finished_daily):
    player = make_player("Anna")
    first = daily.on_game_finished(finished_daily(player, DATE, rng_seed=1))
    assert daily.on_game_finished(finished_daily(player, DATE, rng_seed=2)) is None
    assert list(Entry.objects.all()) == [first]


def test_a_banned_players_daily_is_recorded_hidden(make_player, finished_daily):
    player = make_player("Anna")
    player.banned = True
    player.save()
    entry = daily.on_game_finished(finished_daily(player, DATE))
    assert entry is not None and entry.hidden and entry.hidden_reason == daily.BANNED_AT_FINISH


def test_no_leaderboard_endpoint_accepts_a_score(client, make_player):
    for url in ["/api/leaderboard/daily/2026-05-01", "/api/leaderboard/week", "/api/leaderboard/all"]:
        answer = client.post(url, {"score": 100000}, content_type="application/json")
        assert answer.status_code == 405  # read-only boards
    assert not Entry.objects.exists()


def test_the_server_api_makes_the_second_daily_of_a_date_unranked(client):
    """The games API (the server helper's) ranks only the first daily of a date."""
    created = client.post("/api/games", {"mode": "daily"}, content_type="application/json")
    assert created.json()["ranked"] is True
    from games.models import Game

    Game.objects.filter(pk=created.json()["id"]).update(status="finished")
    again = client.post("/api/games", {"mode": "daily"}, content_type="application/json")
    assert again.json()["ranked"] is False and again.json()["id"] != created.json()["id"]
