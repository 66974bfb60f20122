"""A player's record without an account (the page /record/): days played, the current and the
best streak, the best rank, the average score against par, the last days' results for the plot,
and the games with their replays.

Read in a fixed number of queries however long the record is (tests/leaderboards/
test_lb_record.py counts them): the player's entries once (a few fields each), the best rank in
one query (a correlated count on the daily board's index), the dates' deals once, and a short
list of their other finished games.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from django.db.models import Count, Min, OuterRef, Subquery
from django.db.models.functions import Coalesce

from games.models import Game
from games.rooms.listing import games_of
from leaderboards import daily
from leaderboards.boards import is_listed, visible_entries
from leaderboards.models import DailyDeal, Entry
from players.models import Player

PLOT_DAYS = 60
OTHER_GAMES = 20  # the newest finished solo and friends games listed


@dataclass
class Day:
    """One day of the record: the player's daily of that date and the date's par, if known."""

    date: datetime.date
    entry: Entry | None = None
    par: int | None = None

    @property
    def against_par(self) -> int | None:
        return self.entry.score - self.par if self.entry and self.par is not None else None


@dataclass
class Record:
    days_played: int = 0
    current_streak: int = 0
    best_streak: int = 0
    best_rank: int | None = None
    average_against_par: int | None = None
    plot: list[Day] = field(default_factory=list)
    dailies: list[Day] = field(default_factory=list)  # newest first
    other_games: list[dict[str, object]] = field(default_factory=list)


def streaks(dates: list[datetime.date], today: datetime.date) -> tuple[int, int]:
    """(current, best) runs of consecutive dates; today not played yet keeps yesterday's run alive."""
    played = set(dates)
    best = run = 0
    previous = None
    for date in sorted(played):
        run = run + 1 if previous is not None and date - previous == datetime.timedelta(days=1) else 1
        best = max(best, run)
        previous = date
    day = today if today in played else today - datetime.timedelta(days=1)
    current = 0
    while day in played:
        current += 1
        day -= datetime.timedelta(days=1)
    return current, best


def best_rank(player: Player) -> int | None:
    """The player's best rank on a day's board (competition ranking), only if they are on the boards."""
    if not is_listed(player):
        return None
    better = (
        visible_entries()
        .filter(date=OuterRef("date"), score__gt=OuterRef("score"))
        .order_by()
        .values("date")
        .annotate(count=Count("pk"))
        .values("count")
    )
    found = (
        Entry.objects.filter(player=player, hidden=False)
        .annotate(better=Coalesce(Subquery(better), 0))
        .aggregate(best=Min("better"))
    )
    return None if found["best"] is None else found["best"] + 1


def pars_of(dates: Iterable[datetime.date]) -> dict[datetime.date, int]:
    """{date: par} of the dates whose par is computed (leaderboards.par: once per date)."""
    known = DailyDeal.objects.filter(date__in=list(dates), par__isnull=False).values_list("date", "par")
    return {date: par for date, par in known if par is not None}


def other_finished_games(player: Player) -> list[dict[str, object]]:
    mine = games_of(player.pk).filter(status=Game.FINISHED).exclude(mode=Game.DAILY).order_by("-updated")
    return [
        {"id": str(game.pk), "mode": game.mode, "finished": game.updated, "url": f"/replay/{game.pk}/"}
        for game in mine[:OTHER_GAMES]
    ]


def record_of(player: Player | None, today: datetime.date | None = None) -> Record:
    if player is None:
        return Record()
    today = today or daily.today()
    entries = list(
        Entry.objects.filter(player=player)
        .only("date", "score", "opponents_score", "result", "game_id", "hidden")
        .order_by("-date")
    )
    pars = pars_of(entry.date for entry in entries)
    by_date = {entry.date: Day(entry.date, entry, pars.get(entry.date)) for entry in entries}
    current, best = streaks(list(by_date), today)
    against = [day.against_par for day in by_date.values() if day.against_par is not None]
    plotted = [today - datetime.timedelta(days=PLOT_DAYS - 1 - i) for i in range(PLOT_DAYS)]
    return Record(
        days_played=len(by_date),
        current_streak=current,
        best_streak=best,
        best_rank=best_rank(player),
        average_against_par=round(sum(against) / len(against)) if against else None,
        plot=[by_date.get(date) or Day(date) for date in plotted],
        dailies=list(by_date.values())[:PLOT_DAYS],
        other_games=other_finished_games(player),
    )


def replay_url(day: Day) -> str | None:
    """A daily can be watched once its date is closed (games.watch)."""
    return f"/replay/{day.entry.game_id}/" if day.entry and daily.date_is_closed(day.date) else None


# -- the plot: geometry for an inline SVG the template draws (no script, no chart library) -------

PLOT_WIDTH, PLOT_HEIGHT = 600, 180
PLOT_LEFT, PLOT_TOP, PLOT_BOTTOM = 52, 10, 26  # room for the score labels and the dates


@dataclass
class Bar:
    day: Day
    x: float
    y: float
    width: float
    height: float
    par_y: float | None


class Plot(TypedDict):
    """The record page's bar chart, in the SVG's own units."""

    width: int
    height: int
    left: int
    right: int
    zero: float
    top: int
    top_y: float
    bottom: int
    bottom_y: float
    dates_y: int
    bars: list[Bar]
    first: datetime.date | None
    last: datetime.date | None
    any_par: bool


def plot_bars(days: list[Day]) -> Plot:
    """Each played day a bar from 0 to its score (its result is the bar's class), a mark at par."""
    values = [d.entry.score for d in days if d.entry] + [d.par for d in days if d.entry and d.par is not None]
    top, bottom = max([*values, 1]), min([*values, 0])
    inner = PLOT_HEIGHT - PLOT_TOP - PLOT_BOTTOM
    slot = (PLOT_WIDTH - PLOT_LEFT) / max(len(days), 1)

    def y_of(value: float) -> float:
        return round(PLOT_TOP + (top - value) / (top - bottom) * inner, 1)

    zero = y_of(0)
    bars = []
    for index, day in enumerate(days):
        if day.entry is None:
            continue
        score_y = y_of(day.entry.score)
        bars.append(
            Bar(
                day=day,
                x=round(PLOT_LEFT + index * slot + slot * 0.15, 1),
                y=min(score_y, zero),
                width=round(slot * 0.7, 1),
                height=max(round(abs(zero - score_y), 1), 1),
                par_y=y_of(day.par) if day.par is not None else None,
            )
        )
    return {
        "width": PLOT_WIDTH,
        "height": PLOT_HEIGHT,
        "left": PLOT_LEFT,
        "right": PLOT_WIDTH,
        "zero": zero,
        "top": top,
        "top_y": y_of(top),
        "bottom": bottom,
        "bottom_y": y_of(bottom),
        "dates_y": PLOT_HEIGHT - 6,
        "bars": bars,
        "first": days[0].date if days else None,
        "last": days[-1].date if days else None,
        "any_par": any(bar.par_y is not None for bar in bars),
    }
