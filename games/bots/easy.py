"""The easy bot: a gentle opponent that plays legal, plausible moves.

It goes down when it can, melds threes of a kind and adds naturals to its team's melds, starts a
wild meld from three wild cards, takes the discard pile only now and then, goes out whenever it
may, and discards a natural card at random (a black three first) without a thought for what the
opponents collect.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, Check
from games.bots.cards import is_black_three, is_wild
from games.bots.normal import build_plan, feed_wild_meld, going_out_plan, meld_plans, take_candidates
from games.bots.plan import MeldPlan
from games.bots.situation import Situation, analyse
from games.engine.records import Action, View


class EasyBot(Bot):
    level = "easy"

    def choose(self, view: View, rng: random.Random, check: Check) -> Action | None:
        situation = analyse(view)
        options = situation.options
        if view["phase"] == "draw":
            if options.get("take_pile") and rng.random() < 0.25:
                for take in take_candidates(situation):
                    if check(take):
                        return take
            return {"type": "draw"}
        if options.get("meld"):
            action = self.meld(situation, check)
            if action is not None:
                return action
        return self.discard(situation, rng, check)

    def meld(self, situation: Situation, check: Check) -> Action | None:
        plans: list[MeldPlan | None]
        if not situation.down:
            plans = list(meld_plans(situation))
        else:
            plans = [going_out_plan(situation)]
            naturals = build_plan(situation, "naturals", 2 if situation.in_foot else 0)
            feed_wild_meld(naturals, start_with=3)
            plans.append(naturals)
        for plan in plans:
            action = plan.action() if plan is not None else None
            if action is not None and check(action):
                return action
        return None

    def discard(self, situation: Situation, rng: random.Random, check: Check) -> Action | None:
        cards = sorted(situation.hand)
        threes = [c for c in cards if is_black_three(c)]
        naturals = [c for c in cards if not is_wild(c) and not is_black_three(c)]
        rng.shuffle(naturals)  # any natural: pairs are not kept back for the discard pile
        for card in threes + naturals + cards:
            action: Action = {"type": "discard", "card": card}
            if check(action):
                return action
        return None
