"""The bots' own card facts agree with the engine's (R1–R4)."""

from games.bots.cards import full_deck, is_wild, points
from games.engine import canonical_deck, card_points

from .support import Game  # noqa: F401  (skips without the engine)


def test_points_agree_with_the_engine_for_every_card():  # R4
    for card in set(canonical_deck()):
        assert points(card) == card_points(card), card


def test_the_deck_is_the_270_cards_of_five_decks():  # R1, R2
    assert full_deck() == __import__("collections").Counter(canonical_deck())
    assert sum(n for c, n in full_deck().items() if is_wild(c)) == 30  # R3
