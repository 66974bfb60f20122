"""Playing complete games between bots: the driver loop shared by tests and `bench_bots`.

The loop is the one the room service runs: ask the bot of the seat to move for one action,
apply it, repeat while the game is not over. Every action goes through `Game.apply`, so an
illegal one raises at once.

A team is one level ("hard") or two partners ("easy+hard": the first level plays the team's
first seat, South or West, the second its partner, North or East), so a partner can be measured
beside a weaker player as well as beside its own level.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from games.bots import make_bot
from games.bots.cards import TEAM_OF
from games.engine import STANDARD, Game, Rules

BotOptions: TypeAlias = dict[str, dict[str, Any]]  # level -> make_bot options ({"hard": {"iterations": 8}})
# seed, level A, level B, options, timed, the game's rules
PairTask: TypeAlias = tuple[int, str, str, BotOptions | None, bool, Rules]


@dataclass
class GameResult:
    seed: int
    levels: dict[str, str]  # team -> level
    totals: dict[str, int]
    winner: str  # "NS" | "EW" | "draw"
    actions: int
    decision_ms: dict[str, list[float]] = field(default_factory=dict)  # level -> CPU times

    def level_result(self, level: str) -> float:
        """1 for a win of `level`'s team, 0.5 for a draw, 0 for a loss."""
        if self.winner == "draw":
            return 0.5
        return 1.0 if self.levels[self.winner] == level else 0.0

    def margin(self, level: str) -> int:
        team = next(t for t, lv in self.levels.items() if lv == level)
        other = "EW" if team == "NS" else "NS"
        return self.totals[team] - self.totals[other]


def play_game(
    seed: int,
    ns_level: str,
    ew_level: str,
    *,
    bot_options: BotOptions | None = None,
    max_actions: int = 20000,
    timed: bool = False,
    rules: Rules = STANDARD,
) -> GameResult:
    """One complete game from `Game.new(seed)` under `rules` (the standard rules' four deals by
    default); NS played by `ns_level`, EW by `ew_level`."""
    game = Game.new(seed=seed, rules=rules)
    levels = {"NS": ns_level, "EW": ew_level}
    bot_options = bot_options or {}
    seat_levels = {seat: seat_level(levels[TEAM_OF[seat]], seat) for seat in "SWNE"}
    bots = {
        seat: make_bot(seat_levels[seat], seed * 4 + i, **bot_options.get(seat_levels[seat], {}))
        for i, seat in enumerate("SWNE")
    }
    times: dict[str, list[float]] = {level: [] for level in seat_levels.values()}
    actions = 0
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        started = time.process_time()
        action = bots[seat].act(view)
        if timed:
            times[seat_levels[seat]].append((time.process_time() - started) * 1000)
        game.apply(seat, action)
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"game {seed} did not finish in {max_actions} actions")
    totals = game.scores()["totals"]
    view = game.view("S")
    return GameResult(
        seed=seed, levels=levels, totals=dict(totals), winner=view["winner"], actions=actions, decision_ms=times
    )


def seat_level(team_level: str, seat: str) -> str:
    """The level of `seat` in a team of `team_level`: "hard", or "easy+hard" (South or West plays
    the first, their partner the second)."""
    partners = team_level.split("+")
    if len(partners) == 1:
        return team_level
    if len(partners) != 2:
        raise ValueError(f"a team is one level or two joined by '+', not {team_level!r}")
    return partners[0] if seat in "SW" else partners[1]


def play_pair(task: PairTask) -> list[GameResult]:
    """The same seed played both ways: A as NS against B as EW, then swapped."""
    seed, level_a, level_b, bot_options, timed, rules = task
    return [
        play_game(seed, level_a, level_b, bot_options=bot_options, timed=timed, rules=rules),
        play_game(seed, level_b, level_a, bot_options=bot_options, timed=timed, rules=rules),
    ]


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (draws count as half a win)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * ((p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class MatchSummary:
    level_a: str
    level_b: str
    games: int = 0
    wins_a: float = 0.0
    margins: list[int] = field(default_factory=list)
    decision_ms: dict[str, list[float]] = field(default_factory=dict)
    results: list[GameResult] = field(default_factory=list)

    def add(self, result: GameResult) -> None:
        self.results.append(result)
        self.games += 1
        self.wins_a += result.level_result(self.level_a)
        self.margins.append(result.margin(self.level_a))
        for level, times in result.decision_ms.items():
            self.decision_ms.setdefault(level, []).extend(times)

    @property
    def rate(self) -> float:
        return self.wins_a / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins_a, self.games)

    def clear_against(self, goal: float) -> bool:
        """Sequential early stop: the interval lies wholly on one side of the goal."""
        low, high = self.interval
        return self.games >= 20 and (low > goal or high < goal)

    def lines(self) -> list[str]:
        low, high = self.interval
        mean_margin = sum(self.margins) / len(self.margins) if self.margins else 0.0
        lines = [
            (
                f"{self.level_a} vs {self.level_b}: {self.games} games (seat-swapped pairs), "
                f"{self.level_a} win rate {self.rate:.1%} (95% Wilson CI {low:.1%}–{high:.1%}), "
                f"average score difference {mean_margin:+.0f}"
            )
        ]
        for level, times in sorted(self.decision_ms.items()):
            lines.append(
                f"  {level}: {len(times)} decisions, p50 {percentile(times, 0.5):.2f} ms, "
                f"p95 {percentile(times, 0.95):.2f} ms"
            )
        return lines


def run_match(
    level_a: str,
    level_b: str,
    games: int,
    *,
    first_seed: int = 1,
    workers: int = 2,
    bot_options: BotOptions | None = None,
    goal: float | None = None,
    timed: bool = True,
    progress: Callable[[MatchSummary], object] | None = None,
    rules: Rules = STANDARD,
) -> MatchSummary:
    """`games` games (rounded up to seat-swapped pairs) of A against B under `rules`, `workers` in
    parallel, stopping early once the Wilson interval is clear of `goal`."""
    summary = MatchSummary(level_a, level_b)
    pairs = (games + 1) // 2
    tasks: list[PairTask] = [(first_seed + i, level_a, level_b, bot_options, timed, rules) for i in range(pairs)]
    context = multiprocessing.get_context("fork")
    results: Iterator[list[GameResult]]
    if workers <= 1:
        results = map(play_pair, tasks)
        pool = None
    else:
        pool = context.Pool(workers)
        results = pool.imap(play_pair, tasks)
    try:
        for pair in results:
            for result in pair:
                summary.add(result)
            if progress:
                progress(summary)
            if goal is not None and summary.clear_against(goal):
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return summary
