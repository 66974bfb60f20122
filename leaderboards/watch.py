"""Replays you can watch: who may watch a finished game, and its replay with every hand open.

A finished solo or friends game may be watched by anyone with its link (its id is not guessable;
sharing the link is how a player shows a game). A daily may be watched only once its date is
closed (games.daily_clock: the end of the UTC date plus the grace), by nobody before, its own
player neither: its deals are the same for everyone, and a replay with every hand open would
hand them to whoever still plays the date. An unfinished game is never shown.

The replay is computed from the stored moves by the engine (games.replay, from the stored
initial position), as the open views after each move: the public view plus every seat's hand.
It is sent as the first view and one RFC 6902 patch per move (games.rooms.patches), so that a
whole game is one small answer and the page can step both ways. A finished game never changes:
its replay is cached.
"""

import json
import zlib
from collections import Counter

from django.core.cache import cache

from games import daily_clock
from games.engine import redact_events
from games.models import Game
from games.replay import initial_game
from games.rooms.patches import view_patch
from players.models import Player

NOT_FINISHED, DAILY_NOT_OVER = "not_finished", "daily_not_over"
CACHE_SECONDS = 3600
CACHE_VERSION = 2  # bump when the replay's shape changes


def find_game(game_id: str) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


def refusal(game: Game) -> str | None:
    """Why the game cannot be watched (yet), or None when it can."""
    if game.status != Game.FINISHED:
        return NOT_FINISHED
    if game.mode == Game.DAILY and (game.daily_date is None or not daily_clock.is_closed(game.daily_date)):
        return DAILY_NOT_OVER
    return None


def open_view(engine_game) -> dict:
    """The public view with every seat's hand (the active cards: hand, or foot once picked up)."""
    view = engine_game.public_view()
    view["hands"] = {seat: dict(Counter(cards)) for seat, cards in engine_game.hands.items()}
    return view


def build_replay(game: Game) -> dict:
    engine_game = initial_game(game)
    first = open_view(engine_game)
    before = first
    steps = []
    for move in game.moves.order_by("seq"):
        events = engine_game.apply(move.seat, move.action)
        after = open_view(engine_game)
        steps.append(
            {
                "seq": move.seq,
                "seat": move.seat,
                "events": redact_events(events, None),
                "patch": view_patch(before, after),
            }
        )
        before = after
    return {"first": first, "steps": steps}


def replay_of(game: Game) -> dict:
    """{"first": open view of the deal, "steps": [{"seq", "seat", "events", "patch"}, ...]}.

    Cached as compressed JSON: a whole game is some 500 KB of JSON and several times that as
    Python objects, about 30 KB compressed (docs/LEADERBOARDS.md), so a process's cache holds
    hundreds of replays in a few MB."""
    key = f"watch:{CACHE_VERSION}:{game.pk}:{game.version}"
    packed = cache.get(key)
    if packed is not None:
        return json.loads(zlib.decompress(packed))
    found = build_replay(game)
    cache.set(key, zlib.compress(json.dumps(found, separators=(",", ":")).encode(), 6), CACHE_SECONDS)
    return found


def players_of(game: Game) -> dict:
    """What the replay calls each seat: a listed player's nickname; else the page says the direction."""
    ids = {seat: spec["player"] for seat, spec in (game.seats or {}).items() if spec and "player" in spec}
    listed = Player.objects.filter(pk__in=list(ids.values()), banned=False, nickname__isnull=False).values_list(
        "pk", "nickname"
    )
    names = {str(pk): nickname for pk, nickname in listed}
    return {seat: {"nickname": names[player_id]} for seat, player_id in ids.items() if player_id in names}
