"""The daily's rules for play, in one place: until when it is ranked, no hint while it is ranked,
and its deals kept from everyone else until its date is over.

- **Deadline**: a ranked daily played past its date's deadline (games.daily_clock: the end of the
  UTC date plus the grace) stops being ranked on its first late move. Moves after it still play;
  the room marks the game `ranked = False, lapsed = True` once, so the leaderboards (which rank
  only `ranked` dailies) record nothing for it, and the table can say why it no longer counts.
  Why a deadline at all: docs/LEADERBOARDS.md.
- **Ranked**: only the first daily of a date is ranked (games.rooms.creation's registered mode
  decides it when it makes the game); `counted_date` is the one reading of "still counts".
- **No hint**: a ranked daily gets no hint, whatever the page shows (games.rooms.turns asks here).
- **Deals kept**: a daily's deals are everyone's deals that day, so nobody without a seat may
  watch it, nobody may look back at it and no replay shows it before its date is over.

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


def hint_allowed(game: Game) -> bool:
    """A hint is refused in a ranked daily (the score would not be the player's own)."""
    return not (game.mode == Game.DAILY and game.ranked)


def deals_still_secret(game: Game) -> bool:
    """A daily whose date is not over: its deals are everyone's deals that day, so nobody without
    a seat watches it and nobody looks back at it yet."""
    return game.mode == Game.DAILY and game.daily_date is not None and not daily_clock.is_closed(game.daily_date)


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
