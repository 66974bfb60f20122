"""verify_daily <date>: check a date's commitment and re-deal its four deals against its stored games.

A thin wrapper over leaderboards.proof.verify_date: prints what it checked and exits non-zero on
any difference, and for a date that has no daily deal.
"""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import params
from leaderboards import proof


class Command(BaseCommand):
    help = (
        "Check that the date's commitment is the SHA-256 of its date, seed and nonce, re-deal the "
        "four deals from the seed with the engine, and compare them with the initial position (and "
        "each later deal) of every stored daily game of that date. Exits 1 on any difference."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("date", help="the UTC date, YYYY-MM-DD")

    def handle(self, *args: object, date: str, **options: object) -> None:
        day = params.calendar_date(date)
        if day is None:
            raise CommandError(f"{date!r} is not a date written YYYY-MM-DD.")
        try:
            report = proof.verify_date(day)
        except proof.NoDeal:
            raise CommandError(f"There is no daily deal for {day.isoformat()}: nothing to verify.") from None
        for line in report.lines:
            self.stdout.write(line)
        if report.problems:
            raise CommandError(f"{day.isoformat()}: {len(report.problems)} difference(s) found.")
        self.stdout.write(self.style.SUCCESS(f"{day.isoformat()}: the commitment and every stored deal match."))
