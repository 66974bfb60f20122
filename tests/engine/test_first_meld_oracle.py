"""firstmeld's dynamic programme against a brute-force search over small random hands.

`firstmeld` finds the most points of a first lay-down by a dynamic programme over ranks and
wild cards (docs/ENGINE.md). Here an independent search tries every way to lay a hand as new
melds, one meld at a time (R15–R20: 3 to 7 cards, one natural rank with at least twice as many
naturals as wild cards, or wild cards only, and at most one incomplete meld of a rank), and every
pickup of a take (R29b, R30), within R47's card cap when one is given. The programme must reach
exactly the best total, and what it returns must be a legal lay-down of exactly those points.
"""

from collections import Counter
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import card_points
from games.engine.firstmeld import best_new_melds, best_take, max_first_meld_points

from .helpers import game_at

POOL = "9C 9D 9H 9S 9C 9D 9H 9S AC AD AH KC KD 5C 5D 5H 2C 2D 2H 2S JK JK JK 3C 7S 7D".split()
NO_CAP = 99


def is_wild(card):  # R3
    return card == "JK" or card[0] == "2"


def meld_rank(meld):
    naturals = {c[0] for c in meld if not is_wild(c)}
    return naturals.pop() if naturals else "wild"


def legal_meld(meld):  # R15–R19
    naturals = [c for c in meld if not is_wild(c)]
    if not 3 <= len(meld) <= 7 or any(c[0] == "3" for c in meld) or len({c[0] for c in naturals}) > 1:
        return False
    return not naturals or len(naturals) >= 2 * (len(meld) - len(naturals))


def melds_with(first, rest):
    """Every multiset of cards from `rest` that forms a legal meld together with `first`."""
    counts = sorted(Counter(rest).items())
    for chosen in product(*(range(n + 1) for _, n in counts)):
        meld = (first,) + tuple(c for (c, _), k in zip(counts, chosen, strict=True) for _ in range(k))
        if legal_meld(meld):
            remaining = list(rest)
            for card in meld[1:]:
                remaining.remove(card)
            yield meld, tuple(remaining)


@cache
def best_lay(cards: tuple, banned: frozenset, incomplete: frozenset, cap: int) -> int:
    """The most points `cards` (sorted) can lay as new melds using at most `cap` of them, with no
    meld of a `banned` rank and no second incomplete meld of a rank in `incomplete` (R20)."""
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = best_lay(rest, banned, incomplete, cap)  # the first card is not laid
    for meld, remaining in melds_with(first, rest):
        rank, complete = meld_rank(meld), len(meld) == 7
        if len(meld) > cap or rank in banned or (not complete and rank in incomplete):
            continue
        now_incomplete = incomplete if complete else incomplete | {rank}
        points = sum(card_points(c) for c in meld)
        best = max(best, points + best_lay(remaining, banned, now_incomplete, cap - len(meld)))
    return best


def oracle_new_melds(hand, cap=NO_CAP):
    return best_lay(tuple(sorted(hand)), frozenset(), frozenset(), cap)


def matches(card, top):  # R29b
    if top == "JK":
        return card == "JK"
    if is_wild(top):
        return card != "JK" and is_wild(card)
    return card[0] == top[0]


def oracle_take(hand, top, cap=NO_CAP):
    """The best take of `top`: a pickup meld of the top, two matching cards and maybe more (at most
    7 cards, R30), then the best new melds of the rest, none of the pickup's rank while it is
    incomplete (R20, R30). None when no pickup is legal."""
    best = None
    for size in range(2, 7):
        for pickup in set(combinations_of(hand, size)):
            meld = (top,) + pickup
            if sum(matches(c, top) for c in pickup) < 2 or not legal_meld(meld) or len(pickup) > cap:
                continue
            if any(not matches(c, top) and not is_wild(c) for c in pickup):  # R30: no other naturals
                continue
            rest = list(hand)
            for card in pickup:
                rest.remove(card)
            banned = frozenset() if len(meld) == 7 else frozenset({meld_rank(meld)})
            total = sum(card_points(c) for c in meld) + best_lay(
                tuple(sorted(rest)), banned, frozenset(), cap - len(pickup)
            )
            best = total if best is None else max(best, total)
    return best


def combinations_of(hand, size):
    return (tuple(sorted(c)) for c in combinations(hand, size))


def small_hand(data, max_size):
    hand = data.draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=max_size))
    return [c for i, c in enumerate(hand) if hand[:i].count(c) < POOL.count(c)]


def assert_a_legal_lay_down(hand, groups, points, cap=NO_CAP):
    """The groups are legal new melds of the hand's cards, at most one incomplete per rank (R20),
    use at most `cap` cards and are worth `points`."""
    left = Counter(hand)
    for group in groups:
        assert legal_meld(group), group
        left.subtract(group)
    assert min(left.values(), default=0) >= 0, (hand, groups)
    incomplete = [meld_rank(g) for g in groups if len(g) < 7]
    assert len(incomplete) == len(set(incomplete)), groups
    assert sum(len(g) for g in groups) <= cap
    assert sum(card_points(c) for g in groups for c in g) == points


@settings(max_examples=150, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_best_new_melds_reach_the_brute_force_best(data):  # R15, R16, R18, R19, R20, R39
    hand = small_hand(data, 11)
    points, groups = best_new_melds(hand)
    assert points == oracle_new_melds(hand) == max_first_meld_points(hand), hand
    assert_a_legal_lay_down(hand, groups, points)


@settings(max_examples=100, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_best_new_melds_within_a_card_cap(data):  # R47: the foot caps the cards laid
    hand = small_hand(data, 10)
    cap = data.draw(st.integers(0, len(hand)))
    points, groups = best_new_melds(hand, max_cards=cap)
    assert points == oracle_new_melds(hand, cap), (hand, cap)
    assert_a_legal_lay_down(hand, groups, points, cap)


@settings(max_examples=120, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_best_take_reaches_the_brute_force_best(data):  # R29b, R30, R20, R40
    hand = small_hand(data, 9)
    top = data.draw(st.sampled_from(["9D", "AS", "5S", "KH", "2H", "JK"]))
    capped = data.draw(st.booleans())
    cap = data.draw(st.integers(2, len(hand))) if capped and len(hand) >= 2 else None
    found = best_take(hand, top, max_cards=cap)
    expected = oracle_take(hand, top, NO_CAP if cap is None else cap)
    assert (found and found[0]) == expected, (hand, top, cap, found)
    if found:
        total, pickup, groups = found
        assert len(pickup) + sum(len(g) for g in groups) <= (NO_CAP if cap is None else cap)
        game = game_at(hands={"S": " ".join(hand)}, discard="4C " + top, down={"NS": False, "EW": False})
        action = {"type": "take_pile", "cards": pickup, "groups": [{"cards": g} for g in groups]}
        result = game.check("S", action)
        if total >= 50:  # R37: deal 1
            assert result == {"ok": True, "points": total}, (action, result)
        else:
            assert result["code"] == "below_first_meld_minimum", (action, result)


@pytest.mark.parametrize(
    "hand, cap",
    [
        ("9C 9D 9H JK JK JK JK", 6),  # the cap leaves room for a wild meld of 3 beside the 9s, not 4
        ("9C 9D 9H 9S JK JK JK 2C", 7),
        ("KC KD KH 2C JK JK JK", 5),
    ],
)
def test_a_capped_wild_meld_beside_natural_melds(hand, cap):  # R16, R47
    points, groups = best_new_melds(hand.split(), max_cards=cap)
    assert points == oracle_new_melds(hand.split(), cap)
    assert_a_legal_lay_down(hand.split(), groups, points, cap)


def test_two_natural_piles_share_three_wild_cards():  # R15, R18: at most two wild cards in a pile
    # With no wild meld allowed (as beside an incomplete wild pickup), all 14 cards are laid only
    # as two piles of 9s holding two and one wild cards.
    hand = "9C 9D 9H 9C 9D 9H 9C 9D 9H 9S 9S 2C 2D JK".split()
    points, groups = best_new_melds(hand, wild_meld_allowed=False)
    assert points == 11 * 10 + 20 + 20 + 50  # every card laid, as two piles of 7
    assert sorted(len(g) for g in groups) == [7, 7]
    assert_a_legal_lay_down(hand, groups, points)
