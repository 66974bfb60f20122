"""bench_bots: tournaments between bot levels (docs/BOTS.md records the results).

Each matchup plays complete 4-deal games in seat-swapped pairs (the same seed with level A as
NS against B as EW, then swapped), two games in parallel by default, and prints A's win rate
with its 95% Wilson interval, the average score difference and each level's decision CPU time
(p50/p95). It stops early once the interval lies wholly above or below the matchup's goal.

    python -m benchmarks bench_bots                          # the three goals of docs/BOTS.md
    python -m benchmarks bench_bots --match hard:normal --games 100 --iterations 24 --turns 1
    python -m benchmarks bench_bots --match easy+hard:normal --games 100   # hard partnering easy
"""

import contextlib
import dataclasses
import json
import time

from django.core.management.base import BaseCommand, CommandError

from games.bots.hard import LIVE_DEPTH, LIVE_ITERATIONS, LIVE_TURNS
from games.bots.tournament import GameResult, MatchSummary, run_match
from games.engine import Rules
from games.presets import PRESETS

GOALS = {("normal", "easy"): 0.9, ("easy", "random"): 0.9, ("hard", "normal"): 0.7}  # docs/BOTS.md
LEVELS = ("random", "easy", "normal", "hard")


class Command(BaseCommand):
    help = "Play seat-swapped bot tournaments; print win rates (Wilson 95% CI), margins, decision times."

    def add_arguments(self, parser):
        parser.add_argument(
            "--match",
            action="append",
            metavar="A:B",
            help="a matchup, e.g. normal:easy (repeatable; default: the three goals)",
        )
        parser.add_argument("--games", type=int, default=100, help="games per matchup (rounded up to pairs)")
        parser.add_argument("--workers", type=int, default=2, help="games played in parallel")
        parser.add_argument("--first-seed", type=int, default=1, help="seed of the first pair")
        parser.add_argument("--iterations", type=int, default=LIVE_ITERATIONS, help="hard: rollouts per decision")
        parser.add_argument("--depth", type=int, default=LIVE_DEPTH, help="hard: plies per rollout (with --turns 0)")
        parser.add_argument(
            "--turns",
            type=int,
            default=LIVE_TURNS,
            help="hard: the seat's own turns a rollout plays before the evaluation (0: --depth plies instead)",
        )
        parser.add_argument("--no-early-stop", action="store_true", help="always play every game")
        parser.add_argument(
            "--preset",
            choices=sorted(PRESETS),
            default="standard",
            help="play by the house rules of this preset (games.presets, docs/RULES.md section 17)",
        )
        parser.add_argument(
            "--json",
            metavar="PATH",
            help="also write every game's result (with decision times) here, one JSON "
            "object a line, as the games finish",
        )
        parser.add_argument(
            "--merge",
            nargs="+",
            metavar="PATH",
            help="play nothing: summarise the games of earlier --json files together",
        )

    def handle(self, *args, **options):
        if options["merge"]:
            return self._merge(options["merge"])
        matchups = [self._parse(m) for m in options["match"] or ["normal:easy", "easy:random", "hard:normal"]]
        budget = {"iterations": options["iterations"], "depth": options["depth"], "turns": options["turns"] or None}
        hard = {"hard": budget}
        with contextlib.ExitStack() as files:
            self._json = files.enter_context(open(options["json"], "a")) if options["json"] else None
            for level_a, level_b in matchups:
                goal = GOALS.get((level_a, level_b))
                started = time.monotonic()
                self.stdout.write(f"== {level_a} vs {level_b}" + (f" (goal: {goal:.0%})" if goal else ""))
                self._written = 0
                summary = run_match(
                    level_a,
                    level_b,
                    options["games"],
                    first_seed=options["first_seed"],
                    workers=options["workers"],
                    bot_options=hard,
                    goal=None if options["no_early_stop"] else goal,
                    progress=self._progress,
                    rules=Rules.from_json(PRESETS[options["preset"]][1]),
                )
                for line in summary.lines():
                    self.stdout.write(line)
                if "hard" in (level_a, level_b):
                    horizon = f"{options['turns']} own turns" if options["turns"] else f"{options['depth']} plies"
                    self.stdout.write(f"  hard budget: {options['iterations']} rollouts x {horizon}")
                verdict = ""
                if goal is not None:
                    low, high = summary.interval
                    verdict = (
                        "goal met"
                        if low > goal
                        else (
                            "goal missed"
                            if high < goal
                            else ("rate above goal" if summary.rate >= goal else "rate below goal")
                        )
                    )
                self.stdout.write(f"  {verdict}; wall time {time.monotonic() - started:.0f} s".lstrip("; "))

    def _merge(self, paths):
        summaries: dict[tuple[str, str], MatchSummary] = {}
        for path in paths:
            with open(path) as source:
                for line in source:
                    if not line.strip():
                        continue
                    parsed = json.loads(line)
                    for row in parsed if isinstance(parsed, list) else [parsed]:
                        self._add_row(summaries, row)
        for summary in summaries.values():
            for line in summary.lines():
                self.stdout.write(line)

    @staticmethod
    def _add_row(summaries: dict[tuple[str, str], MatchSummary], row: dict) -> None:
        result = GameResult(**row)
        levels = (result.levels["NS"], result.levels["EW"])
        pair = levels if levels in GOALS or levels[::-1] not in GOALS else levels[::-1]
        summaries.setdefault(pair, MatchSummary(*pair)).add(result)

    def _progress(self, summary):
        if self._json:
            for result in summary.results[self._written :]:
                self._json.write(json.dumps(dataclasses.asdict(result)) + "\n")
            self._json.flush()
            self._written = len(summary.results)
        if summary.games % 10 == 0:
            low, high = summary.interval
            self.stdout.write(f"  ... {summary.games} games: {summary.rate:.1%} ({low:.1%}–{high:.1%})")
            self.stdout.flush()

    @staticmethod
    def _parse(text):
        parts = text.split(":")
        teams_ok = len(parts) == 2 and all(1 <= len(p.split("+")) <= 2 for p in parts)
        if not teams_ok or not all(level in LEVELS for p in parts for level in p.split("+")):
            raise CommandError(
                f"--match wants A:B, each a level from {', '.join(LEVELS)} or two partners as "
                f"first+second (easy+hard: South or West easy, the partner hard); got {text!r}"
            )
        return parts[0], parts[1]
