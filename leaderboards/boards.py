"""The leaderboards: the day's board, the last seven days and all time, each with "me".

Only listed players appear: a player with a nickname who is not banned (a nickname is asked
when a player wants to appear; docs/LEADERBOARDS.md). Hidden entries never count. A player who is
not listed still gets their own row ("me") with the rank they would have, so the page can
invite them to choose a nickname. Ranks are competition ranks on the board's main figure (the
day's score, the week's total, the best daily score): equal figures share a rank.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from django.db.models import Avg, Count, F, Max, Q, QuerySet, Sum, Window
from django.db.models.functions import Rank

from leaderboards.models import DailyDeal, Entry, PlayerRecord
from players.models import Player

# A board, a row of it or a reader's own line, as the API sends it (JSON) and the pages show it.
Board: TypeAlias = dict[str, Any]

PER_PAGE = 50
WEEK_DAYS = 7


@dataclass(frozen=True)
class Page:
    number: int
    per_page: int = PER_PAGE

    @property
    def start(self) -> int:
        return (self.number - 1) * self.per_page

    @property
    def stop(self) -> int:
        return self.start + self.per_page


def pages_for(count: int, per_page: int = PER_PAGE) -> int:
    return max(1, -(-count // per_page))


def page_with_count(queryset: QuerySet[Any, Any], page: Page, count: Callable[[], int]) -> tuple[list[Any], int]:
    """The page's rows and the board's size, in one query (a window count) unless past the end."""
    rows = list(queryset.annotate(full_count=Window(Count("*")))[page.start : page.stop])
    if rows:
        first = rows[0]
        full_count: int = first["full_count"] if isinstance(first, dict) else first.full_count
        return rows, full_count
    return rows, count() if page.number > 1 else 0


def visible_entries() -> QuerySet[Entry]:
    """Entries that may appear on a board: not hidden, of a listed (named, unbanned) player."""
    return Entry.objects.filter(hidden=False, player__banned=False, player__nickname_key__isnull=False)


def is_listed(player: Player | None) -> bool:
    return bool(player and player.nickname_key and not player.banned)


# -- the day's board ---------------------------------------------------------------------------


def daily_row(entry: Entry, rank: int | None, me: Player | None, replay: bool, par: int | None = None) -> Board:
    row: Board = {
        "rank": rank,
        "nickname": entry.player.display_name if is_listed(entry.player) else "Anonymous",
        "score": entry.score,
        "opponents_score": entry.opponents_score,
        "result": entry.result,
        "against_par": entry.score - par if par is not None else None,
        "me": me is not None and entry.player_id == me.pk,
    }
    if replay:
        row["replay"] = f"/leaderboard/replay/{entry.game_id}/"
        row["game_id"] = str(entry.game_id)
    return row


def daily_rank(date: datetime.date, score: int) -> int:
    return visible_entries().filter(date=date, score__gt=score).count() + 1


def daily_board(date: datetime.date, page: Page, me: Player | None, date_over: bool) -> Board:
    entries = visible_entries().filter(date=date)
    ranked, count = page_with_count(
        entries.select_related("player")
        .annotate(rank=Window(Rank(), order_by=F("score").desc()))
        .order_by("-score", "finished_at", "id"),
        page,
        entries.count,
    )
    mine = Entry.objects.filter(date=date, player=me).select_related("player").first() if me else None
    par = revealed_par(date, date_over, mine)
    rows = [daily_row(entry, entry.rank, me, date_over, par) for entry in ranked]
    return {
        "board": "daily",
        "date": date.isoformat(),
        "page": page.number,
        "pages": pages_for(count),
        "count": count,
        "par": par,
        "rows": rows,
        "me": daily_me(mine, me, date_over, par),
    }


def revealed_par(date: datetime.date, date_over: bool, mine: Entry | None) -> int | None:
    """The date's par for this reader: once the date is over, or once they finished their daily
    of it (it is the score to beat: telling it before would tell the rest a target mid-game)."""
    if not date_over and mine is None:
        return None
    return DailyDeal.objects.filter(date=date).values_list("par", flat=True).first()


def daily_me(entry: Entry | None, me: Player | None, date_over: bool, par: int | None = None) -> Board | None:
    if me is None:
        return None
    if entry is None:
        return {"nickname": me.nickname, "listed": is_listed(me), "played": False}
    shown = is_listed(me) and not entry.hidden
    row = daily_row(entry, daily_rank(entry.date, entry.score), me, date_over, par)
    row.update(nickname=me.nickname, listed=shown, played=True)
    return row


# -- the last seven days -----------------------------------------------------------------------


def week_range(end: datetime.date) -> tuple[datetime.date, datetime.date]:
    return end - datetime.timedelta(days=WEEK_DAYS - 1), end


def week_totals(start: datetime.date, end: datetime.date) -> QuerySet[Any, Any]:
    """Rows of {player, total, games}: the model left open so that the annotations may be filtered on."""
    return (
        visible_entries()
        .filter(date__range=(start, end))
        .values("player")
        .annotate(total=Sum("score"), games=Count("id"))
    )


def week_board(end: datetime.date, page: Page, me: Player | None) -> Board:
    start, end = week_range(end)
    totals = week_totals(start, end)
    ranked, count = page_with_count(
        totals.annotate(nickname=F("player__nickname"), rank=Window(Rank(), order_by=F("total").desc())).order_by(
            "-total", "-games", "nickname"
        ),
        page,
        lambda: visible_entries().filter(date__range=(start, end)).values("player").distinct().count(),
    )
    rows = [
        {
            "rank": r["rank"],
            "nickname": r["nickname"],
            "total": r["total"],
            "games": r["games"],
            "me": me is not None and r["player"] == me.pk,
        }
        for r in ranked
    ]
    return {
        "board": "week",
        "from": start.isoformat(),
        "to": end.isoformat(),
        "page": page.number,
        "pages": pages_for(count),
        "count": count,
        "rows": rows,
        "me": week_me(start, end, me),
    }


def week_me(start: datetime.date, end: datetime.date, me: Player | None) -> Board | None:
    if me is None:
        return None
    mine = Entry.objects.filter(player=me, hidden=False, date__range=(start, end)).aggregate(
        total=Sum("score"), games=Count("id")
    )
    base = {"nickname": me.nickname, "listed": is_listed(me), "me": True}
    if not mine["games"]:
        return {**base, "played": False}
    better = week_totals(start, end).filter(total__gt=mine["total"]).count()
    return {**base, "played": True, "rank": better + 1, "total": mine["total"], "games": mine["games"]}


# -- all time -----------------------------------------------------------------------------------


def record_row(record: PlayerRecord, rank: int | None, me: Player | None) -> Board:
    return {
        "rank": rank,
        "nickname": record.player.nickname,
        "best": record.best,
        "average": round(record.average),
        "games": record.games,
        "wins": record.wins,
        "me": me is not None and record.player_id == me.pk,
    }


def listed_records() -> QuerySet[PlayerRecord]:
    return PlayerRecord.objects.filter(listed=True, games__gt=0)


def all_time_board(page: Page, me: Player | None) -> Board:
    records = listed_records()
    # No window count here: it would make the database join every record to its player, while
    # the rank alone streams down the index and stops at the page; the count is index-only.
    ranked = (
        records.select_related("player")
        .annotate(rank=Window(Rank(), order_by=F("best").desc()))
        .order_by("-best", "-average", "player")[page.start : page.stop]
    )
    count = records.count()
    rows = [record_row(record, record.rank, me) for record in ranked]
    return {
        "board": "all",
        "page": page.number,
        "pages": pages_for(count),
        "count": count,
        "rows": rows,
        "me": all_time_me(me),
    }


def all_time_me(me: Player | None) -> Board | None:
    if me is None:
        return None
    record = PlayerRecord.objects.filter(player=me).select_related("player").first()
    base = {"nickname": me.nickname, "listed": is_listed(me)}
    if record is None or not record.games:
        return {**base, "played": False, "me": True}
    rank = listed_records().filter(best__gt=record.best).count() + 1
    return {**record_row(record, rank, me), **base, "played": True}


def record_figures(entries: QuerySet[Entry]) -> dict[str, int | float]:
    figures = entries.aggregate(
        games=Count("id"),
        wins=Count("id", filter=Q(result=Entry.WON)),
        total=Sum("score"),
        best=Max("score"),
        average=Avg("score"),
    )
    return {key: value or 0 for key, value in figures.items()}


def refresh_record(player: Player) -> PlayerRecord:
    """Recompute the player's all-time figures from their visible entries (call after any change)."""
    player = Player.objects.get(pk=player.pk)
    figures = record_figures(Entry.objects.filter(player=player, hidden=False))
    record, _ = PlayerRecord.objects.update_or_create(player=player, defaults={**figures, "listed": is_listed(player)})
    return record


def rebuild_records() -> int:
    """Recompute every player's record (after bulk loads); returns how many were written."""
    players = Player.objects.annotate(
        games=Count("entries", filter=Q(entries__hidden=False)),
        wins=Count("entries", filter=Q(entries__hidden=False, entries__result=Entry.WON)),
        total=Sum("entries__score", filter=Q(entries__hidden=False)),
        best=Max("entries__score", filter=Q(entries__hidden=False)),
        average=Avg("entries__score", filter=Q(entries__hidden=False)),
    )
    records = [
        PlayerRecord(
            player_id=p.pk,
            listed=is_listed(p),
            games=p.games,
            wins=p.wins,
            total=p.total or 0,
            best=p.best or 0,
            average=p.average or 0,
        )
        for p in players
    ]
    PlayerRecord.objects.all().delete()
    PlayerRecord.objects.bulk_create(records, batch_size=2000)
    return len(records)
