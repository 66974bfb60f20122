"""What each reader sees of a game: a seat's view (or the spectators'), the events redacted for
it, the whole `state` message a socket gets on connect or resync, the summary the HTTP API
answers, whether someone without a seat may watch and whether the page offers Look back.

May call the engine, games.models and the room modules live_games, names, stored and daily_play.
"""

from typing import Any

from games import engine
from games.engine.records import Event, View
from games.models import SEATS, Game
from games.protocol import StateMessage
from games.rooms.daily_play import deals_still_secret, ranked_until
from games.rooms.live_games import LIVE
from games.rooms.names import seat_names
from games.rooms.stored import stored_engine_game
from players.models import Player

PUBLIC = "*"  # the key of the spectators' part of an update


def view_for(engine_game: engine.Game, seat: str | None) -> View:
    """The seat's view; a spectator's (the public view) for None or PUBLIC."""
    return engine_game.view(seat) if seat and seat != PUBLIC else engine_game.public_view()


def views_for(engine_game: engine.Game, keys: list[str]) -> dict[str, View]:
    """The views of `keys` (seats, PUBLIC) of one position, its public part built once and
    shared: a move computes its listeners' views and the next bot's, and the public part is
    most of each. Shared parts are safe because no view is ever changed, only replaced."""
    public = engine_game.public_view()
    return {key: public if key == PUBLIC else engine_game.view(key, public) for key in keys}


def redacted(events: list[Event], seat: str | None) -> list[Any]:
    return engine.redact_events(events, seat)


def watchable(game: Game) -> bool:
    """Whether someone without a seat may watch: every game but a daily before its date is over
    (games.rooms.daily_play keeps its deals until then)."""
    return not deals_still_secret(game)


def look_back_offered(game: Game, seat: str | None) -> bool:
    """Whether the seat's page offers Look back (the `state`'s `look_back`): a person's own seat,
    outside a daily whose deals are still secret; games.rooms.lookback refuses what may not be asked."""
    return bool(seat) and seat in game.human_seats() and not deals_still_secret(game)


def seat_labels(game: Game, viewer_seat: str | None) -> dict[str, Any]:
    """For each seat: "you", "human", "bot", or "empty" (a free lobby seat)."""
    labels = {}
    for seat in SEATS:
        spec = game.seats.get(seat)
        if seat == viewer_seat:
            labels[seat] = "you"
        elif spec is None:
            labels[seat] = "empty"
        else:
            labels[seat] = "human" if "player" in spec else "bot"
    return labels


def state_message(game: Game, seat: str | None) -> StateMessage:
    """The whole `state` of the game for a seat (None: a spectator)."""
    view = LIVE.views(game.id, game.version).get(seat or PUBLIC)  # a lobby has no live entry
    if view is None and game.position is not None:
        view = view_for(stored_engine_game(game), seat)
    deadline = ranked_until(game)
    return StateMessage(
        type="state",
        v=game.version,
        view=view,
        seat=seat,
        mode=game.mode,
        ranked=game.ranked,
        # A ranked daily counts until then (ISO, UTC); `lapsed`: it was played past it, unranked.
        ranked_until=deadline.isoformat() if deadline else None,
        lapsed=game.lapsed,
        status=game.status,
        level=game.level,
        rules=game.rules_json(),  # the whole rules, standard or house (docs/RULES.md §17)
        seats=seat_labels(game, seat),
        names=seat_names(game),
        host=game.seat_of(game.host_id) if game.host_id else None,
        awaiting=list(game.awaiting),
        date=game.daily_date.isoformat() if game.daily_date else None,
        code=game.invite_code if game.mode == Game.FRIENDS and seat else None,
        look_back=look_back_offered(game, seat),
    )


def summary(game: Game, player: Player | None) -> dict[str, Any]:
    """The game as GET /api/games/<id> and POST /api/games answer it, for this player."""
    seat = game.seat_of(player.id) if player is not None else None
    return {
        "id": str(game.id),
        "url": f"/g/{game.id}/",
        "ws": f"/ws/game/{game.id}/",
        "seat": seat,
        "ranked": game.ranked,
        # The invite code only to a seated player, as the socket's `state` gives it: an outsider
        # who knows the game's id (a spectator) must not take a free seat with it.
        "code": game.invite_code if game.mode == Game.FRIENDS and seat else None,
        "mode": game.mode,
        "level": game.level,
        "rules": game.rules_json(),
        "status": game.status,
        "version": game.version,
        "daily_date": game.daily_date.isoformat() if game.daily_date else None,
        "host": bool(player is not None and game.host_id == player.id),
        "seats": seat_labels(game, seat),
    }
