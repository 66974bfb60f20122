"""The random bot (tests and benchmarks only): a uniformly random choice among a set of legal
actions — draw or take the pile; a discard of any card, one card added to a team meld, or a new
meld of three cards of a rank (three wild cards included)."""

from __future__ import annotations

import random

from games.bots.base import Bot, Check
from games.bots.cards import is_natural, is_wild
from games.bots.situation import match_key
from games.engine.records import Action, View


def random_candidates(view: View) -> list[Action]:
    options = view.get("options") or {}
    hand = sorted(card for card, n in view["hand"].items() for _ in range(n))
    if view["phase"] == "draw":
        actions: list[Action] = [{"type": "draw"}]
        top = view["discard"][-1] if view["discard"] else None
        if options.get("take_pile") and top:
            pair = [c for c in hand if match_key(c) == match_key(top) and (is_natural(c) or is_wild(top))][:2]
            actions.append({"type": "take_pile", "cards": pair})
        return actions
    actions = [{"type": "discard", "card": card} for card in sorted(set(hand))]
    for rank, cards in sorted((options.get("add_to") or {}).items()):
        actions += [{"type": "meld", "groups": [{"cards": [card], "to": rank}]} for card in cards]
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        if is_natural(card) or is_wild(card):
            by_rank.setdefault(card[0] if is_natural(card) else "wild", []).append(card)
    for cards in by_rank.values():
        if len(cards) >= 3:
            actions.append({"type": "meld", "groups": [{"cards": cards[:3]}]})
    return actions


class RandomBot(Bot):
    level = "random"

    def choose(self, view: View, rng: random.Random, check: Check) -> Action | None:
        legal = [action for action in random_candidates(view) if check(action)]
        return rng.choice(legal) if legal else None
