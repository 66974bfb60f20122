"""bench_lookback: the look back's CPU per deal (testsupport.bench_lookback; docs/BOTS.md).

python -m benchmarks bench_lookback [--games 10] [--level easy] [--rollouts 480]
python -m benchmarks bench_lookback --noise 8 [--games 5]   # the spread behind lookback.MIN_COST
python -m benchmarks bench_lookback --hints [--level normal]  # the Hint's CPU per step
"""

from django.core.management.base import BaseCommand

from games.bots.lookback import DEAL_ROLLOUTS
from testsupport import bench_lookback
from testsupport.stats import percentile


class Command(BaseCommand):
    help = "Time the look back after each deal of whole games (CPU seconds per deal, rollouts, items)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=10, help="games of 4 deals")
        parser.add_argument("--first-seed", type=int, default=1)
        parser.add_argument("--level", default="easy", help="South's bot (the player looked back at)")
        parser.add_argument("--rollouts", type=int, default=DEAL_ROLLOUTS, help="the budget of a deal")
        parser.add_argument("--noise", type=int, default=0, help="estimate each item again on this many seeds")
        parser.add_argument("--hints", action="store_true", help="time the Hint (of --level) per step instead")

    def handle(self, *args, **options):
        if options["hints"]:
            cpu = bench_lookback.hint_cpu(options["games"], options["first_seed"], options["level"])
            self.stdout.write(
                f"hint ({options['level']}): {len(cpu)} steps, CPU per step p50 {percentile(cpu, 0.5) * 1000:.1f} ms,"
                f" p95 {percentile(cpu, 0.95) * 1000:.1f} ms, max {max(cpu) * 1000:.1f} ms"
            )
            return
        if options["noise"]:
            noise = bench_lookback.noise(options["games"], options["first_seed"], options["level"], options["noise"])
            for line in noise.lines(options["noise"]):
                self.stdout.write(line)
            return
        bench = bench_lookback.run(options["games"], options["first_seed"], options["level"], options["rollouts"])
        for line in bench.lines(options["rollouts"]):
            self.stdout.write(line)
