"""bench_lookback: the look back's CPU per deal (games.bots.lookback), the figure of docs/BOTS.md.

Plays whole 4-deal games in which South is a bot of `level` (by default `easy`: a player who
leaves the search much to say) and the other seats the normal bot, then looks back at every deal
for South at the live budget and times each look back in CPU seconds (`time.process_time`: one
core, not inflated by other work on the machine), with the rollouts it spent and the items it
found.

`noise` measures what `lookback.MIN_COST` rests on: for each decision the look back made an item
of (before the minimum is applied), the same estimate — the paired mean gain in points of the
better move over the move played, over as many worlds as the item had — worked out again on other
determinization seeds; the spread of those estimates is the noise of a shown cost.

`hint_cpu` times the Hint the look back agrees with: whole games in which South plays every step
the Hint offers (`hint_step`, the bot of `level` seeded as the room seeds it), CPU per step.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field

from games.bots import lookback, make_bot
from games.bots.hard import LIVE_DEPTH, paired_gain
from games.bots.hint import hint_bot, hint_step, seat_seed
from games.bots.lookback import DEAL_ROLLOUTS, Budget, look_back, play_worlds, seat_decisions
from games.engine import Game
from testsupport.stats import percentile


@dataclass
class LookBackBench:
    seconds: list[float] = field(default_factory=list)  # CPU per deal
    rollouts: list[int] = field(default_factory=list)
    items: list[int] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)  # items by where the hint stood (lookback's `hint`)

    def lines(self, budget: int) -> list[str]:
        deals = len(self.seconds)
        cpu = self.seconds
        spent = [float(r) for r in self.rollouts]
        return [
            f"look back: {deals} deals, budget {budget} rollouts a deal",
            f"  CPU per deal: p50 {percentile(cpu, 0.5):.2f} s, p95 {percentile(cpu, 0.95):.2f} s, max {max(cpu):.2f}s",
            f"  rollouts per deal: p50 {percentile(spent, 0.5):.0f}, max {max(self.rollouts, default=0)}",
            f"  items per deal: {sum(self.items) / max(1, deals):.2f}, none in {self.items.count(0)} of {deals}",
            "  items by the hint's place: " + ", ".join(f"{kind} {n}" for kind, n in sorted(self.kinds.items())),
        ]


def game_deals(seed: int, level: str) -> list[tuple[dict, list[tuple[str, dict]]]]:
    """Each deal of one game: the position it started from and its moves, every seat's."""
    game = Game.new(seed=seed)
    bots = {seat: make_bot(level if seat == "S" else "normal", seed=seed) for seat in "SWNE"}
    deals: list[tuple[dict, list[tuple[str, dict]]]] = []
    while game.turn is not None:
        start, deal, moves = game.to_position(), game.deal, []
        while game.turn is not None and game.deal == deal:
            seat = game.turn
            action = bots[seat].act(game.view(seat))
            game.apply(seat, action)
            moves.append((seat, action))
        deals.append((start, moves))
    return deals


def run(games: int, first_seed: int = 1, level: str = "easy", rollouts: int = DEAL_ROLLOUTS) -> LookBackBench:
    bench = LookBackBench()
    for seed in range(first_seed, first_seed + games):
        for start, moves in game_deals(seed, level):
            began = time.process_time()
            result = look_back(start, moves, "S", seed, rollouts=rollouts)
            bench.seconds.append(time.process_time() - began)
            bench.rollouts.append(result["rollouts"])
            bench.items.append(len(result["items"]))
            for item in result["items"]:
                kind = f"hint {item['hint']}" if item["hint"] else "hint neither"
                bench.kinds[kind] = bench.kinds.get(kind, 0) + 1
    return bench


@dataclass
class NoiseBench:
    costs: list[float] = field(default_factory=list)  # each item's shown cost (before the minimum)
    spreads: list[float] = field(default_factory=list)  # the standard deviation of its estimate over seeds

    def lines(self, seeds: int) -> list[str]:
        spreads, costs = self.spreads, self.costs
        spread = (
            f"p50 {percentile(spreads, 0.5):.0f}, p90 {percentile(spreads, 0.9):.0f}, max {max(spreads, default=0):.0f}"
        )
        shown = f"p10 {percentile(costs, 0.1):.0f}, p50 {percentile(costs, 0.5):.0f}"
        below = f"below 100: {sum(c < 100 for c in costs)}, below 200: {sum(c < 200 for c in costs)}"
        return [
            f"noise: {len(spreads)} items, each estimated again on {seeds} determinization seeds",
            f"  spread (SD) of a shown cost: {spread} points",
            f"  shown costs: {shown} points; {below}",
        ]


def noise(games: int, first_seed: int = 1, level: str = "easy", seeds: int = 8) -> NoiseBench:
    """Every item of the look backs of `games` games (no minimum), its cost estimated again on
    `seeds` other sets of determinized worlds of the same size."""
    bench = NoiseBench()
    for seed in range(first_seed, first_seed + games):
        for start, moves in game_deals(seed, level):
            for item in _items_without_minimum(start, moves, seed):
                estimates = _estimates(start, moves, seed, item, seeds)
                bench.costs.append(float(item["points"]))
                bench.spreads.append(statistics.stdev(estimates))
    return bench


def _items_without_minimum(start: dict, moves: list, seed: int) -> list[dict]:
    kept, lookback.MIN_COST = lookback.MIN_COST, 1
    try:
        return list(look_back(start, moves, "S", seed)["items"])
    finally:
        lookback.MIN_COST = kept


def _estimates(start: dict, moves: list, seed: int, item: dict, seeds: int) -> list[float]:
    decisions = seat_decisions(start, moves, "S", seed, (), hint_bot(seed, "S"))
    decision = next(d for d in decisions if d.number == item["move"])
    keys = [lookback.action_key(c) for c in decision.candidates]
    played, better = keys.index(lookback.action_key(item["played"])), keys.index(lookback.action_key(item["better"]))
    found = []
    for other in range(seeds):
        decision.rng = random.Random(f"noise:{seed}:{item['move']}:{other}")
        decision.values = [[] for _ in decision.candidates]
        decision.points = [[] for _ in decision.candidates]
        play_worlds(decision, [played, better], item["worlds"], Budget(2 * item["worlds"]), LIVE_DEPTH)
        found.append(paired_gain(decision.points[played], decision.points[better])[0])
    return found


def hint_cpu(games: int, first_seed: int = 1, level: str = "normal") -> list[float]:
    """CPU seconds of each Hint step South asks for in `games` games played by its hints."""
    seconds: list[float] = []
    for seed in range(first_seed, first_seed + games):
        game = Game.new(seed=seed)
        hinter, others = make_bot(level, seat_seed(seed, "S")), make_bot("normal", seed=seed)
        while game.turn is not None:
            seat = game.turn
            if seat != "S":
                game.apply(seat, others.act(game.view(seat)))
                continue
            began = time.process_time()
            step = hint_step(hinter, game.view(seat))
            seconds.append(time.process_time() - began)
            for action in step["actions"]:
                game.apply(seat, action)
    return seconds
