"""purge_games: abandoned unfinished games and players who never played go; the rest stays."""

import datetime
import uuid
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import Game, Move
from games.rooms.creation import create_game
from games.rooms.moves import apply_move
from leaderboards.models import Entry
from players.models import Player

pytestmark = pytest.mark.django_db


def age(model, pk, days, field):
    model.objects.filter(pk=pk).update(**{field: timezone.now() - datetime.timedelta(days=days)})


def test_purge_deletes_old_unfinished_games_and_idle_players_only():
    old_player, idle_player, fresh_idle, finisher = (Player.objects.create() for _ in range(4))
    abandoned, _ = create_game(old_player, "solo", "easy")
    apply_move(abandoned.id, "S", {"type": "draw"}, 0)
    recent, _ = create_game(Player.objects.create(), "solo", "easy")
    finished, _ = create_game(finisher, "solo", "easy")
    Game.objects.filter(pk=finished.id).update(status=Game.FINISHED)
    for game in (abandoned, finished):
        age(Game, game.id, 40, "updated")
    for player in (old_player, idle_player, finisher):
        age(Player, player.pk, 40, "created_at")

    dry = StringIO()
    call_command("purge_games", "--dry-run", stdout=dry)
    assert "would delete 1 abandoned games and 2 players" in dry.getvalue()
    assert Game.objects.count() == 3

    out = StringIO()
    call_command("purge_games", stdout=out)
    assert "deleted 1 abandoned games and 2 players" in out.getvalue()
    assert set(Game.objects.values_list("pk", flat=True)) == {recent.id, finished.id}
    assert not Move.objects.filter(game_id=abandoned.id).exists()
    remaining = set(Player.objects.values_list("pk", flat=True))
    assert old_player.pk not in remaining and idle_player.pk not in remaining
    assert fresh_idle.pk in remaining and finisher.pk in remaining


def test_purge_keeps_an_idle_player_another_app_needs():
    """games knows only seats; leaderboards keeps a player with a ranked entry (games.keepers)."""
    ranked, idle = Player.objects.create(), Player.objects.create()
    Entry.objects.create(
        player=ranked,
        date=datetime.date(2026, 1, 5),
        game_id=uuid.uuid4(),
        score=1200,
        opponents_score=900,
        result="won",
        finished_at=timezone.now(),
    )
    for player in (ranked, idle):
        age(Player, player.pk, 40, "created_at")
    out = StringIO()
    call_command("purge_games", stdout=out)
    assert "deleted 0 abandoned games and 1 players" in out.getvalue()
    assert set(Player.objects.values_list("pk", flat=True)) == {ranked.pk}


def test_purge_help_states_the_ages():
    from games.management.commands.purge_games import Command

    assert "--game-days days (default 30)" in Command.help and "(default 30)" in Command.help.split("players")[1]


def test_a_lobby_nobody_started_goes_after_a_day_and_a_fresh_or_started_one_stays():
    host = Player.objects.create()
    stale, _ = create_game(host, "friends")
    fresh, _ = create_game(host, "friends")
    started, _ = create_game(host, "friends")
    Game.objects.filter(pk=started.id).update(status=Game.PLAYING)
    for game in (stale, started):
        age(Game, game.id, 1.1, "updated")

    dry = StringIO()
    call_command("purge_games", "--dry-run", stdout=dry)
    assert "1 lobbies nobody started within 24 hours" in dry.getvalue()
    assert Game.objects.count() == 3

    out = StringIO()
    call_command("purge_games", stdout=out)
    assert "deleted 0 abandoned games" in out.getvalue() and "1 lobbies nobody started" in out.getvalue()
    assert set(Game.objects.values_list("pk", flat=True)) == {fresh.id, started.id}
    assert host.pk in set(Player.objects.values_list("pk", flat=True))  # still seated in two games
