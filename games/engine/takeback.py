"""Undo within a turn (docs/RULES.md V7): the points a turn may go back to, and their notation.

Under `Rules.undo` every meld action of the player to act first keeps an *undo point*: the
player's cards, the team's melds and whether the team was down, as they were before it. An
`{"type": "undo"}` goes back to the latest point (one meld action per undo). A draw, a take of
the pile, a foot picked up and a discard end the points' life: undo never goes back past a card
the player has seen (a draw's or a take's cards, a foot's), nor past a discard. Nothing else
changes within a turn's melds (the stock, the pile, the red threes, the feet stay as they were),
so the point holds all that an undo restores. A position carries the points (`undo`), so a
replay of a game with undos reproduces it exactly. Pure: no Django.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from games.engine.cards import check_card, format_cards
from games.engine.errors import RuleError
from games.engine.records import Event
from games.engine.seats import TEAM_OF

if TYPE_CHECKING:
    from games.engine.game import Game


class UndoPoint(NamedTuple):
    """The player's cards, the team's melds and `down` before one meld action (immutable, so a
    copied game may share it)."""

    hand: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    down: bool


def undo_point(game: Game, seat: str) -> UndoPoint:
    team = TEAM_OF[seat]
    return UndoPoint(tuple(game.hands[seat]), tuple(tuple(m) for m in game.melds[team]), game.down[team])


def restore(game: Game, seat: str, point: UndoPoint) -> Event:
    """Put the table back as `point` had it; the event names the cards that came back to the hand."""
    team = TEAM_OF[seat]
    back = Counter(point.hand) - Counter(game.hands[seat])
    game.hands[seat] = list(point.hand)
    game.melds[team] = [list(m) for m in point.melds]
    game.down[team] = point.down
    cards = []
    for card in point.hand:  # in the order the hand will hold them
        if back[card] > 0:
            back[card] -= 1
            cards.append(card)
    return {"type": "undo", "seat": seat, "team": team, "cards": cards}


def points_notation(points: list[UndoPoint]) -> list[dict[str, Any]]:
    """The position's `undo`: oldest point first (docs/NOTATION.md)."""
    return [{"hand": format_cards(p.hand), "melds": [format_cards(m) for m in p.melds], "down": p.down} for p in points]


def points_from_notation(game: Game, value: object) -> list[UndoPoint]:
    """The position's `undo` read back and checked against the game already read: only under V7,
    only while the player to act melds, and each point must lead to the next (and the last to
    the table) by melds alone: its melds grow into the next's, the same cards in hand and melds."""
    if not game.rules.undo:
        raise _invalid("'undo' needs a table that allows undo (V7)")
    if game.phase != "play" or game.turn is None:
        raise _invalid("'undo' exists only while the player to act melds")
    if not isinstance(value, list) or not value:
        raise _invalid("'undo' is a non-empty list of points")
    points = [_point(item) for item in value]
    seat = game.turn
    current = undo_point(game, seat)
    for earlier, later in zip(points, [*points[1:], current], strict=True):
        _check_leads_to(earlier, later)
    return points


def _point(item: object) -> UndoPoint:
    if not isinstance(item, dict) or set(item) != {"hand", "melds", "down"}:
        raise _invalid("an undo point holds 'hand', 'melds' and 'down'")
    hand, melds, down = item["hand"], item["melds"], item["down"]
    if not isinstance(down, bool) or not isinstance(melds, list):
        raise _invalid("an undo point's 'down' is true or false and its 'melds' a list")
    return UndoPoint(_cards(hand), tuple(_cards(m) for m in melds), down)


def _cards(text: object) -> tuple[str, ...]:
    if not isinstance(text, str):
        raise _invalid("an undo point's cards are a string of cards")
    try:
        return tuple(check_card(c) for c in text.split())
    except RuleError:
        raise _invalid("an undo point holds a card name that does not exist") from None


def _check_leads_to(earlier: UndoPoint, later: UndoPoint) -> None:
    if (earlier.down and not later.down) or (not earlier.down and earlier.melds):
        raise _invalid("an undo point's 'down' does not fit its melds")
    grown = len(earlier.melds) <= len(later.melds) and all(
        later.melds[i][: len(meld)] == meld for i, meld in enumerate(earlier.melds)
    )
    if not grown or _all_cards(earlier) != _all_cards(later) or earlier == later:
        raise _invalid("an undo point does not lead to the next by melds of the player's cards")


def _all_cards(point: UndoPoint) -> Counter[str]:
    counts = Counter(point.hand)
    for meld in point.melds:
        counts.update(meld)
    return counts


def _invalid(reason: str) -> RuleError:
    return RuleError("invalid_position", None, reason=reason)
