"""The par of a daily: computer players in all four seats play the date's deals once, off the
request path, and their team North-South's total is the score a player tries to beat.

The par game is the daily as the site would play it if South were a computer player too: the
date's seed, the `normal` bots seeded per seat as the room seeds them (games.rooms.bot_runner).
It is a pure function of the seed, so anyone with the code can replay it once the seed is out
(`verify_daily` does). It is computed once per date: a worker first claims the date
(`par_started_at`, one UPDATE that only one worker wins) and writes `par` when done. Who
computes it: `manage.py prepare_daily` (hourly cron, docs/DEPLOY.md), for today and tomorrow,
so a date's par is ready before the date begins; and, for a deal first made by a request (a site
without the cron job), one background thread of the process that made it (`schedule`), started
after the deal's transaction commits (FOOT_PAR_IN_BACKGROUND; the in-process tests turn it
off, so no thread outlives a test). A claim older than CLAIM_TIMEOUT (a worker that died) may
be taken again. Why the par is shown only to a player who finished: docs/LEADERBOARDS.md.
"""

import datetime
import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import OperationalError, close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.bots import make_bot
from games.engine import Game as EngineGame
from games.rooms.bot_runner import bot_seed
from leaderboards.models import DailyDeal

log = logging.getLogger(__name__)

PAR_LEVEL = "normal"  # the daily's own bots
PAR_TEAM = "NS"  # the human's team in a daily
CLAIM_TIMEOUT = datetime.timedelta(minutes=10)  # a par game takes well under a second
MAX_ACTIONS = 20_000  # a whole game is about a thousand actions
SQLITE_CLAIM_TRIES = 40  # with the pause, two seconds of a locked SQLite before giving up
SQLITE_CLAIM_PAUSE = 0.05

_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="daily-par")


def play_par(seed: int) -> int:
    """NS's total when the `normal` bots play every seat of the game dealt from `seed` (R57, R59)."""
    game = EngineGame.new(int(seed))
    bots = {seat: make_bot(PAR_LEVEL, bot_seed(seed, seat)) for seat in "SWNE"}
    for _ in range(MAX_ACTIONS):
        if game.turn is None:
            return int(game.scores()["totals"][PAR_TEAM])
        seat = game.turn
        game.apply(seat, bots[seat].act(game.view(seat)))
    raise RuntimeError(f"the par game of seed {seed} did not end in {MAX_ACTIONS} actions")


def claim(date: datetime.date) -> bool:
    """Take the date's par to compute; only one caller wins until the claim times out."""
    for _attempt in range(SQLITE_CLAIM_TRIES):
        try:
            return _claim_once(date)
        except OperationalError:
            # SQLite lets one writer in at a time, and in a shared in-memory database a reader's
            # table lock refuses a writer at once ("table is locked"). Both are brief: try again
            # for a moment. A claim that still fails has lost to a long writer; whoever holds the
            # write computes the par, or the next prepare_daily does.
            if connection.vendor != "sqlite":
                raise
            time.sleep(SQLITE_CLAIM_PAUSE)
    log.info("par of %s: another writer holds the database; not claimed", date.isoformat())
    return False


def _claim_once(date: datetime.date) -> bool:
    now = timezone.now()
    unclaimed = Q(par_started_at__isnull=True) | Q(par_started_at__lt=now - CLAIM_TIMEOUT)
    return DailyDeal.objects.filter(unclaimed, date=date, par__isnull=True).update(par_started_at=now) == 1


def compute_par(date: datetime.date) -> int | None:
    """Play the date's par game and store it, if this caller wins the claim; the par, else None."""
    if not claim(date):
        return None
    deal = DailyDeal.objects.get(date=date)
    par = play_par(deal.seed)
    DailyDeal.objects.filter(pk=deal.pk, par__isnull=True).update(par=par)
    log.info("par of %s computed: %s", date.isoformat(), par)
    return par


def compute_missing(until: datetime.date) -> list[datetime.date]:
    """Compute the par of every deal up to `until` that has none (prepare_daily); the dates done."""
    done = []
    missing = DailyDeal.objects.filter(par__isnull=True, date__lte=until).order_by("date")
    for date in missing.values_list("date", flat=True):
        if compute_par(date) is not None:
            done.append(date)
    return done


def in_background(date: datetime.date) -> None:
    """The worker thread's job: its own database connection, closed when done."""
    try:
        close_old_connections()
        compute_par(date)
    except Exception:  # a failed par is computed again by prepare_daily; the site goes on
        log.exception("par of %s failed", date.isoformat())
    finally:
        connection.close()


def schedule(date: datetime.date) -> None:
    """Compute the date's par in the background once the current transaction commits, unless
    FOOT_PAR_IN_BACKGROUND is off (then prepare_daily computes it)."""
    if settings.FOOT_PAR_IN_BACKGROUND:
        transaction.on_commit(lambda: submit(date))


def submit(date: datetime.date) -> Future[None]:
    return _worker.submit(in_background, date)


def par_of(date: datetime.date) -> int | None:
    """The date's par once it is known."""
    return DailyDeal.objects.filter(date=date).values_list("par", flat=True).first()
