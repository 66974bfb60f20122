"""The computer seats of the Learn to play lesson: quiet players that keep the lesson on course.

A lesson bot always draws from the stock, never melds and never takes the discard pile, and
discards its lowest natural (ranks 4 to A, then suit C D H S; a wild card or a three only when it
holds nothing else). With the lesson's prepared deal, whose stock order is fixed
(games.rooms.lesson), that makes every computer discard known in advance: the lesson can promise
the newcomer the card they will be able to take. Deterministic; it sees only its seat's view.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, Check
from games.engine.records import Action, View

NATURAL_ORDER = "456789TJQKA"
SUIT_ORDER = "CDHS"


def discard_order(card: str) -> tuple[int, int, str]:
    """Naturals from 4 up to A first; threes and wild cards last (kept, as a teacher would)."""
    rank = card[0]
    if card != "JK" and rank in NATURAL_ORDER:
        return (0, NATURAL_ORDER.index(rank) * 4 + SUIT_ORDER.index(card[1]), card)
    return (1, 0, card)


class LessonBot(Bot):
    level = "lesson"

    def choose(self, view: View, rng: random.Random, check: Check) -> Action | None:
        if view["phase"] == "draw":
            return {"type": "draw"}
        for card in sorted((c for c, n in view["hand"].items() if n > 0), key=discard_order):
            action = {"type": "discard", "card": card}
            if check(action):
                return action
        return None
