"""The deal: each deal's 270-card order from the seed (R57) and how it is dealt (R8–R12).

Pure functions of the seed and the deal number; the red threes of the dealt hands (R13) are
laid by the game, which owns the stock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine.cards import JOKER, canonical_deck, is_red_three
from games.engine.rules import STANDARD
from games.engine.seats import DEALER_OF_DEAL, NEXT_SEAT, seats_from

CANONICAL_DECK = tuple(canonical_deck())  # built once: every deal starts from a copy


@dataclass(frozen=True, slots=True)
class DealtCards:
    dealer: str
    hands: dict[str, list[str]]
    feet: dict[str, list[str]]
    upcard: str
    stock_top_first: list[str]


def shuffled_deck(seed: int | str, deal: int) -> list[str]:
    """R57: the canonical deck shuffled by random.Random(f"{seed}:{deal}")."""
    deck = list(CANONICAL_DECK)
    random.Random(f"{seed}:{deal}").shuffle(deck)
    return deck


def must_bury(card: str) -> bool:
    """R12: a red three or a joker may not start the discard pile."""
    return card == JOKER or is_red_three(card)


def deal_cards(deck: list[str], deal: int, hand_size: int = STANDARD.hand_size) -> DealtCards:
    """R11: hands c[0..51], feet c[52..103], upcard c[104], stock c[105..] (top first); R12 burial.
    V2: with `hand_size` h, hands c[0..4h-1], feet c[4h..8h-1], upcard c[8h], stock the rest."""
    dealer = DEALER_OF_DEAL[deal]
    order = seats_from(NEXT_SEAT[dealer])
    feet_start = 4 * hand_size
    hands = {seat: deck[hand_size * i : hand_size * (i + 1)] for i, seat in enumerate(order)}
    feet = {seat: deck[feet_start + hand_size * i : feet_start + hand_size * (i + 1)] for i, seat in enumerate(order)}
    upcard, stock = deck[2 * feet_start], deck[2 * feet_start + 1 :]
    while must_bury(upcard):
        # "buried": back after the first floor(n/2) cards, n = the stock without it (R12, DECISION).
        stock.insert(len(stock) // 2, upcard)
        upcard = stock.pop(0)
    return DealtCards(dealer, hands, feet, upcard, stock)
