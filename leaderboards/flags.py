"""Suspicious daily entries, for the moderators: the evidence kept with an entry and the flags.

Three flags, each with its reason (docs/MODERATION.md says why these bounds):
- copied: the player's first OPENING_MOVES moves are those of another entry of the same date
  (the bots answer the same moves with the same moves, so a copied move list is a copied game);
- network: another ranked entry of the same date finished from the same network (the keyed hash
  of players.identity.network_hash, never an address);
- fast: half the player's moves came sooner than FAST_MEDIAN_SECONDS after the move before them.
A flag only points a moderator at an entry: it never hides one (only a moderator does).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict, TypeVar

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet

from leaderboards.models import Entry

if TYPE_CHECKING:  # django_stubs_ext is a development tool, not installed with the server
    from django_stubs_ext import WithAnnotations

    from games.models import Move

EntryT = TypeVar("EntryT", bound=Entry)


class Flags(TypedDict):
    """What `flagged` annotates on each entry."""

    flag_copied: bool
    flag_network: bool
    flag_fast: bool


OPENING_MOVES = 30
# A person needs a simple visual reaction (~0.25 s) plus at least one click after seeing the
# move before, which the page also animates first: a median under this is not a person.
FAST_MEDIAN_SECONDS = 0.3

COPIED, NETWORK, FAST = "copied", "network", "fast"
KINDS = [(COPIED, "copied game"), (NETWORK, "several from one network"), (FAST, "too fast for a person")]


def opening_digest(moves: Sequence[Move], seat: str) -> str:
    """SHA-256 of the seat's first OPENING_MOVES actions, as canonical JSON; "" if it has none."""
    actions = [move.action for move in moves if move.seat == seat][:OPENING_MOVES]
    if not actions:
        return ""
    return hashlib.sha256(json.dumps(actions, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


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
    }


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
    )


def filter_kind(queryset: QuerySet[EntryT], kind: str | None) -> QuerySet[EntryT]:
    """Entries with the flag `kind` ("any": with any flag); the queryset must be `flagged`."""
    conditions = {COPIED: Q(flag_copied=True), NETWORK: Q(flag_network=True), FAST: Q(flag_fast=True)}
    if kind == "any":
        return queryset.filter(conditions[COPIED] | conditions[NETWORK] | conditions[FAST])
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
    return found
