"""Keeps the daily deals a day ahead from inside a serving process.

Every FOOT_DAILY_PREPARE_SECONDS (default an hour; 0 turns it off) a daemon thread of the server
(started by server.serve) runs `prepare_daily`: today's and tomorrow's deals made and their
commitments published, and any missing par computed. So a site with no cron still publishes a
date's commitment the day before it begins, even on a day nobody plays. Several processes may
each run it: making a deal and claiming a par are both safe to race (leaderboards.daily, .par).
A failure is logged and tried again at the next round; it never stops the server.
"""

import io
import logging
import os
import threading
import time

import django
from django.conf import settings
from django.core.management import call_command
from django.db import close_old_connections

log = logging.getLogger(__name__)


def start() -> threading.Thread | None:
    """Start the keeper's thread, unless the setting turns it off; the thread, or None."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
    django.setup()  # the app registry's populate is locked: safe beside Daphne's own import
    seconds = settings.FOOT_DAILY_PREPARE_SECONDS
    if seconds <= 0:
        return None
    thread = threading.Thread(target=keep, args=(seconds,), name="daily-keeper", daemon=True)
    thread.start()
    return thread


def keep(seconds: float) -> None:
    while True:
        run_once()
        time.sleep(seconds)


def run_once() -> bool:
    """One round of prepare_daily; True when it went through (a failure is logged, not raised)."""
    try:
        call_command("prepare_daily", stdout=io.StringIO())
        return True
    except Exception:
        log.exception("preparing the daily deals failed; trying again in the next round")
        return False
    finally:
        close_old_connections()  # a thread of its own: its connection is not closed by a request
