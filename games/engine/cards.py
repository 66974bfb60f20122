"""Cards and their notation (R1–R4).

A card is its notation string: rank then suit (`9D`, `TS`, `2H`), or `JK` for a joker. The five
copies of a card are interchangeable (R2), so a plain string is all a card needs to be.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.errors import RuleError

RANKS = "456789TJQKA23"
NATURAL_RANKS = "456789TJQKA"
SUITS = "CDHS"
JOKER = "JK"
RED_THREES = frozenset({"3H", "3D"})
BLACK_THREES = frozenset({"3C", "3S"})
ALL_CARDS = frozenset([r + s for r in RANKS for s in SUITS] + [JOKER])

_POINTS = {"4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 20, "2": 20}
CARD_POINTS: dict[str, int] = {}
for _card in ALL_CARDS:
    if _card == JOKER:
        CARD_POINTS[_card] = 50
    elif _card in RED_THREES:
        CARD_POINTS[_card] = 0
    elif _card in BLACK_THREES:
        CARD_POINTS[_card] = 5
    else:
        CARD_POINTS[_card] = _POINTS[_card[0]]

RANK_NAMES = {
    "4": "Four",
    "5": "Five",
    "6": "Six",
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "T": "Ten",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
    "2": "Two",
    "3": "Three",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def canonical_deck() -> list[str]:
    """The 270 cards in R57's canonical order."""
    return [r + s for _ in range(5) for r in RANKS for s in SUITS] + [JOKER] * 10


def is_wild(card: str) -> bool:
    """R3: every 2 and every joker."""
    return card == JOKER or card[0] == "2"


def is_three(card: str) -> bool:
    return card[0] == "3"


def is_natural(card: str) -> bool:
    """R3: ranks 4 to A."""
    return card != JOKER and card[0] in NATURAL_RANKS


def is_red_three(card: str) -> bool:
    return card in RED_THREES


def card_points(card: str) -> int:
    """R4: JK 50; 2 and A 20; 8..K 10; 4..7 5; black three 5; red three 0."""
    try:
        return CARD_POINTS[str(card)]
    except KeyError:
        raise RuleError("bad_card", "R1", card=str(card)) from None


def points(cards: Iterable[str]) -> int:
    return sum(map(CARD_POINTS.__getitem__, cards))


def card_name(card: str) -> str:
    """An English name for a card, e.g. 'Queen of hearts', 'Joker'."""
    if card == JOKER:
        return "Joker"
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def check_card(card: object) -> str:
    if not isinstance(card, str) or card not in ALL_CARDS:
        raise RuleError("bad_card", "R1", card=str(card)[:20])
    return card


def parse_cards(text: object) -> list[str]:
    """Parse '4H TS 2C JK 3D' (or a list of such names) into a list of cards; refuses bad names."""
    if isinstance(text, str):
        names = text.split()
    elif isinstance(text, (list, tuple)):
        names = list(text)
    else:
        raise RuleError("bad_field", None, field="cards")
    return [check_card(name) for name in names]


def format_cards(cards: Iterable[str]) -> str:
    return " ".join(cards)
