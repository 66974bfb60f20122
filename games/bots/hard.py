"""The hard bot: determinized Monte Carlo search on top of the normal policy.

At the decisions where the choice matters most — take the discard pile or draw, which card to
discard, go out now or play on — it lists a few candidate actions (the normal bot's choice
first), deals the unseen cards into complete positions consistent with its view
(`determinize`), and for each such world and candidate plays the normal policy for every seat
for a fixed number of plies, then scores the result (`evaluation`). The same worlds serve every
candidate (common random numbers), and the candidate with the best average score difference is
played. Everything else it plays as the normal bot.

The budget is a number of rollouts (`iterations`), never a time, so the same view and seed give
the same action on any machine at any load.
"""
from __future__ import annotations

import random

from games.bots import normal
from games.bots.base import Bot, Check, fallback_action, game_checker
from games.bots.cards import OTHER_TEAM, TEAM_OF
from games.bots.determinize import determinize
from games.bots.evaluation import position_deal_estimate
from games.bots.situation import Situation, analyse

LIVE_ITERATIONS = 20   # rollouts per searched decision at the live budget
LIVE_DEPTH = 12       # plies per rollout before the evaluation function takes over
DISCARD_CANDIDATES = 3
GAME_RESULT_WEIGHT = 10000  # a won game is worth more than any score margin


class HardBot(Bot):
    level = "hard"

    def __init__(self, seed: int = 0, iterations: int = LIVE_ITERATIONS, depth: int = LIVE_DEPTH):
        super().__init__(seed)
        self.iterations = iterations
        self.depth = depth

    def choose(self, view: dict, rng: random.Random, check: Check) -> dict | None:
        base = normal.decide(view, check)
        if base is None:
            return None
        candidates = search_candidates(analyse(view), base, check)
        if len(candidates) < 2 or self.iterations < len(candidates):
            return base
        worlds = max(2, self.iterations // len(candidates))
        scores = [[0.0] * worlds for _ in candidates]
        for world in range(worlds):
            position = determinize(view, rng)
            for index, action in enumerate(candidates):
                scores[index][world] = rollout(position, view["seat"], action, self.depth)
        return candidates[confident_best(scores)]


def confident_best(scores: list[list[float]], margin: float = 25.0, z: float = 1.5) -> int:
    """The index of the candidate to play: the normal bot's (index 0) unless another beats it
    in the same worlds by more than `margin` points with `z` standard errors to spare. The
    comparison is paired world by world, so the luck of the deal cancels out."""
    best, best_gain = 0, 0.0
    worlds = len(scores[0])
    for index in range(1, len(scores)):
        gains = [scores[index][w] - scores[0][w] for w in range(worlds)]
        mean = sum(gains) / worlds
        spread = (sum((g - mean) ** 2 for g in gains) / max(1, worlds - 1)) ** 0.5
        lower = mean - z * spread / worlds ** 0.5
        if lower > margin and mean > best_gain:
            best, best_gain = index, mean
    return best


def search_candidates(situation: Situation, base: dict, check: Check) -> list[dict]:
    """The normal bot's action and its main alternatives, all legal."""
    candidates = [base]
    kind = base["type"]
    if kind == "take_pile":
        candidates.append({"type": "draw"})
    elif kind == "draw" and situation.options.get("take_pile"):
        for take in normal.take_candidates(situation):
            if check(take):
                candidates.append(take)
                break
    if kind in ("meld", "discard"):
        # going out or playing on: the largest swing of a deal (R48, R50)
        out = normal.going_out_plan(situation)
        if out is not None:
            _add_checked(candidates, out.action(), check)
    if kind == "meld":
        _add_checked(candidates, normal.build_plan(situation, "keep", 2).action(), check)
    elif kind == "discard":
        discards = 0
        for card in normal.discard_ranking(situation):
            if discards >= DISCARD_CANDIDATES - 1:
                break
            discards += _add_checked(candidates, {"type": "discard", "card": card}, check)
    return candidates


def _add_checked(candidates: list[dict], action: dict | None, check: Check) -> bool:
    if action is None or action in candidates or not check(action):
        return False
    candidates.append(action)
    return True


def rollout(position: dict, seat: str, action: dict, depth: int) -> float:
    """Play `action`, then the normal policy for everyone for `depth` plies; the score
    difference for the seat's team, exact if the deal ended, else estimated."""
    from games.engine import Game

    game = Game.from_position(position)
    deals_before = len(position.get("scores") or [])
    game.apply(seat, action)
    for _ in range(depth):
        if game.turn is None or _deals_done(game) > deals_before:
            break
        mover = game.turn
        check = game_checker(game, mover)
        view = game.view(mover)
        move = normal.decide(view, check) or fallback_action(view, check)
        game.apply(mover, move)
    return score_difference(game, TEAM_OF[seat], deals_before)


def _deals_done(game) -> int:
    return len(game.scores()["deals"])


def score_difference(game, team: str, deals_before: int) -> float:
    """The game margin for `team` (totals plus this deal, exact or estimated); a finished game
    counts its result far above any margin, so the last deal is played to win (R56)."""
    scores = game.scores()
    other = OTHER_TEAM[team]
    deals = scores["deals"]
    before = sum(d[team]["total"] - d[other]["total"] for d in deals[:deals_before])
    if len(deals) > deals_before:
        finished = deals[deals_before]
        margin = before + finished[team]["total"] - finished[other]["total"]
        if len(deals) == 4:
            margin += GAME_RESULT_WEIGHT * ((margin > 0) - (margin < 0))
        return float(margin)
    position = game.to_position()
    return before + position_deal_estimate(position, team) - position_deal_estimate(position, other)
