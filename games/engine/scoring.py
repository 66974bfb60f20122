"""Scoring of a finished deal (R35, R54–R56)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.engine.cards import RED_THREES, points
from games.engine.melds import PILE_SIZE, pile_kind
from games.engine.records import DealScore
from games.engine.rules import STANDARD

PILE_BONUS = {"clean": 500, "dirty": 300, "wild": 1500}  # R54
GOING_OUT_BONUS = 100  # R54


def count_piles(melds: Iterable[Sequence[str]]) -> dict[str, int]:
    counts = {"clean": 0, "dirty": 0, "wild": 0}
    for meld in melds:
        if len(meld) >= PILE_SIZE:
            counts[pile_kind(meld)] += 1
    return counts


def team_deal_score(
    melds: Sequence[Sequence[str]],
    cards_held: Sequence[str],
    red_threes_laid: int,
    went_out: bool,
    red_three_value: int = STANDARD.red_three_value,
) -> dict[str, int]:
    """R54: one team's itemised deal score; `cards_held` are every card left in its hands and feet;
    `red_three_value` is R35's (V6)."""
    piles = count_piles(melds)
    red_left = sum(1 for c in cards_held if c in RED_THREES)
    item = {
        "melded": sum(points(m) for m in melds),
        "cards_left": -points(cards_held),
        "red_threes": red_three_value * (red_threes_laid - red_left),
        "piles": sum(PILE_BONUS[kind] * n for kind, n in piles.items()),
        "going_out": GOING_OUT_BONUS if went_out else 0,
    }
    item["total"] = sum(item.values())
    return item


def totals(deal_scores: Sequence[DealScore]) -> dict[str, int]:
    """R55: deal scores add up over the game."""
    return {team: sum(d[team]["total"] for d in deal_scores) for team in ("NS", "EW")}


def winner(deal_scores: Sequence[DealScore]) -> str:
    """R56: the higher total wins; equal totals are a draw."""
    t = totals(deal_scores)
    if t["NS"] == t["EW"]:
        return "draw"
    return "NS" if t["NS"] > t["EW"] else "EW"
