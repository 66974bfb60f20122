"""From a seat's view to complete positions that the seat cannot tell apart from the real one.

The seat knows its own cards, every seat's card and foot counts, the stock count and every
public card (discard pile, melds, laid red threes). Everything else is the unseen multiset: the
270 cards (R1) less all that. A determinization deals that multiset, shuffled by the bot's
seeded generator, into the other seats' active cards, every unpicked foot (the seat's own
included: nobody sees an unpicked foot, R9) and the stock, keeping red threes out of active
cards (R34: a red three is never held). The result is a position in the notation of docs/NOTATION.md, ready
for `Game.from_position`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from games.bots.cards import SEATS, full_deck, is_red_three
from games.bots.situation import melds_by_key, visible_cards
from games.engine.records import Position, View
from games.engine.rules import STANDARD

STANDARD_RULES = STANDARD.to_json()


class InconsistentView(ValueError):
    """The view's counts do not add up to the 270 cards."""


def laid_red_threes(view: View) -> dict[str, list[str]]:
    """The view gives only how many red threes each team laid; suits never matter (R2), so the
    two kinds are handed out alternately."""
    kinds = ["3H", "3D"] * 5
    laid: dict[str, list[str]] = {}
    for team in ("NS", "EW"):
        count = view["red_threes"][team]
        laid[team], kinds = kinds[:count], kinds[count:]
    return laid


def unseen_cards(view: View, laid: dict[str, list[str]]) -> list[str]:
    unseen = full_deck()
    unseen.subtract(visible_cards(view))
    for cards in laid.values():
        unseen.subtract(cards)
    if any(n < 0 for n in unseen.values()):
        raise InconsistentView("the view shows more copies of a card than exist")
    return sorted(unseen.elements())


def determinize(view: View, rng: random.Random | None) -> Position:
    """One complete position consistent with everything the view shows.

    With `rng` None the unseen cards are dealt in sorted order: any consistent position will
    do for checking the seat's own actions, and skipping the shuffle makes it cheap."""
    seat = view["seat"]
    laid = laid_red_threes(view)
    pool = unseen_cards(view, laid)
    if rng is not None:
        rng.shuffle(pool)
    held = [c for c in pool if not is_red_three(c)]
    reds = [c for c in pool if is_red_three(c)]
    hands = {seat: _joined(Counter(view["hand"]).elements())}
    for other in SEATS:
        if other == seat:
            continue
        count = view["seats"][other]["cards"]
        if count > len(held):
            raise InconsistentView("more hidden cards held than unseen cards")
        hands[other], held = " ".join(held[:count]), held[count:]
    rest = held + reds
    if rng is not None:
        rng.shuffle(rest)
    feet: dict[str, str | None] = {}
    for other in SEATS:
        info = view["seats"][other]
        if info["in_foot"]:
            feet[other] = None
        else:
            feet[other], rest = " ".join(rest[: info["foot"]]), rest[info["foot"] :]
    if len(rest) != view["stock"]:
        raise InconsistentView(f"{len(rest)} unseen cards left for a stock of {view['stock']}")
    position: Position = {
        "seed": 0,
        "deal": view["deal"],
        "dealer": view["dealer"],
        "turn": view["turn"],
        "phase": view["phase"],
        "hands": {s: hands[s] for s in SEATS},
        "feet": feet,
        "stock": " ".join(rest),
        "discard": " ".join(view["discard"]),
        "melds": {team: [" ".join(m["cards"]) for m in melds_by_key(view, team)] for team in ("NS", "EW")},
        "red_threes": {team: " ".join(laid[team]) for team in ("NS", "EW")},
        "down": dict(view["down"]),
        "scores": list((view.get("scores") or {}).get("deals") or []),
        "ply": view.get("ply", 0),
    }
    if view.get("rules", STANDARD_RULES) != STANDARD_RULES:  # the table's house rules (V1–V7)
        position["rules"] = view["rules"]
    return position


def _joined(cards: Iterable[str]) -> str:
    return " ".join(sorted(cards))
