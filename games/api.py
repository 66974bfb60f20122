"""The JSON API of the games app: the session's player, creating, joining, starting, reading games,
playing a friends game again, and watching a finished one (games.watch).

Errors are {"code", "message"} with a 4xx status, the message in the request's language
(LocaleMiddleware). Every POST needs the X-CSRFToken header (the token comes with
GET /api/session); a failed CSRF check answers JSON too. Creating games and players, joins and
invite-code lookups, and looks at one's own games, are counted in players.limits: past a limit the
answer is 429 with Retry-After (players.limits.RateLimitMiddleware). The routes are in docs/PROTOCOL.md.
"""

import dataclasses
import json
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, Literal, ParamSpec, overload

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.urls import URLPattern, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from games import deflate_parts, engine, params, watch
from games.messages import message_for
from games.models import Game, GameId
from games.rooms.creation import create_game, game_for_invite, join_game, set_lobby_rules, start_friends_game
from games.rooms.errors import RoomError
from games.rooms.lesson_room import MOUSE, TOUCH, lesson_step
from games.rooms.listing import player_games
from games.rooms.rematch import play_again
from games.rooms.seat_views import summary
from games.rooms.stored import load
from games.signals import game_created
from players import identity
from players.identity import player_for_request
from players.models import Player

Parameters = ParamSpec("Parameters")


def error(status: int, code: str, **params: Any) -> JsonResponse:
    return JsonResponse({"code": code, "message": message_for(code, params=params)}, status=status)


def api_view(
    *methods: str,
) -> Callable[
    [Callable[Concatenate[HttpRequest, Parameters], HttpResponse]],
    Callable[Concatenate[HttpRequest, Parameters], HttpResponse],
]:
    """Allow `methods`, check CSRF on POST with a JSON refusal, and turn RoomErrors into JSON."""

    def decorate(
        view: Callable[Concatenate[HttpRequest, Parameters], HttpResponse],
    ) -> Callable[Concatenate[HttpRequest, Parameters], HttpResponse]:
        @csrf_exempt  # checked below, so a failure answers JSON rather than Django's HTML page
        @wraps(view)
        def wrapper(request: HttpRequest, /, *args: Parameters.args, **kwargs: Parameters.kwargs) -> HttpResponse:
            if request.method not in methods:
                return error(405, "method_not_allowed")
            if request.method == "POST":
                # Only the check: the middleware never calls the view it is given here.
                refusal = CsrfViewMiddleware(view).process_view(request, view, args, kwargs)
                if refusal is not None:
                    return error(403, "csrf_failed")
            try:
                return view(request, *args, **kwargs)
            except RoomError as refused:
                return error(refused.status, refused.code, **refused.params)

        return wrapper

    return decorate


def count(request: HttpRequest, action: str) -> None:
    """Count one `action` of this session and network (players.limits); a 429 when over the limit."""
    identity.count(request, action)


@overload
def current_player(request: HttpRequest, create: Literal[True]) -> Player: ...
@overload
def current_player(request: HttpRequest, create: bool) -> Player | None: ...


def current_player(request: HttpRequest, create: bool) -> Player | None:
    player = player_for_request(request, create=create)
    if player is not None and player.banned:
        raise RoomError("banned", status=403)
    return player


@api_view("GET")
def session(request: HttpRequest) -> HttpResponse:
    player = current_player(request, create=True)
    return JsonResponse({"player": {"id": str(player.id), "nickname": player.nickname}, "csrf": get_token(request)})


@api_view("GET", "POST")
def games(request: HttpRequest) -> HttpResponse:
    """GET: the caller's own games (never creates a player); POST: a new game."""
    if request.method == "GET":
        count(request, "list")
        return JsonResponse({"games": player_games(current_player(request, create=False))})
    body = params.json_object_body(request)
    if body is None:
        return error(400, "bad_request")
    mode, level = body.get("mode"), body.get("level")
    if mode not in (Game.SOLO, Game.DAILY, Game.FRIENDS, Game.LESSON):
        return error(400, "bad_mode")
    if level is not None and not isinstance(level, str):
        return error(400, "bad_level")
    rules = engine.STANDARD
    if "rules" in body:  # house rules: a solo or friends game only; checked before anything is made
        if mode not in (Game.SOLO, Game.FRIENDS):
            return error(400, "standard_rules_only")
        rules = house_rules(body["rules"])
    if mode == Game.SOLO and "undo" not in (body.get("rules") or {}):
        rules = dataclasses.replace(rules, undo=True)  # V7: on in a solo game unless it says otherwise
    count(request, "game")
    player = current_player(request, create=True)
    game, created = create_game(player, mode, level, rules)
    if created:
        game_created.send(sender=Game, game=game, **identity.limit_keys(request))
    return JsonResponse(summary(game, player), status=201 if created else 200)


def house_rules(value: object) -> engine.Rules:
    """A table's house rules (docs/RULES.md §17), or a 400 naming the problem."""
    try:
        return engine.Rules.from_json(value)
    except engine.RulesError as refused:
        raise RoomError(refused.code, params={"problem": refused.message}) from None


def game_or_404(request: HttpRequest, game_id: GameId) -> Game:
    """The game by id (any case, made canonical), or by a friends game's invite code (a link's code as is).
    A code is guessable where an id is not: looking one up counts as a join."""
    canonical = params.game_id(game_id)
    if canonical:
        game = load(canonical)
    else:
        count(request, "join")
        game = game_for_invite(str(game_id))
    if game is None:
        raise RoomError("not_found", status=404)
    return game


@api_view("GET")
def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    game = game_or_404(request, game_id)
    return JsonResponse(summary(game, current_player(request, create=False)))


@api_view("GET")
def lesson(request: HttpRequest, game_id: str) -> HttpResponse:
    """Learn to play: the lesson's current step and its prompt, for the game's South player."""
    game = game_or_404(request, game_id)
    device = TOUCH if request.GET.get("device") == TOUCH else MOUSE  # lesson.js: the page's pointer
    return JsonResponse(lesson_step(game, current_player(request, create=False), device))


@api_view("POST")
def join(request: HttpRequest, game_id: GameId) -> HttpResponse:
    body = params.json_object_body(request)
    if body is None:
        return error(400, "bad_request")
    seat = body.get("seat")
    if seat is not None and not isinstance(seat, str):
        return error(400, "bad_seat", seat=seat)
    count(request, "join")
    game_id = game_or_404(request, game_id).id
    player = current_player(request, create=True)
    game, _seat = join_game(game_id, player, seat)
    return JsonResponse(summary(game, player))


@api_view("POST")
def join_by_code(request: HttpRequest) -> HttpResponse:
    """The home page's code box: join the friends table whose invite code this is."""
    body = params.json_object_body(request)
    if body is None:
        return error(400, "bad_request")
    count(request, "join")  # a code is guessable: every lookup counts (players.limits)
    code = body.get("code")
    game = game_for_invite(code) if isinstance(code, str) else None
    if game is None:
        return error(404, "unknown_invite")
    player = current_player(request, create=True)
    game, _seat = join_game(game.id, player)
    return JsonResponse(summary(game, player))


@api_view("POST")
def start(request: HttpRequest, game_id: GameId) -> HttpResponse:
    game_id = game_or_404(request, game_id).id
    player = current_player(request, create=False)
    if player is None:
        return error(403, "not_host")
    game = start_friends_game(game_id, player)
    return JsonResponse(summary(game, player))


@api_view("POST")
def rules(request: HttpRequest, game_id: GameId) -> HttpResponse:
    """The host sets the house rules of a friends lobby (the friends see them in its state)."""
    body = params.json_object_body(request)
    if body is None or "rules" not in body:
        return error(400, "bad_request")
    chosen = house_rules(body["rules"])
    game_id = game_or_404(request, game_id).id
    player = current_player(request, create=False)
    if player is None:
        return error(403, "not_host")
    game = set_lobby_rules(game_id, player, chosen)
    return JsonResponse(summary(game, player))


@api_view("POST")
def again(request: HttpRequest, game_id: GameId) -> HttpResponse:
    """Play again: the lobby that follows this finished friends game, the caller seated in it."""
    game_id = game_or_404(request, game_id).id
    count(request, "game")
    player = current_player(request, create=False)
    if player is None:
        return error(403, "not_seated")
    lobby = play_again(game_id, player)
    return JsonResponse(summary(lobby, player))


@require_GET
def watch_replay(request: HttpRequest, game_id: str) -> HttpResponse:
    """A finished game move by move with every hand open (games.watch says who may). The replay's
    cached compressed bytes are sent as they are, with the request's own fields around them."""
    identity.count(request, "replay")  # before the lookup: guessing ids counts too
    if identity.session_hash(request.session) is None:
        identity.count(request, "replay_cookieless")  # a tighter window for callers with no cookie
    game = watch.find_game(game_id)
    if game is None:
        return JsonResponse({"code": "not_found", "message": "There is no such game."}, status=404)
    refused = watch.refusal(game)
    if refused:
        return JsonResponse({"code": refused, "message": watch.refusal_message(refused, game)}, status=403)
    replay, steps = watch.replay_part(game)
    me = identity.player_for_request(request, create=False)
    head = {
        "game_id": str(game.pk),
        "mode": game.mode,
        "date": game.daily_date.isoformat() if game.daily_date else None,
        "seat": game.seat_of(me.pk) if me else None,
        "players": watch.players_of(game),
        "total_steps": steps + 1,
    }
    return json_around(request, json.dumps(head, separators=(",", ":")).encode()[:-1] + b",", replay)


def takes_deflate(request: HttpRequest) -> bool:
    """Whether the client's Accept-Encoding takes `deflate` (named, and not with q=0)."""
    for coding in request.headers.get("Accept-Encoding", "").split(","):
        name, _, quality = coding.strip().partition(";")
        if name.strip().lower() == "deflate":
            weight = quality.replace(" ", "").removeprefix("q=")
            return not weight or not all(c in "0." for c in weight)
    return False


def json_around(request: HttpRequest, head: bytes, middle: deflate_parts.Part) -> HttpResponse:
    """`head` + the middle part's text + `}` as JSON: deflated without inflating the middle when
    the client takes `deflate` (every browser does), else plain."""
    if takes_deflate(request):
        body = deflate_parts.zlib_body(
            [deflate_parts.compress_part(head), middle, deflate_parts.compress_part(b"}", final=True)]
        )
        answer = HttpResponse(body, content_type="application/json")
        answer["Content-Encoding"] = "deflate"
    else:
        answer = HttpResponse(head + deflate_parts.inflate_part(middle) + b"}", content_type="application/json")
    answer["Vary"] = "Accept-Encoding"
    return answer


urlpatterns: list[URLPattern] = [
    path("api/session", session, name="api-session"),
    path("api/games", games, name="api-games"),
    path("api/join", join_by_code, name="api-join"),
    path("api/games/<str:game_id>", game_detail, name="api-game"),
    path("api/games/<str:game_id>/lesson", lesson, name="api-game-lesson"),
    path("api/games/<str:game_id>/join", join, name="api-game-join"),
    path("api/games/<str:game_id>/start", start, name="api-game-start"),
    path("api/games/<str:game_id>/again", again, name="api-game-again"),
    path("api/games/<str:game_id>/rules", rules, name="api-game-rules"),
    path("api/watch/<game:game_id>", watch_replay, name="api_watch"),
]
