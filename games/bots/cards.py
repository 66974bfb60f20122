"""Card facts the bots reason with, on plain notation strings ("9D", "2H", "JK").

Kept here (not imported from the engine's internals) so that a bot's inner loops stay plain
dict look-ups; tests/bots/test_cards.py checks every value against `games.engine.card_points`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

SEATS = ("S", "W", "N", "E")  # clockwise, R6
TEAM_OF = {"S": "NS", "N": "NS", "W": "EW", "E": "EW"}  # R5
PARTNER = {"S": "N", "N": "S", "W": "E", "E": "W"}
OTHER_TEAM = {"NS": "EW", "EW": "NS"}
NEXT_SEAT = {seat: SEATS[(i + 1) % 4] for i, seat in enumerate(SEATS)}
NATURAL_RANKS = "456789TJQKA"
WILD = "wild"
PILE_SIZE = 7
PILE_BONUS = {"clean": 500, "dirty": 300, "wild": 1500}  # R54
GOING_OUT_BONUS = 100  # R54
RED_THREE_VALUE = 100  # R35
DEALS = 4  # R7


def deals_in_game(table: Mapping[str, Any]) -> int:
    """The game's number of deals (V1) from a view or a position: house rules carry `rules`."""
    rules = table.get("rules")
    return int(rules["deals"]) if rules else DEALS


def red_three_value(table: Mapping[str, Any]) -> int:
    """A red three's value (V6) from a view or a position: house rules carry `rules`."""
    rules = table.get("rules")
    return int(rules["red_three_value"]) if rules else RED_THREE_VALUE


_RANK_POINTS = {"4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 20, "2": 20}


def full_deck() -> Counter[str]:
    """The 270 cards of R1/R2 as a multiset."""
    deck = Counter({r + s: 5 for r in "456789TJQKA23" for s in "CDHS"})
    deck["JK"] = 10
    return deck


def points(card: str) -> int:
    """R4: JK 50; 2 and A 20; 8..K 10; 4..7 5; black three 5; red three 0."""
    if card == "JK":
        return 50
    if card[0] == "3":
        return 0 if card[1] in "HD" else 5
    return _RANK_POINTS[card[0]]


def total_points(cards: Iterable[str]) -> int:
    return sum(points(c) for c in cards)


def is_wild(card: str) -> bool:
    """R3: every 2 and every joker."""
    return card == "JK" or card[0] == "2"


def is_natural(card: str) -> bool:
    return card != "JK" and card[0] in NATURAL_RANKS


def is_black_three(card: str) -> bool:
    return card in ("3C", "3S")


def is_red_three(card: str) -> bool:
    return card in ("3H", "3D")


def pile_kind(cards: list[str]) -> str:
    """R18: 'incomplete' below 7 cards; else 'wild', 'dirty' or 'clean'."""
    if len(cards) < PILE_SIZE:
        return "incomplete"
    wild = sum(1 for c in cards if is_wild(c))
    if wild == len(cards):
        return "wild"
    return "dirty" if wild else "clean"


def cards_of(text: str | Iterable[str] | None) -> list[str]:
    """A position's card string ("9C 9D", "" or None) or list as a list of cards."""
    if not text:
        return []
    if isinstance(text, str):
        return text.split()
    return list(text)
