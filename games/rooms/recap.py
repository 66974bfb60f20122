"""What happened while a friend was away, for the first `state` after they come back: the stored
moves made since their seat lost its socket, replayed by the engine from the game's initial
position, each move's events redacted for that seat exactly as its patch was (engine.redact_events:
another seat's drawn cards counted, never shown) and followed by a computer move's reason. Deal
ends are among those events, so the recap runs on across them.

Read from the move log every process shares, so it does not matter how long the friend was away,
how many deals ended meanwhile, or which process they come back to. Only the last RECAP_MOVES
moves are sent, with the count of the earlier ones.

May call the engine, games.models, games.replay and moves (a move's reason event).
"""

import datetime
from typing import Any

from django.utils import timezone

from games import engine
from games.models import Game
from games.replay import initial_game
from games.rooms.moves import with_reason

# A seat gone for less than this (a page reload) gets no "while you were away" recap.
RECAP_AFTER_SECONDS = 5.0
# The moves a recap tells at most (the page words each as one line of the log).
RECAP_MOVES = 40


def recap_for(game: Game, seat: str | None, since: datetime.datetime | None) -> dict[str, Any] | None:
    """{"from": the first version made after `since` (the start of the seat's absence), "v": the
    row's version, "earlier": how many moves from `from` on are left out, "moves": [{"v", "events"}]}
    for the seat, or None: no seat, an absence no longer than a reload, nothing happened meanwhile."""
    if seat is None or since is None or (timezone.now() - since).total_seconds() < RECAP_AFTER_SECONDS:
        return None
    if game.status == Game.LOBBY or game.initial_position is None:
        return None
    moves = list(
        game.moves.filter(seq__lte=game.version)
        .order_by("seq")
        .values_list("seq", "seat", "action", "reason", "created")
    )
    first = next((row[0] for row in moves if row[4] >= since), None)
    if first is None:
        return None
    shown_from = max(first, game.version - RECAP_MOVES + 1)
    return {
        "from": first,
        "v": game.version,
        "earlier": shown_from - first,
        "moves": told(game, moves, shown_from, seat),
    }


def told(game: Game, moves: list[Any], shown_from: int, seat: str) -> list[Any]:
    """Each move from version `shown_from` on, as {"v", "events"} redacted for `seat`: the engine
    replays the log from the initial position, since a move's events need the position before it."""
    replayed = initial_game(game)
    entries = []
    for seq, mover, action, reason, _created in moves:
        events = replayed.apply(mover, action)
        if seq >= shown_from:
            entries.append({"v": seq, "events": engine.redact_events(with_reason(events, mover, reason), seat)})
    return entries
