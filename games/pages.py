"""The HTML pages of the site (home, table, join, rules, a finished game's replay) and the
JavaScript translation catalogue.

The pages only lay out the site: everything that happens at the table lives in static/foot/,
and every rule lives in games/engine/. The test hook (start a game from a prepared position)
exists only when the setting FOOT_TEST_HOOKS is on; it is off by default and answers 404.
"""

import json
import re
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import path
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from django.views.i18n import JavaScriptCatalog

from games import params, watch
from games.engine import Game as EngineGame
from games.engine import RuleError, normalise_action
from games.engine.rules import RULE_RANGES, STANDARD
from games.messages import message_for
from games.models import SEATS, Game
from games.presets import house_rules_line, presets_for_page
from games.rooms.creation import game_for_invite, prepared_game, utc_today
from games.rooms.live_games import LIVE, REPLAYED
from games.rooms.seat_views import summary, watchable
from games.rooms.stored import load
from players import identity, limits
from players.identity import player_for_request, player_for_session

MAX_POSITION_BYTES = 64 * 1024  # a whole position with every card named

THEME_COLOUR = "#1d6b3a"  # the table's green: the bar and the splash of the installed site


def test_hooks_enabled() -> bool:
    return settings.FOOT_TEST_HOOKS


def todays_dailies(request: HttpRequest) -> QuerySet[Game]:
    """Today's dailies of this browser's player (none without a player)."""
    player = player_for_session(request.session)
    if player is None:
        return Game.objects.none()
    return Game.objects.filter(mode=Game.DAILY, daily_date=utc_today(), seats__S__player=str(player.id))


def home(request: HttpRequest) -> HttpResponse:
    """The Daily button says Continue for a daily under way; once one is finished, the card says
    that another try does not count (the first daily of a date is the ranked one)."""
    dailies = todays_dailies(request)
    unfinished = dailies.exclude(status=Game.FINISHED).order_by("created").first()
    played = unfinished is None and dailies.filter(status=Game.FINISHED).exists()
    context = {
        "daily_game": unfinished,
        "daily_played": played,
        "presets": presets_for_page(),  # the rules of a new solo or friends game (docs/RULES.md §17)
        "ranges": RULE_RANGES,
        "standard": STANDARD.to_json(),
    }
    return render(request, "home.html", context)


def table(request: HttpRequest, game_id: str) -> HttpResponse:
    game = load(game_id)
    if game is None:
        raise Http404("no such game")
    if not watchable(game) and not seated(request, game):
        context = {"title": _("This daily game cannot be watched yet"), "message": message_for("watch_daily_later")}
        return render(request, "limited.html", context, status=403)
    return render(
        request,
        "table.html",
        {
            "game_id": game_id,
            "ws_path": f"/ws/game/{game_id}/",
            "test_hooks": test_hooks_enabled(),
            "heartbeat_ms": heartbeat_ms(),
            # a solo game's undo is its player's own choice, shown by the Undo button (docs/RULES.md V7)
            "house_rules": house_rules_line(game.engine_rules(), announce_undo=game.mode != Game.SOLO),
            "rules_json": json.dumps(game.rules_json()),  # a lobby's page reloads when the host changes them
            **lobby_rules_context(request, game),
        },
    )


def lobby_rules_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """For the host of a friends lobby: the rules choice, to change the table's house rules."""
    player = player_for_session(request.session)
    if game.status != Game.LOBBY or player is None or game.host_id != player.id:
        return {}
    return {"lobby_host": True, "presets": presets_for_page(), "ranges": RULE_RANGES, "standard": game.rules_json()}


def seated(request: HttpRequest, game: Game) -> bool:
    player = player_for_session(request.session)
    return player is not None and game.seat_of(player.id) is not None


def heartbeat_ms() -> int:
    """How often the page says it is there: a third of the time after which a silent socket is closed."""
    return int(min(30.0, limits.idle_seconds() / 3) * 1000)


def join(request: HttpRequest, code: str) -> HttpResponse:
    identity.count(request, "join")  # a code is guessable: every lookup counts (players.limits)
    game = game_for_invite(code)
    if game is None:
        # A stale or guessed code: said on the page, with a way on (404 all the same).
        return render(request, "join.html", {"code": code, "refusal": "unknown"}, status=404)
    player = player_for_session(request.session)
    seated = player is not None and game.seat_of(player.id) is not None
    refusal = None
    if not seated and game.status != Game.LOBBY:
        refusal = "started"
    elif not seated and len(game.seats) == len(SEATS):
        refusal = "full"
    return render(request, "join.html", {"code": code, "game_id": game.id, "seated": seated, "refusal": refusal})


def join_form(request: HttpRequest) -> HttpResponse:
    """/join/: the invite code box on a page of its own (a link's code typed in: ?code= opens it)."""
    code = re.sub(r"[^A-Za-z0-9]", "", request.GET.get("code", ""))[:12]  # an invite code's letters
    if code:
        return redirect("join", code=code)
    return render(request, "join.html", {"ask_code": True})


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the site added to a phone's home screen opens full screen at the
    home page, with the site's icons (static/foot/icons). No service worker is needed for that."""
    icons = [
        {"src": static(f"foot/icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": use}
        for size in (192, 512)
        for use in ("any", "maskable")  # the card design leaves the maskable safe zone free
    ]
    body = {
        "id": "/",
        "name": "Foot Canasta",
        "short_name": "Foot Canasta",
        "description": _("Hand and Foot in your browser"),
        "lang": get_language() or "en",
        "start_url": "/",
        "scope": "/",
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "background_color": THEME_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    return JsonResponse(body, content_type="application/manifest+json")


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html")


@require_GET
def watch_page(request: HttpRequest, game_id: str) -> HttpResponse:
    """The replay viewer of a finished game (static/foot/watch.js draws it with the table's
    rendering), or why not yet (games.watch says who may watch)."""
    game = watch.find_game(game_id)
    if game is None:
        raise Http404("no such game")
    refused = watch.refusal(game)
    if refused:
        context = {"message": watch.refusal_message(refused, game), "game": game}
        return render(request, "watch_refused.html", context, status=403)
    return render(request, "watch.html", {"game": game})


@csrf_exempt  # test-only and off in production; the browser tests post positions from Python
@require_POST
def start_from_position(request: HttpRequest) -> HttpResponse:
    """FOOT_TEST_HOOKS only: a solo game for this session's player from the posted position; with
    "friends": {"N": "<player id>", …} a friends game with those players in those seats too; with
    "moves": [[seat, action], …] those moves already played from it and stored in its log."""
    if not test_hooks_enabled():
        raise Http404("test hooks are off")
    body = params.json_object_body(request, max_bytes=MAX_POSITION_BYTES)
    if body is None:
        return JsonResponse({"code": "bad_request", "message": "The body must be a JSON object."}, status=400)
    position, level, moves = body.get("position"), body.get("level", "normal"), body.get("moves") or []
    if not isinstance(position, dict) or not isinstance(moves, list):
        return JsonResponse(
            {"code": "invalid_position", "message": "The position must be a JSON object, the moves a list."},
            status=400,
        )
    try:
        played = EngineGame.from_position(position)
        moves = [(seat, normalise_action(action)) for seat, action in moves]
        for seat, action in moves:
            played.apply(seat, action)
    except (RuleError, TypeError, KeyError, ValueError) as refused:
        return JsonResponse({"code": getattr(refused, "code", "invalid_position"), "message": str(refused)}, status=400)
    player = player_for_request(request, create=True)
    game = prepared_game(player, position, moves, level, body.get("friends") or {})
    return JsonResponse(summary(game, player), status=201)


@require_GET
def cached_games(request: HttpRequest) -> HttpResponse:
    """FOOT_TEST_HOOKS only: how many games this process keeps in memory (games.rooms.live_games),
    so that a test can see a finished game leave nothing behind in a real server."""
    if not test_hooks_enabled():
        raise Http404("test hooks are off")
    return JsonResponse({"live": len(LIVE), "replayed": len(REPLAYED)})


urlpatterns = [
    path("", home, name="home"),
    path("g/<game:game_id>/", table, name="table"),
    path("join/", join_form, name="join-form"),
    path("join/<str:code>/", join, name="join"),
    path("rules/", rules, name="rules"),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("replay/<game:game_id>/", watch_page, name="watch"),
    # Only the site's own strings (locale/), not the admin's: a smaller catalogue for every page.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    path("test/start-position", start_from_position, name="test-start-position"),
    path("test/cached-games", cached_games, name="test-cached-games"),
]
