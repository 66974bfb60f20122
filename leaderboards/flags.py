"""Suspicious daily entries, for the moderators: the evidence kept with an entry and the flags.

Four flags, each with its reason (docs/MODERATION.md says why these bounds):
- copied: the player's first OPENING_MOVES moves are those of another entry of the same date
  (the bots answer the same moves with the same moves, so a copied move list is a copied game);
- network: another ranked entry of the same date finished from the same network (the keyed hash
  of players.identity.network_hash, never an address);
- fast: half the player's moves came sooner than FAST_MEDIAN_SECONDS after the move before them;
- scouted: another player (another cookie jar) started a daily of the same date from the network
  this game was started from, or played the same first SCOUT_MOVES moves in a daily of the date,
  finished or not (DailyStart: who started each daily, as keyed hashes). The deal and the bots are
  the same for everyone, so a run dropped unfinished shows what the ranked run will meet.
A flag only points a moderator at an entry: it never hides one (only a moderator does).
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import json
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict, TypeVar
from uuid import UUID

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet

from games.models import Game
from games.models import Move as GameMove
from leaderboards.models import DailyStart, Entry

if TYPE_CHECKING:  # django_stubs_ext is a development tool, not installed with the server
    from django_stubs_ext import WithAnnotations

    from games.models import Move

EntryT = TypeVar("EntryT", bound=Entry)


class Flags(TypedDict):
    """What `flagged` annotates on each entry."""

    flag_copied: bool
    flag_network: bool
    flag_fast: bool
    flag_scouted: bool


OPENING_MOVES = 30
# A scouting run need not be long: the first moves of a deal show the player's hand, the bots'
# answers and what the pile gives. Ten of the player's own moves (about four turns) in the same
# order are rarely an accident among people (docs/MODERATION.md).
SCOUT_MOVES = 10
SCOUT_SEQ_BOUND = 400  # a player's tenth move comes long before the game's 400th (bots move three times as often)
# A person needs a simple visual reaction (~0.25 s) plus at least one click after seeing the
# move before, which the page also animates first: a median under this is not a person.
FAST_MEDIAN_SECONDS = 0.3
# Who started the dailies of a date is kept while a moderator may still look at that date's board
# (docs/MODERATION.md); after that it is only keyed hashes of people's networks.
DAILY_START_DAYS = 60

COPIED, NETWORK, FAST, SCOUTED = "copied", "network", "fast", "scouted"
KINDS = [
    (COPIED, "copied game"),
    (NETWORK, "several from one network"),
    (FAST, "too fast for a person"),
    (SCOUTED, "scouted: another daily of the date from its network or with its opening"),
]


def opening_digest(moves: Sequence[Move], seat: str) -> str:
    """SHA-256 of the seat's first OPENING_MOVES actions, as canonical JSON; "" if it has none."""
    actions = [move.action for move in moves if move.seat == seat][:OPENING_MOVES]
    if not actions:
        return ""
    return actions_digest(actions)


def actions_digest(actions: list[object]) -> str:
    return hashlib.sha256(json.dumps(actions, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def scout_digest(actions: list[object]) -> str:
    """The digest of the first SCOUT_MOVES of a player's actions; "" while fewer were played."""
    return actions_digest(actions[:SCOUT_MOVES]) if len(actions) >= SCOUT_MOVES else ""


def record_daily_start(
    sender: object, game: Game, network: str | None = None, session: str | None = None, **kwargs: object
) -> None:
    """games.signals.game_created's receiver: a new daily's starter, as keyed hashes."""
    if game.mode != Game.DAILY or game.daily_date is None:
        return
    player = (game.seats.get("S") or {}).get("player")
    if player is None:
        return
    DailyStart.objects.get_or_create(
        game_id=game.id,
        defaults={
            "date": game.daily_date,
            "player_id": player,
            "ranked": game.ranked,
            "network": network or "",
            "session": session or "",
        },
    )


def fill_openings(date: datetime.date) -> None:
    """Give each daily of the date whose player made SCOUT_MOVES moves since the last call its
    opening digest (the first ones never change, so each game is read until it has one)."""
    waiting = list(DailyStart.objects.filter(date=date, opening_digest="").values_list("game_id", flat=True))
    if not waiting:
        return
    actions: dict[UUID, list[object]] = {game_id: [] for game_id in waiting}
    rows = GameMove.objects.filter(game_id__in=waiting, seat="S", seq__lte=SCOUT_SEQ_BOUND).order_by("game_id", "seq")
    for game_id, action in rows.values_list("game_id", "action"):
        actions[game_id].append(action)
    for game_id, played in actions.items():
        digest = scout_digest(played)
        if digest:
            DailyStart.objects.filter(game_id=game_id).update(opening_digest=digest)


def median_answer_seconds(moves: Sequence[Move], seat: str) -> float | None:
    """The median time between the move before each of the seat's moves and that move."""
    gaps = [
        (move.created - before.created).total_seconds()
        for before, move in itertools.pairwise(moves)
        if move.seat == seat
    ]
    return statistics.median(gaps) if gaps else None


def evidence(moves: Sequence[Move], seat: str) -> dict[str, str | int | float | None]:
    """The fields of an Entry the flags read, from the game's stored moves in order."""
    return {
        "opening_digest": opening_digest(moves, seat),
        "seat_moves": sum(1 for move in moves if move.seat == seat),
        "median_seconds": median_answer_seconds(moves, seat),
        "scout_opening": scout_digest([move.action for move in moves if move.seat == seat]),
    }


def forget_daily_starts(before: datetime.date, dry_run: bool = False) -> int:
    """Delete (or with `dry_run` only count) the daily starts of dates before `before`: past the
    moderation window they only keep keyed hashes of people's networks (purge_daily_starts)."""
    old = DailyStart.objects.filter(date__lt=before)
    return old.count() if dry_run else old.delete()[0]


def start_network(game_id: UUID | str) -> str:
    """The network a daily was started from ("" when it was not recorded)."""
    return DailyStart.objects.filter(game_id=game_id).values_list("network", flat=True).first() or ""


def scouting_starts() -> QuerySet[DailyStart]:
    """The other players' dailies of an entry's date (for a subquery on Entry)."""
    return (
        DailyStart.objects.filter(date=OuterRef("date"))
        .exclude(game_id=OuterRef("game_id"))
        .exclude(player_id=OuterRef("player_id"))
    )


def same_date_entries() -> QuerySet[Entry]:
    return Entry.objects.filter(date=OuterRef("date")).exclude(pk=OuterRef("pk"))


def flagged(queryset: QuerySet[Entry]) -> QuerySet[WithAnnotations[Entry, Flags]]:
    """The queryset with flag_copied, flag_network and flag_fast annotated."""
    return queryset.annotate(
        flag_copied=Exists(
            same_date_entries().filter(opening_digest=OuterRef("opening_digest")).exclude(opening_digest="")
        ),
        flag_network=Exists(same_date_entries().filter(network=OuterRef("network")).exclude(network="")),
        flag_fast=ExpressionWrapper(Q(median_seconds__lt=FAST_MEDIAN_SECONDS), output_field=BooleanField()),
        flag_scouted=Exists(scouting_starts().filter(network=OuterRef("start_network")).exclude(network=""))
        | Exists(scouting_starts().filter(opening_digest=OuterRef("scout_opening")).exclude(opening_digest="")),
    )


def filter_kind(queryset: QuerySet[EntryT], kind: str | None) -> QuerySet[EntryT]:
    """Entries with the flag `kind` ("any": with any flag); the queryset must be `flagged`."""
    conditions = {
        COPIED: Q(flag_copied=True),
        NETWORK: Q(flag_network=True),
        FAST: Q(flag_fast=True),
        SCOUTED: Q(flag_scouted=True),
    }
    if kind == "any":
        return queryset.filter(conditions[COPIED] | conditions[NETWORK] | conditions[FAST] | conditions[SCOUTED])
    return queryset.filter(conditions[kind]) if kind in conditions else queryset


def reasons(entry: Entry) -> list[str]:
    """Why a `flagged` entry is flagged, one plain sentence a flag, naming the other entries."""
    found = []
    if getattr(entry, "flag_copied", False):
        others = Entry.objects.filter(date=entry.date, opening_digest=entry.opening_digest).exclude(pk=entry.pk)
        found.append(
            f"copied: its first {OPENING_MOVES} moves are those of "
            + ", ".join(str(other.player) for other in others.select_related("player")[:5])
        )
    if getattr(entry, "flag_network", False):
        count = Entry.objects.filter(date=entry.date, network=entry.network).count()
        found.append(f"network: {count} ranked entries of {entry.date.isoformat()} from one network")
    if getattr(entry, "flag_fast", False):
        found.append(
            f"fast: half its {entry.seat_moves} moves came within {entry.median_seconds:.2f} s "
            f"of the move before (a person needs {FAST_MEDIAN_SECONDS} s)"
        )
    if getattr(entry, "flag_scouted", False):
        found.extend(scouting_reasons(entry))
    return found


def scouting_reasons(entry: Entry) -> list[str]:
    """The scouting evidence: the other players' dailies of the date from the entry's starting
    network or with its first moves, each with when it started, whether ranked and finished."""
    starts = DailyStart.objects.filter(date=entry.date).exclude(game_id=entry.game_id)
    starts = starts.exclude(player_id=entry.player_id).exclude(network="", opening_digest="")
    found = []
    for label, matching in (
        ("started from its network", starts.filter(network=entry.start_network or "-")),
        (f"with its first {SCOUT_MOVES} moves", starts.filter(opening_digest=entry.scout_opening or "-")),
    ):
        rows = list(matching.order_by("started_at")[:10])
        if not rows:
            continue
        statuses = dict(Game.objects.filter(pk__in=[row.game_id for row in rows]).values_list("pk", "status"))
        described = ", ".join(
            f"{row.started_at:%H:%M} UTC {'ranked' if row.ranked else 'unranked'} "
            f"{'finished' if statuses.get(row.game_id) == Game.FINISHED else 'unfinished'}"
            for row in rows
        )
        count, date = matching.count(), entry.date.isoformat()
        found.append(f"scouted: {count} other players' dailies of {date} {label} ({described})")
    return found
