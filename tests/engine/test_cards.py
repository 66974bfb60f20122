"""Cards and deck (docs/RULES.md §1): composition, wild cards, card values, card notation."""

from collections import Counter

import pytest

from games.engine import Game, RuleError, card_points, meld_status, parse_cards

from .helpers import canonical_deck, cards, count_all_cards


def test_new_game_holds_the_270_cards_of_five_decks():  # R1
    pos = Game.new(seed=7).to_position()
    count_all_cards(pos)
    assert len(canonical_deck()) == 270


def test_each_rank_has_twenty_cards_and_there_are_ten_jokers():  # R2
    deck = Counter(canonical_deck())
    for rank in "456789TJQKA23":
        assert sum(n for card, n in deck.items() if card[0] == rank and card != "JK") == 20
    assert deck["JK"] == 10
    assert deck["3H"] + deck["3D"] == 10  # red threes
    assert deck["3C"] + deck["3S"] == 10  # black threes


def test_copies_of_a_card_are_interchangeable():  # R2
    # Five copies of 9C exist; any of them makes the same meld.
    assert meld_status(parse_cards("9C 9C 9C")) == "incomplete"
    assert meld_status(parse_cards("9C 9C 9C 9C 9C 9D 9D")) == "clean"


def test_twos_and_jokers_are_wild_and_make_a_wild_meld():  # R3
    assert meld_status(parse_cards("2C 2D JK")) == "incomplete"
    assert meld_status(parse_cards("2C 2D 2H 2S JK JK 2C")) == "wild"


def test_threes_are_neither_natural_nor_wild():  # R3
    with pytest.raises(RuleError):
        meld_status(parse_cards("3C 3S 3C"))  # not naturals of a rank
    with pytest.raises(RuleError):
        meld_status(parse_cards("2C JK 3C"))  # not wild


@pytest.mark.parametrize(
    "card, points",
    [
        ("JK", 50),
        ("2C", 20),
        ("2H", 20),
        ("AS", 20),
        ("8D", 10),
        ("9C", 10),
        ("TH", 10),
        ("JS", 10),
        ("QC", 10),
        ("KD", 10),
        ("4C", 5),
        ("5D", 5),
        ("6H", 5),
        ("7S", 5),
        ("3C", 5),
        ("3S", 5),
        ("3H", 0),
        ("3D", 0),
    ],
)
def test_card_values(card, points):  # R4
    assert card_points(parse_cards(card)[0]) == points


def test_parse_cards_round_trips_the_notation():  # R2 (docs/NOTATION.md)
    text = "4H TS 2C JK 3D AS KC QD"
    parsed = parse_cards(text)
    assert [str(c) for c in parsed] == cards(text)


def test_parse_cards_of_the_empty_string_is_empty():
    assert list(parse_cards("")) == []


@pytest.mark.parametrize("bad", ["1H", "4X", "XX", "10H", "JKK", "J", "4H,5H", "ZZ 4H"])
def test_parse_cards_refuses_malformed_names(bad):
    with pytest.raises(RuleError):
        parse_cards(bad)


def test_parse_cards_takes_a_list_too():
    assert [str(c) for c in parse_cards(["4H", "TS", "JK"])] == ["4H", "TS", "JK"]


@pytest.mark.parametrize("bad", [5, None, {"4H": 1}])
def test_parse_cards_refuses_what_is_neither_text_nor_list(bad):
    with pytest.raises(RuleError) as caught:
        parse_cards(bad)
    assert caught.value.code in ("bad_field", "bad_card")


@pytest.mark.parametrize("bad", ["XX", "1H", "", None])
def test_card_points_refuses_a_non_card(bad):  # R4
    with pytest.raises(RuleError) as caught:
        card_points(bad)
    assert caught.value.code == "bad_card" and caught.value.rule == "R1"
    assert caught.value.params == {"card": str(bad)}


def test_meld_status_takes_a_string_or_a_list():  # R18
    assert meld_status("KC KD KH KS KC KD KH") == "clean"
    assert meld_status(["KC", "KD", "KH"]) == "incomplete"
    with pytest.raises(RuleError) as caught:
        meld_status(["KC", "KD", "XX"])
    assert caught.value.code == "bad_card"


def test_card_names():  # R1, R3: the English names the page reads out
    from games.engine import card_name

    assert card_name("QH") == "Queen of hearts"
    assert card_name("TS") == "Ten of spades"
    assert card_name("2D") == "Two of diamonds"
    assert card_name("JK") == "Joker"


def test_the_canonical_deck_is_r57s_order():  # R57
    from games.engine import canonical_deck as engine_canonical_deck

    ranks, suits = "456789TJQKA23", "CDHS"
    assert engine_canonical_deck() == [r + s for _ in range(5) for r in ranks for s in suits] + ["JK"] * 10


@pytest.mark.parametrize("bad", [5, None, {"4H": 1}])
def test_parse_cards_of_neither_text_nor_list_names_the_field(bad):
    with pytest.raises(RuleError) as caught:
        parse_cards(bad)
    assert (caught.value.code, caught.value.rule, caught.value.params) == ("bad_field", None, {"field": "cards"})
