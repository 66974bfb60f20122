"""prepare_daily: make today's and tomorrow's daily deals, so tomorrow's commitment is out a day
early, and compute the par of every deal that has none (leaderboards.par).

Meant for cron, every hour (docs/DEPLOY.md): the site makes deals on first use too, but a quiet
day would otherwise publish a date's commitment only when its first player comes; and a par
whose background thread died with its process is computed here.
"""

import datetime

from django.core.management.base import BaseCommand

from leaderboards import daily, par
from leaderboards.models import DailyDeal


class Command(BaseCommand):
    help = (
        "Make today's and tomorrow's daily deals (seed, nonce, published commitment) if missing, "
        "and compute the par of every deal up to tomorrow that has none."
    )

    def handle(self, *args: object, **options: object) -> None:
        today = daily.today()
        daily.commit_ahead(today)
        for date in par.compute_missing(today + datetime.timedelta(days=1)):
            self.stdout.write(f"{date.isoformat()}: par computed")
        for deal in DailyDeal.objects.filter(date__gte=today).order_by("date"):
            self.stdout.write(f"{deal.date.isoformat()}: commitment {deal.commitment}")
