"""bench_search: the hard search's choices against a deeper truth (testsupport.search_truth).

python -m benchmarks bench_search --games 12 --every 30 --worlds 24 --search live,bar0,turns6
"""

from django.core.management.base import BaseCommand, CommandError

from testsupport import search_truth


class Command(BaseCommand):
    help = "Score hard-search settings by the deal-end truth of the candidates they choose."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=12, help="normal-vs-normal games to sample from")
        parser.add_argument("--first-seed", type=int, default=300)
        parser.add_argument("--every", type=int, default=30, help="sample one searched decision in this many")
        parser.add_argument("--worlds", type=int, default=24, help="worlds of the truth per decision")
        parser.add_argument("--search", default="live", help=f"comma-separated: {', '.join(search_truth.SETTINGS)}")
        parser.add_argument("--workers", type=int, default=2)

    def handle(self, *args, **options):
        names = options["search"].split(",")
        unknown = [name for name in names if name not in search_truth.SETTINGS]
        if unknown:
            raise CommandError(f"unknown settings: {', '.join(unknown)}")
        seeds = range(options["first_seed"], options["first_seed"] + options["games"])
        decisions = search_truth.build(seeds, options["every"], options["worlds"], options["workers"])
        for line in search_truth.score(decisions, names, options["workers"]):
            self.stdout.write(line)
