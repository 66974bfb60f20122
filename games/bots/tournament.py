"""Playing complete games between bots: the driver loop shared by tests and `bench_bots`.

The loop is the one the room service runs: ask the bot of the seat to move for one action,
apply it, repeat while the game is not over. Every action goes through `Game.apply`, so an
illegal one raises at once.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from games.bots.cards import TEAM_OF


@dataclass
class GameResult:
    seed: int
    levels: dict[str, str]            # team -> level
    totals: dict[str, int]
    winner: str                       # "NS" | "EW" | "draw"
    actions: int
    decision_ms: dict[str, list[float]] = field(default_factory=dict)   # level -> times

    def level_result(self, level: str) -> float:
        """1 for a win of `level`'s team, 0.5 for a draw, 0 for a loss."""
        if self.winner == "draw":
            return 0.5
        return 1.0 if self.levels[self.winner] == level else 0.0

    def margin(self, level: str) -> int:
        team = next(t for t, lv in self.levels.items() if lv == level)
        other = "EW" if team == "NS" else "NS"
        return self.totals[team] - self.totals[other]


def play_game(seed: int, ns_level: str, ew_level: str, *, bot_options: dict | None = None,
              max_actions: int = 20000, timed: bool = False) -> GameResult:
    """One complete 4-deal game from `Game.new(seed)`; NS played by `ns_level`, EW by `ew_level`."""
    from games.bots import make_bot
    from games.engine import Game

    game = Game.new(seed=seed)
    levels = {"NS": ns_level, "EW": ew_level}
    bot_options = bot_options or {}
    bots = {seat: make_bot(levels[TEAM_OF[seat]], seed * 4 + i, **bot_options.get(levels[TEAM_OF[seat]], {}))
            for i, seat in enumerate("SWNE")}
    times: dict[str, list[float]] = {ns_level: [], ew_level: []}
    actions = 0
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        started = time.perf_counter()
        action = bots[seat].act(view)
        if timed:
            times[levels[TEAM_OF[seat]]].append((time.perf_counter() - started) * 1000)
        game.apply(seat, action)
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"game {seed} did not finish in {max_actions} actions")
    totals = game.scores()["totals"]
    view = game.view("S")
    return GameResult(seed=seed, levels=levels, totals=dict(totals), winner=view["winner"],
                      actions=actions, decision_ms=times)
