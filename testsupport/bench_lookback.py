"""bench_lookback: the look back's CPU per deal (games.bots.lookback), the figure of docs/BOTS.md.

Plays whole 4-deal games in which South is a bot of `level` (by default `easy`: a player who
leaves the search much to say) and the other seats the normal bot, then looks back at every deal
for South at the live budget and times each look back in CPU seconds (`time.process_time`: one
core, not inflated by other work on the machine), with the rollouts it spent and the items it
found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from games.bots import make_bot
from games.bots.lookback import DEAL_ROLLOUTS, look_back
from games.engine import Game
from testsupport.stats import percentile


@dataclass
class LookBackBench:
    seconds: list[float] = field(default_factory=list)  # CPU per deal
    rollouts: list[int] = field(default_factory=list)
    items: list[int] = field(default_factory=list)

    def lines(self, budget: int) -> list[str]:
        deals = len(self.seconds)
        cpu = self.seconds
        spent = [float(r) for r in self.rollouts]
        return [
            f"look back: {deals} deals, budget {budget} rollouts a deal",
            f"  CPU per deal: p50 {percentile(cpu, 0.5):.2f} s, p95 {percentile(cpu, 0.95):.2f} s, max {max(cpu):.2f}s",
            f"  rollouts per deal: p50 {percentile(spent, 0.5):.0f}, max {max(self.rollouts, default=0)}",
            f"  items per deal: {sum(self.items) / max(1, deals):.2f}, none in {self.items.count(0)} of {deals}",
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
    return bench
