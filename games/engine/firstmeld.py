"""The most points a set of cards can lay as new melds (for the first-meld minimum, R37–R40).

Used by `options` to know whether a team that is not yet down can take the discard pile, and by
the bots to find a first lay-down. Card values of naturals depend only on the rank and every wild
card can go anywhere, so the search is a small dynamic programme over ranks and the number of wild
cards used, followed by a placement of the actual cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TypeAlias

from games.engine.cards import CARD_POINTS, JOKER, NATURAL_RANKS, is_natural, is_wild
from games.engine.melds import PILE_SIZE

RANK_VALUE = {r: CARD_POINTS[r + "C"] for r in NATURAL_RANKS}
WILD_MELD = "wild"

Choice: TypeAlias = tuple[str, int, int]  # a rank, how many of its naturals, how many wild cards with them
Split: TypeAlias = tuple[tuple[int, int] | None, int]  # (incomplete meld (naturals, wild) or None, piles)
Table: TypeAlias = dict[int, tuple[int, tuple[Choice, ...]]]
CappedTable: TypeAlias = dict[tuple[int, int], tuple[int, tuple[Choice, ...]]]
Take: TypeAlias = tuple[int, list[str], list[list[str]]]  # (points, pickup cards, groups)


def _piles_only(naturals: int, wild: int) -> bool:
    """Can these cards of one rank form piles of 7 only (at most 2 wild cards per pile)?"""
    total = naturals + wild
    return total % PILE_SIZE == 0 and wild <= 2 * (total // PILE_SIZE)


@cache
def natural_split(naturals: int, wild: int) -> Split | None:
    """(incomplete (a, b) or None, number of piles) for naturals+wild of one rank, or None (R15, R20)."""
    if naturals == 0 and wild == 0:
        return (None, 0)
    if naturals > 0 and _piles_only(naturals, wild):
        return (None, (naturals + wild) // PILE_SIZE)
    for a in range(min(naturals, 6), 1, -1):
        for b in range(min(wild, a // 2) + 1):
            if 3 <= a + b <= 6 and _piles_only(naturals - a, wild - b):
                return ((a, b), (naturals - a + wild - b) // PILE_SIZE)
    return None


@cache
def best_naturals(count: int, wild: int) -> int:
    """The most naturals (of `count` held) one rank can meld together with exactly `wild` wild cards."""
    for n in range(count, 1, -1):
        if natural_split(n, wild):
            return n
    return 0


def wild_meld_size_ok(size: int) -> bool:
    """Wild cards alone: piles of 7 and at most one incomplete meld of 3–6 (R16, R20)."""
    return size == 0 or size % PILE_SIZE in (0, 3, 4, 5, 6)


def _natural_table(counts: dict[str, int], wild_total: int, banned: frozenset[str]) -> Table:
    """dp[t] = (best natural points, choices) using t wild cards inside natural melds."""
    dp: Table = {0: (0, ())}
    for rank, count in counts.items():
        if rank in banned or count < 2:
            continue
        grown = dict(dp)
        for used, (pts, choices) in dp.items():
            for w in range(min(wild_total - used, count // 2) + 1):
                n = best_naturals(count, w)
                if not n:
                    continue
                key, value = used + w, pts + n * RANK_VALUE[rank]
                if key not in grown or grown[key][0] < value:
                    grown[key] = (value, choices + ((rank, n, w),))
        dp = grown
    return dp


def _capped_natural_table(
    counts: dict[str, int], wild_total: int, banned: frozenset[str], max_cards: int
) -> CappedTable:
    """dp[(t, n)] = (best natural points, choices) with t wild cards and n cards in all (R47 caps n)."""
    dp: CappedTable = {(0, 0): (0, ())}
    for rank, count in counts.items():
        if rank in banned or count < 2:
            continue
        grown = dict(dp)
        for (used, cards), (pts, choices) in dp.items():
            for w in range(min(wild_total - used, count // 2) + 1):
                for n in range(2, count + 1):
                    if cards + n + w > max_cards or not natural_split(n, w):
                        continue
                    key, value = (used + w, cards + n + w), pts + n * RANK_VALUE[rank]
                    if key not in grown or grown[key][0] < value:
                        grown[key] = (value, choices + ((rank, n, w),))
        dp = grown
    return dp


def _best_plan(
    counts: dict[str, int],
    wild_values: list[int],
    banned: frozenset[str],
    wild_meld_allowed: bool,
    wild_already_used: int = 0,
    max_cards: int | None = None,
) -> tuple[int, tuple[Choice, ...], int, int]:
    """Best (points, natural choices, wild cards in natural melds, wild meld size)."""
    available = len(wild_values) - wild_already_used
    if max_cards is None:
        table = [(used, 0, pts, choices) for used, (pts, choices) in _natural_table(counts, available, banned).items()]
    else:
        table = [
            (used, cards, pts, choices)
            for (used, cards), (pts, choices) in _capped_natural_table(counts, available, banned, max_cards).items()
        ]
    best: tuple[int, tuple[Choice, ...], int, int] | None = None
    for used, cards, pts, choices in table:
        largest = available - used if max_cards is None else min(available - used, max_cards - cards)
        for size in range(largest + 1):
            if size and not (wild_meld_allowed and wild_meld_size_ok(size)):
                continue
            total = pts + sum(wild_values[: wild_already_used + used + size])
            if best is None or total > best[0]:
                best = (total, choices, used, size)
    assert best is not None, "laying nothing is always a plan"
    return best


def _split_groups(rank_cards: list[str], wilds: list[str], choice: Choice) -> list[list[str]]:
    _rank, n, w = choice
    naturals, wild = rank_cards[:n], wilds[:w]
    groups = []
    split = natural_split(n, w)
    assert split is not None, "a choice is made only of a split that exists"
    incomplete, piles = split
    if incomplete:
        a, b = incomplete
        groups.append(naturals[:a] + wild[:b])
        naturals, wild = naturals[a:], wild[b:]
    for _ in range(piles):
        k = min(2, len(wild))
        groups.append(naturals[: PILE_SIZE - k] + wild[:k])
        naturals, wild = naturals[PILE_SIZE - k :], wild[k:]
    return groups


def _wild_groups(wilds: list[str]) -> list[list[str]]:
    groups = [wilds[i : i + PILE_SIZE] for i in range(0, len(wilds), PILE_SIZE)]
    return groups


def _sorted_wilds(cards: Iterable[str]) -> list[str]:
    return sorted((c for c in cards if is_wild(c)), key=lambda c: -CARD_POINTS[c])


def best_new_melds(
    cards: Sequence[str],
    banned_ranks: Iterable[str] = (),
    wild_meld_allowed: bool = True,
    wild_already_used: int = 0,
    wilds: list[str] | None = None,
    max_cards: int | None = None,
) -> tuple[int, list[list[str]]]:
    """(points, groups): the most points `cards` can lay as new melds (using at most `max_cards`
    cards when given), and one way to lay them."""
    wilds = _sorted_wilds(cards) if wilds is None else wilds
    by_rank: dict[str, list[str]] = {}
    for c in cards:
        if is_natural(c):
            by_rank.setdefault(c[0], []).append(c)
    counts = {r: len(v) for r, v in by_rank.items()}
    values = [CARD_POINTS[c] for c in wilds]
    total, choices, _used, size = _best_plan(
        counts, values, frozenset(banned_ranks), wild_meld_allowed, wild_already_used, max_cards
    )
    pool = wilds[wild_already_used:]
    groups = []
    for choice in choices:
        groups += _split_groups(by_rank[choice[0]], pool, choice)
        pool = pool[choice[2] :]
    if size:
        groups += _wild_groups(pool[:size])
    return total - sum(values[:wild_already_used]), groups


def best_take(cards: Iterable[str], top: str, max_cards: int | None = None) -> Take | None:
    """(points, pickup cards, groups) of the best first-meld take of `top` with `cards` (using at most
    `max_cards` of them when given: R47 in the foot), or None (R29, R40)."""
    held = list(cards)
    if is_wild(top):
        return _best_wild_take(held, top, max_cards)
    rank = top[0]
    same = [c for c in held if is_natural(c) and c[0] == rank]
    others = [c for c in held if not (is_natural(c) and c[0] == rank)]
    wilds = _sorted_wilds(others)
    non_wild_rest = [c for c in others if not is_wild(c)]
    best: Take | None = None
    for a in range(2, min(len(same), 6) + 1):
        for b in range(min(len(wilds), 2) + 1):
            size = 1 + a + b
            if size > PILE_SIZE or 1 + a < 2 * b:
                continue
            rest = non_wild_rest + same[a:] + wilds
            banned: tuple[str, ...] = () if size == PILE_SIZE else (rank,)
            cap = None if max_cards is None else max_cards - a - b
            if cap is not None and cap < 0:
                continue
            pts, groups = best_new_melds(rest, banned, True, b, wilds, cap)
            pickup = same[:a] + wilds[:b]
            total = CARD_POINTS[top] + sum(CARD_POINTS[c] for c in pickup) + pts
            if best is None or total > best[0]:
                best = (total, pickup, groups)
    return best


def _best_wild_take(cards: list[str], top: str, max_cards: int | None = None) -> Take | None:
    matching = [c for c in cards if (c == JOKER) == (top == JOKER) and is_wild(c)]
    best: Take | None = None
    for a in range(2, min(len(matching), 6) + 1):
        remaining = list(cards)
        for c in matching[:a]:
            remaining.remove(c)
        wilds = _sorted_wilds(remaining)
        for b in range(min(len(wilds), PILE_SIZE - 1 - a) + 1):
            complete = 1 + a + b == PILE_SIZE
            rest = [c for c in remaining if not is_wild(c)] + wilds
            cap = None if max_cards is None else max_cards - a - b
            if cap is not None and cap < 0:
                continue
            pts, groups = best_new_melds(rest, (), complete, b, wilds, cap)
            pickup = matching[:a] + wilds[:b]
            total = CARD_POINTS[top] + sum(CARD_POINTS[c] for c in pickup) + pts
            if best is None or total > best[0]:
                best = (total, pickup, groups)
    return best


def max_first_meld_points(cards: Iterable[str]) -> int:
    return best_new_melds(list(cards))[0]


__all__ = ["best_new_melds", "best_take", "max_first_meld_points", "natural_split"]
