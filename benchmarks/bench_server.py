"""bench_server: action round trips of a real Daphne under concurrent tables, against a bare echo.

Starts `python -m daphne server.asgi:application` on a free port (a fresh migrated SQLite file
unless --db is given; the in-memory channel layer unless --redis is given) and plays --tables
games at once for --seconds. Each table is a solo game (one simulated South) or, with
`--mode friends`, a friends game of two people (South and North, each on its own HTTP session
and socket, the bots at West and East). A person waits --think seconds before each action (draw,
then a discard of its first card; 0 = at once, the server flat out) while the bots play their
seats. Before each action the person also sends an action-sized frame to the bare /ws/echo/
consumer of the same server, so the echo baseline is sampled at the same moments, under the same
load. The action round trip runs from sending the action until the patch of that version has
reached every human seat of the table (solo: the sender's patch with its ref), timed when the
frame arrives, before the simulated client parses it and patches its copy of the view.
Prints p50/p99 of both, their ratio, the moves per second, the server's CPU per move and how many
tables were held (kept playing, without an error or a lost socket, into the last quarter of the
run). Client and server share the machine, so the figures are upper bounds of the server alone.
"""

from django.core.management.base import BaseCommand

from testsupport import bench_server


class Command(BaseCommand):
    help = (
        "Benchmark the game server: action round trip p50/p99 over --tables concurrent solo tables "
        "against the bare echo consumer, in one run on a real Daphne process."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=20, help="concurrent tables (default 20)")
        parser.add_argument(
            "--seconds",
            type=float,
            default=60,
            help="length of the load phase (default 60: a p99 from about 1200 round trips)",
        )
        parser.add_argument("--db", help="DATABASE_URL for the server (default: a fresh SQLite file)")
        parser.add_argument("--redis", help="REDIS_URL for the channel layer (default: in-memory)")
        parser.add_argument("--level", default="easy", help="bot level (default easy)")
        parser.add_argument(
            "--mode",
            choices=("solo", "friends"),
            default="solo",
            help="solo: one person a table; friends: two (South and North)",
        )
        parser.add_argument(
            "--think",
            type=float,
            default=1.0,
            help="seconds a person waits before each action (default 1; 0 = at once)",
        )
        parser.add_argument("--bot-workers", type=int, default=2, help="bot pool processes (default 2)")
        parser.add_argument(
            "--conn-max-age",
            type=int,
            default=60,
            help="CONN_MAX_AGE of the server (default 60, docs/DEPLOY.md: on PostgreSQL how long a "
            "room's database thread keeps its pool connection)",
        )
        parser.add_argument(
            "--cprofile",
            help="profile every thread of the server (CPU time) into this "
            "pstats file and print where the time goes, by part",
        )

    def handle(self, *args, **options):
        report = bench_server.measure(options)
        self.stdout.write(bench_server.report_text(report, options))
        if options["cprofile"]:
            self.stdout.write(bench_server.profile_shares(options["cprofile"]))
