"""bench_oracle: the hard search given more information than a seat has, against normal.

Benchmark only (testsupport/oracle_search.py): `oracle` sees every hidden hand and foot (only the
stock's order is hidden), `known` also remembers the cards each seat took from the discard pile,
`hard` is the live hard bot for comparison on the same seeds. The upper bound it gives for issue 27
and the figures: docs/journal/BOTS-2026.md, session 14.

    python -m benchmarks bench_oracle --variant oracle --games 100 --first-seed 7101
    python -m benchmarks bench_oracle --variant oracle --iterations 144 --games 60 --first-seed 7101
    python -m benchmarks bench_oracle --merge a.jsonl b.jsonl    # two variants' common games, paired
"""

import contextlib
import dataclasses
import json
import time

from django.core.management.base import BaseCommand

from games.bots.hard import LIVE_ITERATIONS
from games.bots.tournament import GameResult, MatchSummary
from testsupport.oracle_search import VARIANTS, play_pairs


class Command(BaseCommand):
    help = "Seat-swapped games of the hard search with perfect or remembered information against normal."

    def add_arguments(self, parser):
        parser.add_argument("--variant", choices=VARIANTS, default="oracle")
        parser.add_argument("--games", type=int, default=100, help="games (rounded up to seat-swapped pairs)")
        parser.add_argument("--first-seed", type=int, default=7101, help="seed of the first pair")
        parser.add_argument("--iterations", type=int, default=LIVE_ITERATIONS, help="rollouts per decision")
        parser.add_argument("--workers", type=int, default=2, help="games played in parallel")
        parser.add_argument("--json", metavar="PATH", help="also write every game's result here, a line each")
        parser.add_argument(
            "--merge", nargs=2, metavar="PATH", help="play nothing: compare two --json files on their common games"
        )

    def handle(self, *args, **options):
        if options["merge"]:
            return self._compare(*options["merge"])
        variant = options["variant"]
        summary = MatchSummary(variant, "normal")
        started = time.monotonic()
        pairs = (options["games"] + 1) // 2
        with contextlib.ExitStack() as files:
            out = files.enter_context(open(options["json"], "a")) if options["json"] else None
            for pair in play_pairs(variant, options["first_seed"], pairs, options["iterations"], options["workers"]):
                for result in pair:
                    summary.add(result)
                    if out:
                        out.write(json.dumps(dataclasses.asdict(result)) + "\n")
                        out.flush()
        for line in summary.lines():
            self.stdout.write(line)
        wall = time.monotonic() - started
        self.stdout.write(f"  {options['iterations']} rollouts a decision; wall time {wall:.0f} s")

    def _compare(self, first: str, second: str) -> None:
        a, b = _results(first), _results(second)
        common = sorted(set(a) & set(b))
        if not common:
            self.stdout.write("no game in common")
            return
        gains = [b[key][1] - a[key][1] for key in common]
        mean = sum(gains) / len(gains)
        spread = (sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1)) ** 0.5
        differ = sum(a[key][0] != b[key][0] for key in common)
        self.stdout.write(
            f"{len(common)} common games: {first} won {sum(a[k][0] for k in common):g}, "
            f"{second} won {sum(b[k][0] for k in common):g}; {differ} results differ; "
            f"second minus first {mean:+.0f} ± {1.96 * spread / len(gains) ** 0.5:.0f} points a game (95%)"
        )


def _results(path: str) -> dict[tuple[int, str], tuple[float, int]]:
    """(seed, the variant's team) -> (the variant's result, its margin), from a --json file."""
    rows: dict[tuple[int, str], tuple[float, int]] = {}
    with open(path) as source:
        for line in filter(str.strip, source):
            result = GameResult(**json.loads(line))
            variant = next(level for level in result.levels.values() if level != "normal")
            team = next(t for t, level in result.levels.items() if level == variant)
            rows[(result.seed, team)] = (result.level_result(variant), result.margin(variant))
    return rows
