"""Melds: what a legal meld is (R15–R21) and what kind of pile a complete one is (R18).

A meld is a list of cards in the order they were laid. Its rank is the rank of its naturals,
or "wild" when it holds only wild cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.engine.cards import ALL_CARDS, NATURAL_RANKS, check_card, is_wild, parse_cards
from games.engine.errors import RuleError

PILE_SIZE = 7
MIN_MELD = 3
WILD = "wild"
# What a card is to a meld, looked up once: its rank for a natural, "W" for a wild card, "3" for a three.
MELD_KIND = {c: ("W" if is_wild(c) else c[0]) for c in ALL_CARDS}
NATURAL_KINDS = frozenset(NATURAL_RANKS)
WILD_COUNT = {c: int(kind == "W") for c, kind in MELD_KIND.items()}  # 1 for a wild card, to add up


def meld_rank(cards: Sequence[str]) -> str:
    """The rank of a meld: that of its first natural, or 'wild'."""
    for card in cards:
        kind = MELD_KIND[card]
        if kind != "W":
            return kind
    return WILD


def meld_problem(cards: Sequence[str]) -> RuleError | None:
    """Why these cards are not a legal meld (R15–R19), or None when they are."""
    if len(cards) > PILE_SIZE:
        return RuleError("meld_too_large", "R19")
    rank = None
    wild = 0
    for card in cards:
        kind = MELD_KIND[card]
        if kind == "W":
            wild += 1
        elif kind == "3":
            return RuleError("three_in_meld", "R17")
        elif rank is None:
            rank = kind
        elif kind != rank:
            return RuleError("mixed_ranks", "R15")
    naturals = len(cards) - wild
    if len(cards) < MIN_MELD:
        return RuleError("meld_too_small", "R15")
    if naturals and naturals < 2 * wild:
        return RuleError("too_many_wild", "R15")
    return None


def addition_problem(meld: Sequence[str], rank: str, added: Sequence[str]) -> RuleError | None:
    """Why `added` cannot join the incomplete `meld` of `rank` (R19, R21, R22), or None.

    Every caller passes a meld found by `Game.incomplete_meld_index`, and so knows its rank; an
    addition to a complete pile is refused before (`pile_complete`, R19, in `Game._plan_addition`)."""
    added_wild = 0
    for card in added:
        kind = MELD_KIND[card]
        if kind == "3":
            return RuleError("three_in_meld", "R17")
        if kind != "W":
            if rank == WILD:
                return RuleError("natural_to_wild_meld", "R21")
            if kind != rank:
                return RuleError("mixed_ranks", "R21")
            continue
        added_wild += 1
    # The meld itself is legal (R22 held before), so only the size and the ratio can break.
    total = len(meld) + len(added)
    if total > PILE_SIZE:
        return RuleError("meld_too_large", "R19")
    wild = added_wild + sum(map(WILD_COUNT.__getitem__, meld))
    if total - wild and total - wild < 2 * wild:
        return RuleError("too_many_wild", "R15")
    return None


def pile_kind(cards: Sequence[str]) -> str:
    """'incomplete' for 3–6 cards; for a pile of 7: 'clean', 'dirty' or 'wild' (R18)."""
    if len(cards) < PILE_SIZE:
        return "incomplete"
    kinds = set(map(MELD_KIND.__getitem__, cards))  # views and R49 ask this of every pile: kept cheap
    if kinds.isdisjoint(NATURAL_KINDS):
        return "wild"
    if "W" in kinds:
        return "dirty"
    return "clean"


def meld_status(cards: str | Iterable[object]) -> str:
    """R18: 'incomplete' | 'clean' | 'dirty' | 'wild'; raises RuleError if not a legal meld."""
    checked = parse_cards(cards) if isinstance(cards, str) else [check_card(c) for c in cards]
    problem = meld_problem(checked)
    if problem:
        raise problem
    return pile_kind(checked)
