"""The daily game's clock: a date's ranked games count until the end of that UTC date plus a grace.

Read by both apps: the room service stops ranking a daily still being played after its deadline,
and the leaderboards record only dailies finished by it and publish a date's replays (its deals)
only once it has passed, when no ranked game of that date can still count. Why ten minutes:
docs/LEADERBOARDS.md. The setting FOOT_DAILY_GRACE_SECONDS (from the environment) changes it.
"""

import datetime

from django.conf import settings
from django.utils import timezone

DEFAULT_GRACE_SECONDS = 600


def grace() -> datetime.timedelta:
    return datetime.timedelta(seconds=float(getattr(settings, "FOOT_DAILY_GRACE_SECONDS", DEFAULT_GRACE_SECONDS)))


def ranked_until(date: datetime.date) -> datetime.datetime:
    """The last moment (UTC) at which a ranked daily of `date` may finish and still count."""
    next_midnight = datetime.datetime.combine(date + datetime.timedelta(days=1), datetime.time(), tzinfo=datetime.UTC)
    return next_midnight + grace()


def counts_at(date: datetime.date, moment: datetime.datetime) -> bool:
    """Whether a ranked daily of `date` finishing at `moment` still counts."""
    return moment <= ranked_until(date)


def is_closed(date: datetime.date, moment: datetime.datetime | None = None) -> bool:
    """Every ranked game of `date` is finished or past its deadline: its deals may be shown."""
    return not counts_at(date, moment or timezone.now())
