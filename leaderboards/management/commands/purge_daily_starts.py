"""purge_daily_starts: forget who started the dailies of dates older than the moderation window.

A thin wrapper over leaderboards.flags.forget_daily_starts: parses, deletes (or counts with
`--dry-run`) and prints. docs/MODERATION.md says why the window is 60 days.
"""

import datetime

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from leaderboards import flags


class Command(BaseCommand):
    help = (
        "Delete the daily-start records (keyed hashes of who started each daily, the scouting flag's "
        "evidence) of dates more than --days days ago."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=flags.DAILY_START_DAYS, help="keep this many days")
        parser.add_argument("--dry-run", action="store_true", help="count, delete nothing")

    def handle(self, *args: object, days: int, dry_run: bool, **options: object) -> None:
        if days < 1:
            raise CommandError(f"--days must be at least 1, not {days}.")
        before = timezone.now().date() - datetime.timedelta(days=days)
        count = flags.forget_daily_starts(before, dry_run=dry_run)
        verb = "Would delete" if dry_run else "Deleted"
        self.stdout.write(f"{verb} {count} daily starts of dates before {before.isoformat()}.")
