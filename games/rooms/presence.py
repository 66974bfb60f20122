"""Who is at the table: a socket's presence row on connect, heartbeat and close, and for each
seat whether its player is connected, disconnected, or away past the grace (then, in a friends
game, a bot plays the seat until the player comes back).

May call games.models, games.rooms.config, names and stored.
"""

import datetime

from django.utils import timezone

from games.models import SEATS, Game, Presence
from games.rooms.config import grace_seconds, heartbeat_seconds
from games.rooms.names import seat_names
from games.rooms.stored import load


def touch_presence(game_id, seat: str | None, channel_name: str, first: bool = False) -> None:
    """The socket is there now (on connect and on every heartbeat: then one UPDATE)."""
    if first:
        # Closed sockets of this seat only served to date its absence: the seat is back.
        Presence.objects.filter(game_id=game_id, seat=seat, connected=False).delete()
    elif Presence.objects.filter(channel_name=channel_name).update(last_seen=timezone.now(), connected=True):
        return
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"game_id": game_id, "seat": seat, "last_seen": timezone.now(), "connected": True},
    )


def drop_presence(channel_name: str) -> None:
    """The socket closed: keep the row, dated now, as the start of its seat's absence."""
    Presence.objects.filter(channel_name=channel_name).update(connected=False, last_seen=timezone.now())


def seat_presence(game: Game) -> dict:
    """For each seat: "bot", or for a human "connected" / "disconnected" / "away" (past the grace)."""
    now = timezone.now()
    fresh = now - datetime.timedelta(seconds=3 * heartbeat_seconds())
    live = set(Presence.objects.filter(game=game, connected=True, last_seen__gte=fresh).values_list("seat", flat=True))
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
            states[seat] = "away" if gone_past_grace(game, seat, now) else "disconnected"
    return states


def gone_past_grace(game: Game, seat: str, now) -> bool:
    last = (
        Presence.objects.filter(game=game, seat=seat).order_by("-last_seen").values_list("last_seen", flat=True).first()
    )
    # A player who never connected is absent since the game was made.
    since = last or game.created
    return (now - since).total_seconds() > grace_seconds()


def presence_message(game_id) -> dict | None:
    game = load(game_id)
    if game is None:
        return None
    return {"type": "room.presence", "seats": seat_presence(game), "names": seat_names(game)}
