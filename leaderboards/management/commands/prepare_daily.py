"""prepare_daily: make today's and tomorrow's daily deals, so tomorrow's commitment is out a day early.

Meant for cron, every hour (docs/DEPLOY.md): the site makes them on first use too, but a quiet
day would otherwise publish a date's commitment only when its first player comes.
"""

from django.core.management.base import BaseCommand

from leaderboards import daily
from leaderboards.models import DailyDeal


class Command(BaseCommand):
    help = "Make today's and tomorrow's daily deals (seed, nonce, published commitment) if missing."

    def handle(self, *args, **options):
        today = daily.today()
        daily.commit_ahead(today)
        for deal in DailyDeal.objects.filter(date__gte=today).order_by("date"):
            self.stdout.write(f"{deal.date.isoformat()}: commitment {deal.commitment}")
