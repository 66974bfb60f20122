"""Watching a finished game: who may watch it, and its replay with every hand open.

Any finished game of the site, whatever its mode (the boards only link to it): the page is
games.pages' `watch_page` (/replay/<id>/), the JSON games.api's `watch_replay` (/api/watch/<id>).

A finished solo or friends game may be watched by anyone with its link (its id is not guessable;
sharing the link is how a player shows a game). A daily may be watched only once its date is
closed (games.rooms.daily_play: the end of the UTC date plus the grace), by nobody before, its own
player neither: its deals are the same for everyone, and a replay with every hand open would
hand them to whoever still plays the date. An unfinished game is never shown.

The replay is computed from the stored moves by the engine (games.replay, from the stored
initial position), as the open views after each move: the public view plus every seat's hand,
and every foot not yet picked up (`feet`: a seat is left out once its foot is in its hand).
It is sent as the first view and one RFC 6902 patch per move (games.rooms.patches), so that a
whole game is one small answer and the page can step both ways. A finished game never changes:
its replay is cached.
"""

import json
from collections import Counter
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from games import daily_clock
from games.deflate_parts import Part, compress_part
from games.engine import Game as EngineGame
from games.engine import redact_events
from games.engine.records import Event, View
from games.models import Game
from games.replay import initial_game
from games.rooms.daily_play import deals_still_secret
from games.rooms.patches import view_patch
from players.models import Player

NOT_FINISHED, DAILY_NOT_OVER = "not_finished", "daily_not_over"
CACHE_SECONDS = 3600
CACHE_VERSION = 5  # bump when the replay's shape or its cached form changes


def find_game(game_id: str) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


def refusal(game: Game) -> str | None:
    """Why the game cannot be watched (yet), or None when it can."""
    if game.status != Game.FINISHED:
        return NOT_FINISHED
    if game.mode == Game.DAILY and (game.daily_date is None or deals_still_secret(game)):
        return DAILY_NOT_OVER
    return None


def refusal_message(code: str, game: Game) -> str:
    """Why a game cannot be watched yet, in the request's language (and when a daily can)."""
    if code == DAILY_NOT_OVER and game.daily_date is not None:
        opens = daily_clock.ranked_until(game.daily_date)
        return _("A daily game can be watched once its day is over, after %(time)s UTC on %(date)s.") % {
            "time": opens.strftime("%H:%M"),
            "date": opens.date().isoformat(),
        }
    return _("This game is not over yet: it can be watched once it is finished.")


def open_view(engine_game: EngineGame) -> View:
    """The public view with every seat's hand (the active cards: hand, or foot once picked up) and
    the feet not yet picked up (R11: dealt aside; R44–R46: picked up once the hand is played)."""
    view = engine_game.public_view()
    view["hands"] = {seat: dict(Counter(cards)) for seat, cards in engine_game.hands.items()}
    view["feet"] = {seat: dict(Counter(foot)) for seat, foot in engine_game.feet.items() if foot is not None}
    return view


def build_replay(game: Game) -> dict[str, Any]:
    engine_game = initial_game(game)
    first = open_view(engine_game)
    before = first
    steps = []
    for move in game.moves.order_by("seq"):
        events = engine_game.apply(move.seat, move.action)
        after = open_view(engine_game)
        shown = redact_events(events, None)
        step = {"seq": move.seq, "seat": move.seat, "events": shown, "patch": view_patch(before, after)}
        ended = next((event for event in events if event["type"] == "deal_end"), None)
        if ended is not None and not any(event["type"] == "game_over" for event in events):
            step["deal_end"] = deal_end_view(before, after, ended, move.seat, events)
        steps.append(step)
        before = after
    return {"first": first, "steps": steps}


def deal_end_view(before: View, after: View, ended: dict[str, Any], seat: str, events: list[Event]) -> View:
    """The table as a deal ended (the engine's deal_end `table`), with the hands as they were then.

    The engine deals the next deal in the same move, so the view after it is the new deal's; the
    replay shows this one at that step instead, so the going out can be seen. Only the mover's
    hand changed in the move: it is the hand before it with the move's cards moved (drawn, taken,
    melded, discarded, red threes laid), kept only if it holds as many cards as the engine counted
    at the deal's end; else that hand is left out (null).
    """
    hands = dict(before["hands"])
    held = moved_hand(before["hands"].get(seat, {}), seat, events)
    counted = ended["table"]["seats"][seat]["cards"]
    hands[seat] = held if held is not None and sum(held.values()) == counted else None
    feet = dict(before.get("feet", {}))
    if any(event["type"] == "foot" and event.get("seat") == seat for event in events):
        feet.pop(seat, None)  # picked up in the move that ended the deal: its cards are in the hand
    return {**before, **ended["table"], "turn": None, "scores": after["scores"], "hands": hands, "feet": feet}


def moved_hand(hand: dict[str, int], seat: str, events: list[Event]) -> dict[str, int] | None:
    """The seat's cards after its move's events up to the deal's end; None past a foot picked up."""
    held = Counter(hand)
    for event in events:
        if event["type"] == "deal_end":
            break
        if event.get("seat") != seat:
            continue
        if event["type"] == "foot":
            return None  # the foot's cards are not in the events
        if event["type"] in ("draw", "take_pile"):
            held.update(event.get("cards", []))
        elif event["type"] == "meld":
            held.subtract(card for group in event["groups"] for card in group["cards"])
        elif event["type"] in ("discard", "red_three"):
            held.subtract([event["card"]])
    if any(count < 0 for count in held.values()):
        return None
    return {card: count for card, count in held.items() if count}


def replay_part(game: Game) -> tuple[Part, int]:
    """The replay's members `"first": <open view of the deal>, "steps": [{"seq", "seat", "events",
    "patch"}, ...]` (JSON without the braces, for games.api to put the request's own fields
    around) as a raw deflate part (games.deflate_parts), and its number of steps.

    Cached compressed: a whole game is some 500 KB of JSON, about 30 KB compressed
    (docs/LEADERBOARDS.md), so a process's cache holds hundreds of replays in a few MB; and a
    cached replay is sent as those bytes, never inflated, parsed or written again (issue 24,
    finding 6)."""
    key = f"watch:{CACHE_VERSION}:{game.pk}:{game.version}"
    cached = cache.get(key)
    if cached is not None:
        data, length, adler, steps = cached
        return Part(data, length, adler), steps
    found = build_replay(game)
    members = json.dumps(found, separators=(",", ":")).encode()[1:-1]
    part = compress_part(members)
    cache.set(key, (part.data, part.length, part.adler, len(found["steps"])), CACHE_SECONDS)
    return part, len(found["steps"])


def players_of(game: Game) -> dict[str, Any]:
    """What the replay calls each seat: a listed player's nickname; else the page says the direction."""
    ids = {seat: spec["player"] for seat, spec in (game.seats or {}).items() if spec and "player" in spec}
    listed = Player.objects.filter(pk__in=list(ids.values()), banned=False, nickname__isnull=False).values_list(
        "pk", "nickname"
    )
    names = {str(pk): nickname for pk, nickname in listed}
    return {seat: {"nickname": names[player_id]} for seat, player_id in ids.items() if player_id in names}
