"""The first-meld search (games/engine/firstmeld.py) behind options()["take_pile"] and the bots.

`best_take(cards, top, max_cards)` must find the most points a team that is not yet down can lay
by taking the pile (R29, R30, R37–R40), within R47's card cap in the foot, and what it returns
must be a take that `check` accepts for exactly those points. The expected totals below are
worked out by hand from R4's card values.
"""

import pytest

from games.engine.firstmeld import best_new_melds, best_take, max_first_meld_points

from .helpers import cards, game_at


def as_action(found):
    _, pickup, groups = found
    return {"type": "take_pile", "cards": pickup, "groups": [{"cards": g} for g in groups]}


def assert_checks_for(hand, top, found):
    """The take found is legal for South in deal 1 (50) and lays exactly the points claimed."""
    game = game_at(hands={"S": hand}, discard="5C " + top, down={"NS": False, "EW": False})
    assert game.check("S", as_action(found)) == {"ok": True, "points": found[0]}


# (hand, top, best points, why)
WILD_TOPS = [
    # 2H + 2C 2D + four jokers is a dirty-free wild pile of 7 (260); the fifth joker cannot meld
    # alone (R15), and a bigger pickup would be more than 7 cards (R19).
    ("2C 2D JK JK JK JK JK 4H 6S", "2H", 260),
    # Every wild card can be laid: a wild pile of 7 from the pickup and a wild meld of 3 beside
    # it (R16, R20: only one incomplete wild meld, allowed because the pickup is complete).
    ("2C 2D JK JK JK JK JK 2S 2S 4H 6S", "2H", 350),
    # A joker on top takes two jokers (R29b); the 2s complete the pile and the rest meld apart.
    ("JK JK 2C 2D 2S 2H 2H 2C 2D 4H", "JK", 290),
    # A 2 on top, only wild cards: an incomplete pickup of 6 (top, two 2s, three jokers), and no
    # second incomplete wild meld (R20).
    ("2C 2D JK JK JK 4H 6S", "2H", 210),
]


@pytest.mark.parametrize("hand, top, best", WILD_TOPS)
def test_best_take_of_a_wild_top(hand, top, best):  # R16, R19, R20, R29b, R40
    found = best_take(cards(hand), top)
    assert found is not None
    assert found[0] == best
    assert_checks_for(hand, top, found)


@pytest.mark.parametrize(
    "max_cards, best",
    [
        (None, 225),  # 2H 2C 2D JK JK (160) and 5C 5D 5H JK (65)
        (5, 210),  # five cards: 2C 2D and three jokers with the top
        (4, 160),
        (3, 110),
        (2, 60),
        (1, None),  # a pair is needed (R29b)
    ],
)
def test_best_wild_take_within_the_foot_cap(max_cards, best):  # R29b, R40, R47
    hand = "2C 2D JK JK JK 5C 5D 5H"
    found = best_take(cards(hand), "2H", max_cards=max_cards)
    if best is None:
        assert found is None
        return
    assert found is not None
    assert found[0] == best
    assert len(found[1]) + sum(len(g) for g in found[2]) <= (max_cards or 99)
    assert_checks_for(hand, "2H", found)


def test_best_new_melds_lays_wild_cards_as_piles_and_one_incomplete_meld():  # R16, R18, R20
    points, groups = best_new_melds(cards("JK JK JK 2C 2D 2S 2H 2H 2C 2D"))
    assert points == 3 * 50 + 7 * 20
    assert sorted(len(g) for g in groups) == [3, 7]
    assert sorted(c for g in groups for c in g) == sorted(cards("JK JK JK 2C 2D 2S 2H 2H 2C 2D"))


def test_max_first_meld_points():  # R16, R39
    assert max_first_meld_points(cards("JK JK JK 2C 4H")) == 170  # a wild meld of four
    assert max_first_meld_points(cards("KC KD KH 4H 6S")) == 30
    assert max_first_meld_points(cards("KC KD 4H 6S")) == 0


@pytest.mark.parametrize(
    "max_cards, best",
    [
        (None, 155),  # KH KC KD, 9C 9D 9H 9S JK, 5C 5D 5H 2C: every card but 4H 6S
        (9, 140),  # KC KD and 9C 9D 9H 9S JK 2C
        (8, 140),
        (7, 130),  # KC KD JK and 9C 9D 9H 2C
        (6, 120),
        (5, 100),  # KC KD and 9C 9D JK
        (4, 80),  # KC KD JK: nothing else fits in one card
        (3, 80),
        (2, 30),
        (1, None),
    ],
)
def test_best_natural_take_within_the_foot_cap(max_cards, best):  # R15, R29b, R40, R47
    hand = "KC KD 9C 9D 9H 9S 5C 5D 5H 2C JK 4H 6S"
    found = best_take(cards(hand), "KH", max_cards=max_cards)
    if best is None:
        assert found is None
        return
    assert found is not None
    assert found[0] == best
    assert len(found[1]) + sum(len(g) for g in found[2]) <= (max_cards or 99)
    if best >= 50:
        assert_checks_for(hand, "KH", found)


@pytest.mark.parametrize(
    "naturals, wild, split",
    [
        (0, 0, (None, 0)),
        (3, 0, ((3, 0), 0)),
        (2, 1, ((2, 1), 0)),
        (6, 0, ((6, 0), 0)),
        (7, 0, (None, 1)),  # a clean pile
        (5, 2, (None, 1)),  # a dirty pile: 5 naturals carry 2 wild cards (R15)
        (14, 0, (None, 2)),
        (10, 4, (None, 2)),
        (12, 2, (None, 2)),
        (9, 1, ((3, 0), 1)),  # a pile of 6 naturals and the wild card, and 3 naturals beside it
        (4, 3, None),  # 4 naturals carry at most 2 wild cards
        (9, 0, None),  # 7 + 2: a second, incomplete meld of 2 is too small (R15, R20)
        (8, 1, None),
        (12, 3, None),
    ],
)
def test_natural_split_of_one_rank(naturals, wild, split):  # R15, R18, R20
    from games.engine.firstmeld import natural_split

    assert natural_split(naturals, wild) == split


def test_wild_meld_sizes():  # R16, R20: piles of 7 and at most one incomplete wild meld of 3-6
    from games.engine.firstmeld import wild_meld_size_ok

    assert [n for n in range(16) if wild_meld_size_ok(n)] == [0, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14]


@pytest.mark.parametrize(
    "hand, best",
    [
        # Six kings with the top are a clean pile (70); the seventh king cannot meld alone (R15).
        ("KC KD KS KC KD KS KC 4H", 70),
        # The pile takes 4 or 5 kings and the wild cards; the kings left over make a second,
        # incomplete king meld beside the complete pile (R20 allows it): every card but 4H.
        ("KC KD KS KC KD KS KC 2C JK 4H", 150),
        # KH and three kings carry two wild cards (4 >= 2 x 2, R15): 110.
        ("KC KD KS 2C JK 4H 6S", 110),
    ],
)
def test_best_take_of_a_natural_top(hand, best):  # R15, R18, R20, R29b, R40
    found = best_take(cards(hand), "KH")
    assert found is not None
    assert found[0] == best
    assert_checks_for(hand, "KH", found)


def test_a_capped_take_lays_no_second_meld_of_the_top_rank_beside_an_incomplete_pickup():  # R20, R30, R47
    # Eight 9s and a 9 on top: the pickup of seven (70) is the best; a pickup of three with a
    # second 9 meld of six beside it (90) would be two incomplete 9 melds.
    found = best_take(cards("9C 9C 9D 9D 9H 9H 9S 9S"), "9D", max_cards=8)
    assert found is not None
    assert found[0] == 70 and len(found[1]) == 6 and found[2] == []
    uncapped = best_take(cards("9C 9C 9D 9D 9H 9H 9S 9S"), "9D")
    assert uncapped is not None and uncapped[0] == 70
