"""bench_load: many concurrent solo games through a real Daphne, at human pace; the load curve and the soak.

    python -m benchmarks bench_load --tables 50 [--seconds 60] [--db postgres://...] [--redis redis://...]
    python -m benchmarks bench_load --tables 25,50,100,200 --svg docs/plots/load-curve.svg --json out.jsonl
    python -m benchmarks bench_load --tables 20 --soak 600 --turn-seconds 1
    python -m benchmarks bench_load --tables 300 --servers 2 --spread --look-back    # players ask for the look back
    python -m benchmarks bench_load --tables 300 --servers 2 --front nginx --roll --db … --redis …   # a rolling restart

Each table is one browser: an HTTP session, a solo game against three bots, one game websocket and
one echo websocket. The human plays one turn (draw, one addition to a meld when the view offers
one, a discard) every `--turn-seconds` (10 s: a person's pace), the bots answer at once
(FOOT_BOT_DELAY=0). The action round trip is the time from sending an action to the arrival of
the patch that carries its `ref` (before this client parses it and patches its view); the echo
round trip, measured on the same server at the same moments, is the floor that the websocket,
the event loop and the client add whatever the game does.

The rate limits are on, as deployed (players/limits.py): every table is its own session, so the
per-session limits apply as they are; but every table comes from 127.0.0.1, where a site sees one
address per household, so the per-network limits are multiplied by `--network-factor` (by default
the number of tables: each table counts as its own network). The report says so.

The server is a Daphne subprocess (production settings: DEBUG=0). With --db the bench creates a
throwaway PostgreSQL database beside the given one and drops it after; without, a temporary
SQLite file. --redis makes Redis the channel layer. CPU and memory are read from /proc for the
Daphne process and the bot pool processes it started. A finished game is replaced by a new one,
so a soak also churns games, sockets and sessions.

With --front nginx the tables play through nginx in front of the Daphnes (testsupport/cluster.py,
as `make cluster` runs it) and every acknowledged move (its patch came) is checked against the
stored move log at the end. --roll restarts every Daphne, one at a time, a third of the way into
the window (SIGTERM, its exit, its replacement on the same port ready, the tables it closed back,
then the next); the tables connect again after a close as the page does (static/foot/net.js) and
play on, and the report adds the reconnect times (worst, p99), the moves lost, and the round trips
during the roll against those outside it (testsupport/bench_roll.py). The run lasts until 5 s
after the roll at least.
"""

import json
import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand

from server.serve import install_uvloop
from testsupport import bench_load


class Command(BaseCommand):
    help = "Concurrent solo games at human pace through a real Daphne: round trips, errors, CPU and memory."

    def add_arguments(self, parser):
        parser.add_argument("--tables", default="25", help="tables, or a comma list for a curve (25,50,100)")
        parser.add_argument("--seconds", type=float, default=60.0, help="measured play time per run")
        parser.add_argument("--turn-seconds", type=float, default=10.0, help="one human turn per table every ...")
        parser.add_argument("--level", default="easy", choices=["easy", "normal", "hard"])
        parser.add_argument("--db", help="a PostgreSQL URL: a throwaway database is created beside it")
        parser.add_argument("--redis", help="a Redis URL for the channel layer")
        parser.add_argument("--soak", type=float, help="soak for this many seconds (memory at start and end)")
        parser.add_argument("--json", help="append each run's result as a JSON line to this file")
        parser.add_argument("--svg", help="write the load curve (tables vs p99 and RSS) as SVG here")
        parser.add_argument(
            "--profile",
            help="sample the first server with py-spy over the measured window into this file "
            "(collapsed stacks; a flame graph if it ends in .svg)",
        )
        parser.add_argument(
            "--nice",
            type=int,
            default=0,
            help="run the server and the load generator at this priority (e.g. -10 on a shared machine)",
        )
        parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the server (repeatable)")
        parser.add_argument(
            "--servers",
            type=int,
            default=1,
            help="Daphne processes sharing the database (and Redis), tables spread over them",
        )
        parser.add_argument(
            "--look-back",
            action="store_true",
            help="each table asks for the look back at every deal's end and waits for it before Next deal",
        )
        parser.add_argument(
            "--spread",
            action="store_true",
            help="each table starts at its own point of a deal (spread evenly), so deals end, and "
            "look backs are asked, at a steady rate from the first minute",
        )
        parser.add_argument(
            "--front",
            choices=["direct", "nginx"],
            default="direct",
            help="direct: each table on one Daphne's own port; nginx: through nginx in front of them "
            "(needs --db and --redis), every acknowledged move checked in the database at the end",
        )
        parser.add_argument(
            "--roll",
            action="store_true",
            help="restart every Daphne, one at a time, a third of the way into the window (--front nginx)",
        )
        parser.add_argument(
            "--network-factor",
            type=float,
            help="multiply the server's per-network rate limits and socket cap by this "
            "(default: the number of tables, since one address plays them all)",
        )

    def handle(self, *args, **options):
        counts = [int(part) for part in str(options["tables"]).split(",") if part.strip()]
        extra_env = dict(item.split("=", 1) for item in options["env"])
        soak = options["soak"] is not None
        seconds = options["soak"] if soak else options["seconds"]
        workdir = Path(tempfile.mkdtemp(prefix="foot-bench-logs-"))
        results = []
        if options["nice"]:
            os.setpriority(os.PRIO_PROCESS, 0, options["nice"])
        install_uvloop()  # the simulated browsers too: less of the shared CPU for them
        for tables in counts:
            result = bench_load.run_once(
                tables,
                seconds,
                options["turn_seconds"],
                options["level"],
                options["db"],
                options["redis"],
                workdir,
                soak,
                extra_env,
                options["profile"],
                options["nice"],
                options["servers"],
                options["network_factor"],
                options["look_back"],
                options["spread"],
                front=options["front"],
                roll=options["roll"],
            )
            results.append(result)
            self.stdout.write(bench_load.report_text(result))
            if options["json"]:
                with open(options["json"], "a") as out:
                    out.write(json.dumps(result) + "\n")
        if options["svg"] and results:
            Path(options["svg"]).parent.mkdir(parents=True, exist_ok=True)
            Path(options["svg"]).write_text(bench_load.svg_plot(results))
        if len(results) > 1:
            held = [r["tables"] for r in results if r["action_p99_ms"] < 100 and r["errors"] == 0]
            self.stdout.write(f"largest N held with p99 < 100 ms and no errors: {max(held) if held else 'none'}")
        self.stdout.write(f"server logs: {workdir}")
