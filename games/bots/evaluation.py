"""Score estimates: what a deal is worth so far, from a view (for the normal bot's going-out
choice) or from a complete position (for the hard bot's truncated rollouts).

Both count what R54 counts (melded cards, piles, red threes, cards left) and add a guess for
what is still to come: incomplete melds may become piles, and cards still held may be melded
before the deal ends. The guesses are heuristics; only R54 itself is exact.
"""

from __future__ import annotations

from typing import Any

from games.bots.cards import (
    PILE_BONUS,
    TEAM_OF,
    cards_of,
    is_red_three,
    is_wild,
    pile_kind,
    red_three_value,
    total_points,
)
from games.engine.records import Position, View

AVERAGE_CARD_POINTS = 11  # 2950 points in the 270 cards (R4)
# chance that an incomplete meld of n cards becomes a pile before the deal ends
COMPLETION_CHANCE = {3: 0.30, 4: 0.42, 5: 0.56, 6: 0.70}


def meld_value(cards: list[str], hopeful: bool = True) -> float:
    """R54 for one meld, plus (if hopeful) a share of the pile bonus it may still earn."""
    value = total_points(cards)
    kind = pile_kind(cards)
    if kind != "incomplete":
        return value + PILE_BONUS[kind]
    if not hopeful:
        return value
    bonus: float
    if all(is_wild(c) for c in cards):
        bonus = PILE_BONUS["wild"]
    elif any(is_wild(c) for c in cards):
        bonus = PILE_BONUS["dirty"]
    else:
        bonus = 0.8 * PILE_BONUS["clean"] + 0.2 * PILE_BONUS["dirty"]
    return value + COMPLETION_CHANCE.get(len(cards), 0.3) * bonus


def view_deal_estimate(view: View, team: str, *, hopeful: bool = False) -> float:
    """A team's deal score if the deal ended now, as the seat of the view can know it.

    The seat's own cards count exactly; other seats' hidden cards at the average value.
    """
    melds = (view["melds"].get(team) or {}).values()
    score: float = sum(meld_value(list(m["cards"]), hopeful) for m in melds)
    score += red_three_value(view) * view["red_threes"][team]
    for seat, info in view["seats"].items():
        if TEAM_OF[seat] != team:
            continue
        if seat == view.get("seat"):
            score -= sum(_points(card) * n for card, n in view["hand"].items())
        else:
            score -= AVERAGE_CARD_POINTS * info["cards"]
        score -= AVERAGE_CARD_POINTS * info["foot"]
    return score


def _points(card: str) -> int:
    return total_points([card])


def position_deal_estimate(position: Position, team: str, *, to_come: float = 0.5) -> float:
    """A team's deal score from a complete position, with `to_come` weighting hopes and fears.

    to_come = 0 is R54 exactly as if the deal ended now (without the going-out bonus); larger
    values credit incomplete melds with their chance of becoming piles and soften the penalty
    of cards still held (some of them will be melded).
    """
    score = 0.0
    red_value = red_three_value(position)
    for cards in position["melds"][team]:
        meld = cards_of(cards)
        exact = meld_value(meld, hopeful=False)
        score += exact + to_come * (meld_value(meld, hopeful=True) - exact)
    score += red_value * len(cards_of(position["red_threes"][team]))
    for seat in ("S", "W", "N", "E"):
        if TEAM_OF[seat] != team:
            continue
        held = cards_of(position["hands"][seat])
        score -= (1 - 0.5 * to_come) * total_points(held)
        foot = position["feet"][seat]
        if foot is not None:
            foot_cards = cards_of(foot)
            reds = sum(1 for c in foot_cards if is_red_three(c))
            # an unpicked foot: all its cards count against the team, its red threes too (R35),
            # unless it is picked up before the end (then its red threes turn into +100s)
            score -= (1 - 0.4 * to_come) * (total_points(foot_cards) + 2 * red_value * reds)
            score += red_value * reds
    return score


def deal_margin_spread(position: Position) -> float:
    """The standard deviation of how a deal's margin can still turn out: it shrinks as the stock
    runs out, so the hard bot trusts an estimate more late in a deal. A straight line in the
    stock's size, fitted to normal-vs-normal games (the fit and its data: docs/BOTS.md)."""
    return 800.0 + 7.5 * len(cards_of(position["stock"]))


def deal_score_totals(deal_score: dict[str, Any]) -> dict[str, float]:
    return {team: float(deal_score[team]["total"]) for team in ("NS", "EW")}


__all__ = [
    "AVERAGE_CARD_POINTS",
    "deal_margin_spread",
    "deal_score_totals",
    "meld_value",
    "position_deal_estimate",
    "view_deal_estimate",
]
