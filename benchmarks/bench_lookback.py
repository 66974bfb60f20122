"""bench_lookback: the look back's CPU per deal (testsupport.bench_lookback; docs/BOTS.md).

python -m benchmarks bench_lookback [--games 10] [--level easy] [--rollouts 480]
"""

from django.core.management.base import BaseCommand

from games.bots.lookback import DEAL_ROLLOUTS
from testsupport import bench_lookback


class Command(BaseCommand):
    help = "Time the look back after each deal of whole games (CPU seconds per deal, rollouts, items)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=10, help="games of 4 deals")
        parser.add_argument("--first-seed", type=int, default=1)
        parser.add_argument("--level", default="easy", help="South's bot (the player looked back at)")
        parser.add_argument("--rollouts", type=int, default=DEAL_ROLLOUTS, help="the budget of a deal")

    def handle(self, *args, **options):
        bench = bench_lookback.run(options["games"], options["first_seed"], options["level"], options["rollouts"])
        for line in bench.lines(options["rollouts"]):
            self.stdout.write(line)
