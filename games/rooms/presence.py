"""Who is at the table: a socket's presence row on connect, heartbeat and close, and for each
seat whether its player is connected, disconnected (with the deadline after which the computer
plays for them), or away past the grace (then, in a friends game, the computer plays the seat
until the player comes back).

Everything is worked out from the presence rows in the database, so every Daphne process tells
the same deadline: the time the seat's last socket was last seen plus FOOT_AWAY_GRACE_SECONDS.

May call games.models, games.rooms.config, names and stored.
"""

import datetime
import time
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import SEATS, SPECTATOR, Game, GameId, Presence, StandIn
from games.rooms.config import grace_seconds, heartbeat_seconds
from games.rooms.names import seat_names
from games.rooms.stored import load


def touch_presence(
    game_id: GameId, seat: str | None, channel_name: str, first: bool = False
) -> datetime.datetime | None:
    """The socket is there now, at its seat (on connect, and when its seat changed: then one UPDATE).

    On connect (`first`) it answers since when the seat had no socket (None when it had one, or
    never had a row): the start of its absence, for the recap of what happened meanwhile."""
    if first:
        return arrive(game_id, seat, channel_name)[1]
    now = timezone.now()
    row_seat = seat or SPECTATOR
    if not Presence.objects.filter(channel_name=channel_name).update(last_seen=now, connected=True, seat=row_seat):
        write_row(game_id, row_seat, channel_name, now)
    return None


def refresh_rows(channel_names: list[str]) -> set[str]:
    """A process's heartbeat: every live row of these sockets is fresh, in one UPDATE; answers the
    sockets it found no live row of (a row purged, or dropped by a socket that closed meanwhile),
    read only when some are missing. `write_rows` writes those of sockets still open."""
    rows = Presence.objects.filter(channel_name__in=channel_names, connected=True)
    if rows.update(last_seen=timezone.now()) == len(channel_names):
        return set()
    return set(channel_names) - set(rows.values_list("channel_name", flat=True))


def write_rows(sockets: Sequence[tuple[GameId, str | None, str]]) -> None:
    """The rows of these sockets (game, seat, channel), written anew: the heartbeat found none."""
    now = timezone.now()
    for game_id, seat, channel_name in sockets:
        write_row(game_id, seat or SPECTATOR, channel_name, now)


def arrive(game_id: GameId, seat: str | None, channel_name: str) -> tuple[bool, datetime.datetime | None]:
    """A socket opens: (whether its seat already had a live socket: a second tab or device; since
    when the seat had none, as `touch_presence` answers). One transaction of one read, one write,
    and a delete only when there is something to delete: every socket of a restarted process
    arrives at once (issue 26), and this took eleven round trips to PostgreSQL."""
    now = timezone.now()
    row_seat = seat or SPECTATOR
    fresh = now - datetime.timedelta(seconds=3 * heartbeat_seconds())
    with transaction.atomic(savepoint=False):  # the outermost in a database thread: BEGIN, COMMIT
        # Not its own row: written already when this is a retry after a database error.
        mine = Presence.objects.filter(game_id=game_id, seat=row_seat).exclude(channel_name=channel_name)
        rows = list(mine.values_list("connected", "last_seen"))
        live = any(connected and seen >= fresh for connected, seen in rows)
        absent_since = None if seat is None or not rows or live else max(seen for _connected, seen in rows)
        if not all(connected for connected, _seen in rows):
            # Closed sockets of this seat only served to date its absence: the seat is back.
            Presence.objects.filter(game_id=game_id, seat=row_seat, connected=False).delete()
        write_row(game_id, row_seat, channel_name, now)
    return seat is not None and live, absent_since


def write_row(game_id: GameId, row_seat: str, channel_name: str, now: datetime.datetime) -> None:
    """This socket's row, new or updated, in one statement (INSERT ... ON CONFLICT)."""
    Presence.objects.bulk_create(
        [Presence(game_id=game_id, seat=row_seat, channel_name=channel_name, last_seen=now, connected=True)],
        update_conflicts=True,
        unique_fields=["channel_name"],
        update_fields=["game", "seat", "last_seen", "connected"],
    )


def drop_presence(channel_name: str) -> None:
    """The socket closed: keep the row, dated now, as the start of its seat's absence."""
    Presence.objects.filter(channel_name=channel_name).update(connected=False, last_seen=timezone.now())


def last_seen_by_seat(game: Game, now: datetime.datetime) -> tuple[set[str], dict[str, datetime.datetime]]:
    """(the seats with a live socket, SPECTATOR among them when a watcher's is, {seat: when its
    player was last seen}) from one query."""
    fresh = now - datetime.timedelta(seconds=3 * heartbeat_seconds())
    live: set[str] = set()
    last: dict[str, datetime.datetime] = {}
    for seat, connected, seen in Presence.objects.filter(game=game).values_list("seat", "connected", "last_seen"):
        if connected and seen >= fresh:
            live.add(seat)
        if seat and (seat not in last or seen > last[seat]):
            last[seat] = seen
    return live, last


def absent_since(game: Game, seat: str, last: dict[str, datetime.datetime]) -> datetime.datetime:
    # A player who never connected is absent since the game was made.
    return last.get(seat) or game.created


def seat_presence(game: Game, now: datetime.datetime | None = None) -> dict[str, str]:
    """For each seat: "bot", "empty", or for a human "connected" / "disconnected" / "away" (past the grace)."""
    now = now or timezone.now()
    live, last = last_seen_by_seat(game, now)
    states = {}
    for seat in SEATS:
        spec = game.seats.get(seat)
        if spec is None:
            states[seat] = "empty"
        elif "bot" in spec:
            states[seat] = "bot"
        elif seat in live:
            states[seat] = "connected"
        else:
            gone = (now - absent_since(game, seat, last)).total_seconds()
            states[seat] = "away" if gone > grace_seconds() else "disconnected"
    return states


def away_deadlines(game: Game, states: dict[str, str], now: datetime.datetime) -> dict[str, float]:
    """{seat: Unix time} when the computer starts playing for each disconnected friend (friends games
    that are being played: in a lobby or a solo game nobody plays for anyone)."""
    if game.mode != Game.FRIENDS or game.status != Game.PLAYING:
        return {}
    _live, last = last_seen_by_seat(game, now)
    deadlines = {}
    for seat, state in states.items():
        if state == "disconnected":
            deadline = absent_since(game, seat, last) + datetime.timedelta(seconds=grace_seconds())
            deadlines[seat] = round(deadline.timestamp(), 3)
    return deadlines


def stand_in_seats(game: Game, states: dict[str, str]) -> list[str]:
    """The friends' seats the computer plays now: the away ones, and those it finishes a turn for."""
    if game.mode != Game.FRIENDS or game.status != Game.PLAYING:
        return []
    finishing = set(StandIn.objects.filter(game=game).values_list("seat", flat=True))
    return [seat for seat in SEATS if states[seat] == "away" or seat in finishing]


def presence_message(game_id: GameId) -> dict[str, Any] | None:
    game = load(game_id)
    return presence_of(game, seat_names(game)) if game is not None else None


def presence_of(game: Game, names: dict[str, str | None]) -> dict[str, Any]:
    """The room's presence message for the game read, with its players' `names` (seat_names)."""
    now = timezone.now()
    states = seat_presence(game, now)
    return {
        "type": "room.presence",
        "seats": states,
        "names": names,
        "deadlines": away_deadlines(game, states, now),
        "stand_ins": stand_in_seats(game, states),
        "now": round(time.time(), 3),
    }
