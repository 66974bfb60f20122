"""A ranked daily played past its date's deadline stops being ranked, on its first late move.

The deadline is games.daily_clock's (the end of the UTC date plus the grace). Moves after it still
play; the room marks the game `ranked = False, lapsed = True` once, so the leaderboards (which
rank only `ranked` dailies) record nothing for it, and the table can say why it no longer counts.
Why a deadline at all: docs/LEADERBOARDS.md.

May call games.daily_clock and games.models; it sends nothing (games.rooms.broadcast tells the
game's sockets when a move's result says it lapsed).
"""

import datetime

from games import daily_clock
from games.models import Game


def counted_date(game: Game) -> datetime.date | None:
    """The date of a ranked daily that still counts for that date's board (until its deadline);
    None for any other game."""
    return game.daily_date if game.mode == Game.DAILY and game.ranked else None


def ranked_until(game: Game) -> datetime.datetime | None:
    """When a ranked daily stops counting; None for any other game."""
    date = counted_date(game)
    return daily_clock.ranked_until(date) if date is not None else None


def lapse_if_late(game: Game, moved_at: datetime.datetime) -> bool:
    """After a committed move stored at `moved_at`: unrank a ranked daily whose deadline has passed.

    True only for the move that lapsed it: the UPDATE is conditional on `ranked`, so of two
    processes that both see a late move, one reports it. `game` (the caller's copy of the row,
    kept in memory for the next move) says the same afterwards.
    """
    date = counted_date(game)
    if date is None or daily_clock.counts_at(date, moved_at):
        return False
    changed = Game.objects.filter(pk=game.pk, ranked=True).update(ranked=False, lapsed=True)
    game.ranked, game.lapsed = False, True
    return changed == 1
