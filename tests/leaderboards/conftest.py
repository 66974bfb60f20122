"""Fixtures of the leaderboard tests: players, entries and finished daily games with real moves."""
import datetime
import uuid

import pytest
from django.utils import timezone

from lb_support import engine_or_skip, play_to_the_end


@pytest.fixture
def make_player(db):
    from leaderboards.models import Player

    def make(nickname=None, **fields):
        player = Player.objects.create(**fields)
        if nickname:
            from leaderboards.nicknames import set_nickname

            set_nickname(player, nickname)
            player.refresh_from_db()
        return player

    return make


@pytest.fixture
def make_entry(db):
    """An Entry written as on_game_finished would (its record refreshed), without playing a game."""
    from leaderboards.boards import refresh_record
    from leaderboards.models import Entry

    def make(player, date, score, opponents_score=0, network=""):
        result = "won" if score > opponents_score else "lost" if score < opponents_score else "draw"
        entry = Entry.objects.create(player=player, date=date, game_id=uuid.uuid4(), score=score,
                                     opponents_score=opponents_score, result=result,
                                     finished_at=timezone.now(), network=network)
        refresh_record(player)
        return entry

    return make


@pytest.fixture
def finished_daily(db):
    """A stored, finished daily Game of `date` for `player`, its moves from a real random game."""
    def make(player, date: datetime.date, rng_seed: int = 0, ranked: bool = True):
        engine_or_skip()
        from games.models import Game, Move
        from leaderboards.daily import daily_seed

        seed = daily_seed(date)
        seats = {"S": {"player": str(player.pk)}, "W": {"bot": "normal"}, "N": {"bot": "normal"},
                 "E": {"bot": "normal"}}
        log = play_to_the_end(seed, rng_seed)
        game = Game.objects.create(mode="daily", daily_date=date, ranked=ranked, seed=seed, seats=seats,
                                   status="finished", version=len(log), host=player)
        Move.objects.bulk_create([Move(game=game, seq=i + 1, seat=seat, action=action)
                                  for i, (seat, action) in enumerate(log)])
        return game

    return make
