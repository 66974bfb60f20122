"""Time the leaderboard queries on a realistic load: 100,000 entries over 365 days.

Fills the database of DATABASE_URL with bench players and entries (bulk_create), times each
board — the day (with the date's par: each date gets a deal with one), the week, all time, each
with a "me" lookup for a player far from the top —
and removes the bench data again (unless --keep). Run it against PostgreSQL for the figures in
docs/PERFORMANCE.md, which also states the goal per board.
"""

import datetime
import os
import random
import statistics
import time
import uuid

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leaderboards import boards, commitment, daily
from leaderboards.models import DailyDeal, Entry, PlayerRecord
from players.models import Player

BENCH_PREFIX = "bench"


class Command(BaseCommand):
    help = "Fill 100,000 leaderboard entries over 365 days and time each board's query."

    def add_arguments(self, parser):
        parser.add_argument("--entries", type=int, default=100_000)
        parser.add_argument("--days", type=int, default=365)
        parser.add_argument("--players", type=int, default=5_000)
        parser.add_argument("--repeat", type=int, default=20, help="timed runs of each board")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the bench data afterwards")

    def handle(self, *args, **options):
        rng = random.Random(options["seed"])
        end = daily.today()
        started = time.perf_counter()
        players = self.fill(rng, end, options["entries"], options["days"], options["players"])
        self.stdout.write(
            f"filled {Entry.objects.count():,} entries of {len(players):,} players over "
            f"{options['days']} days in {time.perf_counter() - started:.1f} s "
            f"({connection.vendor})"
        )
        deals = self.fill_pars(rng, end, options["days"])
        try:
            self.time_boards(players, end, options["repeat"], rng)
        finally:
            if not options["keep"]:
                Player.objects.filter(pk__in=[p.pk for p in players]).delete()
                DailyDeal.objects.filter(pk__in=[deal.pk for deal in deals]).delete()

    def fill_pars(self, rng, end, days) -> list[DailyDeal]:
        """A deal with a par for each bench date that has none (the boards read the par)."""
        dates = [end - datetime.timedelta(days=day) for day in range(days)]
        existing = set(DailyDeal.objects.filter(date__in=dates).values_list("date", flat=True))
        deals = []
        for date in dates:
            if date in existing:
                continue
            seed, nonce = rng.getrandbits(63), commitment.new_nonce()
            deals.append(
                DailyDeal(
                    date=date,
                    seed=seed,
                    nonce=nonce,
                    commitment=commitment.commitment_of(date, seed, nonce),
                    par=int(rng.gauss(9000, 3000)),
                )
            )
        return DailyDeal.objects.bulk_create(deals)

    def fill(self, rng, end, entries, days, player_count) -> list[Player]:
        players = [
            Player(
                id=uuid.UUID(int=rng.getrandbits(128)),
                nickname=f"{BENCH_PREFIX} {i:05d}" if i % 10 else None,  # one in ten unnamed
                nickname_key=f"{BENCH_PREFIX}{i:05d}" if i % 10 else None,
                banned=i % 97 == 0,
            )
            for i in range(player_count)
        ]
        per_day = entries // days
        now = timezone.now()
        rows = []
        for day in range(days):
            date = end - datetime.timedelta(days=day)
            count = per_day + (1 if day < entries - per_day * days else 0)
            for player in rng.sample(players, count):
                score = int(rng.gauss(9000, 4000))
                opponents = int(rng.gauss(9000, 4000))
                rows.append(
                    Entry(
                        player=player,
                        date=date,
                        game_id=uuid.UUID(int=rng.getrandbits(128)),
                        score=score,
                        opponents_score=opponents,
                        result="won" if score > opponents else "lost" if score < opponents else "draw",
                        finished_at=now,
                        hidden=rng.random() < 0.01,
                    )
                )
        with transaction.atomic():
            Player.objects.bulk_create(players, batch_size=5000)
            Entry.objects.bulk_create(rows, batch_size=5000)
            boards.rebuild_records()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "ANALYZE leaderboards_entry; ANALYZE leaderboards_player; ANALYZE leaderboards_playerrecord;"
                )
        return players

    def time_boards(self, players, end, repeat, rng):
        yesterday = end - datetime.timedelta(days=1)
        day_players = list(Player.objects.filter(entries__date=yesterday, nickname_key__isnull=False))
        # "me" far from the top: the median record, and someone who played yesterday.
        record_players = list(
            PlayerRecord.objects.filter(listed=True).order_by("-best").values_list("player", flat=True)
        )
        median = Player.objects.get(pk=record_players[len(record_players) // 2])
        someone = rng.choice(day_players)
        # Today's board, not over: the par is read because this player has finished today's daily.
        finished_today = rng.choice(list(Player.objects.filter(entries__date=end, nickname_key__isnull=False)))
        cases = [
            ("daily (page 1, me)", lambda: boards.daily_board(yesterday, boards.Page(1), someone, True)),
            ("daily (page 3, me)", lambda: boards.daily_board(yesterday, boards.Page(3), someone, True)),
            ("today (page 1, me)", lambda: boards.daily_board(end, boards.Page(1), finished_today, False)),
            ("week (page 1, me)", lambda: boards.week_board(end, boards.Page(1), someone)),
            ("week (page 10, me)", lambda: boards.week_board(end, boards.Page(10), someone)),
            ("all time (page 1, me)", lambda: boards.all_time_board(boards.Page(1), median)),
            ("all time (page 40, me)", lambda: boards.all_time_board(boards.Page(40), median)),
        ]
        self.stdout.write(
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
            f"{repeat} runs each; 'db' = time inside the database calls"
        )
        self.stdout.write(
            f"{'board':<24} {'median ms':>10} {'max ms':>8} {'db ms':>7} queries  rows  me.rank  me.against_par"
        )
        for name, run in cases:
            board = run()  # warm the connection and the caches, as a live server would be
            timings, db_timings = [], []
            for _ in range(repeat):
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    board = run()
                    timings.append((time.perf_counter() - started) * 1000)
                db_timings.append(sum(float(q["time"]) for q in queries.captured_queries) * 1000)
            self.stdout.write(
                f"{name:<24} {statistics.median(timings):>10.1f} {max(timings):>8.1f} "
                f"{statistics.median(db_timings):>7.1f} {len(queries.captured_queries):>7}  "
                f"{len(board['rows']):>4}  {board['me'].get('rank')}  {board['me'].get('against_par', '-')}"
            )
