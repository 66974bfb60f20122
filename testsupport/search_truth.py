"""The hard search's choices judged offline against a deeper truth (bench_search).

A tournament measures a search setting at 9 s of CPU a game and needs hundreds of games to see a
few points of win rate. This measures the choices themselves: decisions where the search has two
or more candidates are sampled from normal-vs-normal games; every candidate is played to the end
of the deal (exact R54, valued as the hard bot values it) in the same determinized worlds, the
"truth"; then a search setting chooses once per decision on its own worlds, and its choice is
scored by the truth of its candidate minus the truth of normal's. The truth is built once and
every setting is scored on it. Why and what it showed: docs/journal/BOTS-2026.md, session 12.
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from games.bots import hard, normal
from games.bots.base import ViewChecker, fallback_action, game_checker
from games.bots.determinize import determinize
from games.bots.situation import analyse
from games.engine import Game
from games.engine.records import Action, View

T = TypeVar("T")
R = TypeVar("R")
DEAL_END: hard.Horizon = (hard.DEAL_END_PLIES, None)


@dataclass(frozen=True)
class Setting:
    """A search setting: rollouts a decision, own turns a rollout plays, the override bar."""

    iterations: int = hard.LIVE_ITERATIONS
    turns: int = hard.LIVE_TURNS
    margin: float = hard.OVERRIDE_MARGIN


SETTINGS = {
    "live": Setting(),
    "bar0": Setting(margin=0.0),
    "turns4": Setting(turns=4),
    "turns6": Setting(turns=6),
    "it96": Setting(iterations=96),
}


@dataclass
class Decision:
    view: View
    candidates: list[Action]
    going_out: bool
    truth: list[list[float]]  # per candidate, its valued margin in each world, to the deal's end

    def gain(self, index: int) -> float:
        """The truth of candidate `index` minus the truth of normal's choice (index 0)."""
        return statistics.fmean(self.truth[index]) - statistics.fmean(self.truth[0])


def sample_decisions(seeds: range, every: int) -> list[tuple[View, list[Action], bool]]:
    """About one in `every` of the searched decisions of normal-vs-normal games (fixed sampling)."""
    pick = random.Random(f"bench_search:{seeds.start}")
    found = []
    for seed in seeds:
        game = Game.new(seed=seed)
        while game.turn is not None:
            seat = game.turn
            view = game.view(seat)
            if pick.random() < 1 / every:
                decision = search_decision(view)
                if decision is not None:
                    found.append(decision)
            check = game_checker(game, seat)
            game.apply(seat, normal.decide(view, check) or fallback_action(view, check))
    return found


def search_decision(view: View) -> tuple[View, list[Action], bool] | None:
    """The view with the hard search's candidates, when it would search there."""
    check = ViewChecker(view)
    base, why = normal.explain(view, check)
    situation = analyse(view)
    if base is None or hard.partner_waits_on_me(situation, why):
        return None
    candidates, going_out = hard.search_candidates(situation, base, check)
    return (view, candidates, going_out) if len(candidates) >= 2 else None


def truth(task: tuple[View, list[Action], bool, int]) -> Decision:
    """Every candidate played to the end of the deal in the same `worlds` worlds."""
    view, candidates, going_out, worlds = task
    rng = random.Random(f"truth:{view['deal']}:{view['ply']}:{view['seat']}")
    scores: list[list[float]] = [[] for _ in candidates]
    for _ in range(worlds):
        template = hard.world_game(determinize(view, rng))
        for index, action in enumerate(candidates):
            scores[index].append(hard.rollout(hard.copy_game(template), view["seat"], action, DEAL_END))
    return Decision(view, candidates, going_out, scores)


def choice(task: tuple[Decision, Setting, int]) -> int:
    """The candidate a search setting picks, on worlds of its own (seeded by `seed`)."""
    decision, setting, seed = task
    bot = hard.HardBot(seed, iterations=setting.iterations, turns=setting.turns, margin=setting.margin)
    view = decision.view
    horizon = hard.rollout_horizon(view, bot.depth, bot.turns, decision.going_out)
    rng = random.Random(f"choice:{seed}:{view['deal']}:{view['ply']}:{view['seat']}")
    return bot.searched(view, decision.candidates, horizon, rng)[0]


def build(seeds: range, every: int, worlds: int, workers: int) -> list[Decision]:
    tasks = [(view, candidates, out, worlds) for view, candidates, out in sample_decisions(seeds, every)]
    return _mapped(truth, tasks, workers)


def score(decisions: list[Decision], names: list[str], workers: int, seed: int = 1) -> list[str]:
    """One line per setting: its mean gain a decision over normal's choice (± SE) and overrides."""
    lines = [truth_line(decisions)]
    for name in names:
        tasks = [(decision, SETTINGS[name], seed) for decision in decisions]
        picks = _mapped(choice, tasks, workers)
        gains = [decision.gain(index) for decision, index in zip(decisions, picks, strict=True)]
        error = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
        overrides = sum(1 for index in picks if index)
        lines.append(f"{name}: gain {statistics.fmean(gains):+.1f} ± {error:.1f} a decision, overrides {overrides}")
    return lines


def truth_line(decisions: list[Decision]) -> str:
    """How sharp the truth is: the paired standard error of an alternative's gain, p50 and p90."""
    errors = sorted(
        statistics.stdev([b - a for a, b in zip(d.truth[0], other, strict=True)]) / len(other) ** 0.5
        for d in decisions
        for other in d.truth[1:]
        if len(other) > 1
    )
    p50 = errors[len(errors) // 2] if errors else float("nan")
    p90 = errors[int(0.9 * len(errors))] if errors else float("nan")
    return f"{len(decisions)} decisions; truth's paired SE of a gain p50 {p50:.0f}, p90 {p90:.0f} points"


def _mapped(function: Callable[[T], R], tasks: list[T], workers: int) -> list[R]:
    if workers <= 1:
        return [function(task) for task in tasks]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(function, tasks, chunksize=2)
