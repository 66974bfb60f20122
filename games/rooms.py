"""The room service: the only code that changes a stored game.

One move = one transaction: lock the Game row (`select_for_update`), check the version, apply
the action with the engine, append the Move, save the position and the version (a conditional
UPDATE on the version too, so SQLite, which has no row locks, cannot apply two moves to one
version either). After the commit the room computes, for every seat and for spectators, the
RFC 6902 patch from that seat's previous view to its new one and the events redacted for it,
and sends them in one channel-layer message to the group `game.<id>`; each consumer forwards
its own seat's part. Every listening seat (the human seats, and spectators through the public
part) gets every version, with empty ops when its view did not change; bot seats have no socket.

A move starts from the engine game and views this process left at the row's version
(games.live_games), else from the stored position; its statements are plain SQL
(games.game_rows) — together they took a move from about 7 to about 1 ms of CPU. On PostgreSQL a
move made from memory is one conditional statement (version, status and awaiting unchanged),
else it takes the locked path above: docs/ROOMS.md says why both are safe.

Bots: `advance(game_id)` plays every computer turn in a row, each its own move and version,
computed off the event loop (games.bot_runner); an answer for a stale version is dropped. Each
move hands the plan of the next bot move (seat, view, version) to the loop, so a run of bot
turns costs no extra read. It
runs after each human move and whenever a consumer connects or beats its heartbeat, so a game
left on a bot's turn by a restart goes on as soon as anyone is there. After a deal ends the bots
wait for every human's `next_deal` (friends: or FOOT_NEXT_DEAL_TIMEOUT seconds). In a friends
game a human seat with no live connection for FOOT_GRACE_SECONDS is played by a bot until its
player comes back.

FOOT_FAULT=<point>[@<version>] (test-only, off by default) makes the process `os._exit(137)` at
one of the points after_apply, before_commit, after_commit, bot_thinking, to prove that a kill
at any moment loses no acknowledged move and leaves no half-applied one.
"""
import asyncio
import datetime
import logging
import os
import weakref
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

import jsonpatch
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import bot_runner, game_rows
from games.live_games import LIVE, LiveGame
from games.models import LEVELS, SEATS, Game, Presence, new_invite_code

log = logging.getLogger(__name__)

PUBLIC = "*"  # the key of the spectators' part of an update
BOT_LEVEL_FOR_ABSENT = "normal"
HINT_LEVEL = "normal"


def setting(name: str, default: float) -> float:
    """A FOOT_* number from the Django settings, else the environment, else the default."""
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name, default)
    return float(value)


def grace_seconds() -> float:
    return setting("FOOT_GRACE_SECONDS", 60)


def heartbeat_seconds() -> float:
    return setting("FOOT_HEARTBEAT_SECONDS", 10)


def next_deal_timeout() -> float:
    return setting("FOOT_NEXT_DEAL_TIMEOUT", 30)


def bot_delay() -> float:
    # A short pause between bot moves lets a person follow them; tests set it to 0.
    return setting("FOOT_BOT_DELAY", 0.3)


class RoomError(Exception):
    """A refusal by the room (not a rule): a stable code, translated by games.messages."""

    def __init__(self, code: str, status: int = 400, params: dict | None = None):
        super().__init__(code)
        self.code = code
        self.status = status
        self.params = params or {}


def engine():
    """The engine module (imported late: the room service loads before the engine exists)."""
    from games import engine as engine_module
    return engine_module


def group_name(game_id) -> str:
    return f"game.{game_id}"


def fault(point: str, version: int | None = None) -> None:
    """Test-only crash injection: exit at once, as kill -9 would, at the configured point."""
    wanted = os.environ.get("FOOT_FAULT")
    if not wanted:
        return
    name, _, at_version = wanted.partition("@")
    if name != point:
        return
    if at_version and (version is None or version < int(at_version)):
        return
    os._exit(137)


# ---------------------------------------------------------------- games and seats


def load(game_id) -> Game | None:
    try:
        return Game.objects.filter(pk=game_id).first()
    except (ValueError, ValidationError):  # a malformed UUID
        return None


def game_for_invite(code: str) -> Game | None:
    """The friends game whose invite code this is (case-insensitive), for GET /join/<code>/."""
    if not code or len(code) > 12:
        return None
    return Game.objects.filter(invite_code=code.strip().upper(), mode=Game.FRIENDS).first()


def utc_today() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()


def start_position(seed: int) -> dict:
    return engine().Game.new(seed).to_position()


def create_game(player, mode: str, level: str | None = None) -> tuple[Game, bool]:
    """A new game for `player` (South); (game, created). The daily may return an existing game."""
    if mode == Game.SOLO:
        level = level or "normal"
        if level not in LEVELS:
            raise RoomError("bad_level")
        game = Game(mode=mode, level=level, seats=solo_seats(player, level), host=player)
        return start(game), True
    if mode == Game.DAILY:
        return daily_game(player)
    if mode == Game.FRIENDS:
        level = level or "normal"
        if level not in LEVELS:
            raise RoomError("bad_level")
        game = Game(mode=mode, level=level, seats={"S": {"player": str(player.id)}}, host=player)
        save_with_invite_code(game)
        return game, True
    raise RoomError("bad_mode")


def solo_seats(player, level: str) -> dict:
    return {"S": {"player": str(player.id)}, "W": {"bot": level}, "N": {"bot": level}, "E": {"bot": level}}


def save_with_invite_code(game: Game) -> None:
    for _attempt in range(10):
        game.invite_code = new_invite_code()
        try:
            with transaction.atomic():
                game.save()
            return
        except IntegrityError:
            continue
    raise RoomError("busy", status=503)


def daily_game(player) -> tuple[Game, bool]:
    """The player's unfinished daily of today, else a new one (ranked only if it is the first)."""
    from leaderboards.daily import daily_seed
    from leaderboards.models import Player

    date = utc_today()
    with transaction.atomic():
        # Lock the player: two tabs opening the daily at once must not both get a ranked game.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        mine = Game.objects.select_for_update().filter(
            mode=Game.DAILY, daily_date=date, seats__S__player=str(player.id))
        unfinished = mine.exclude(status=Game.FINISHED).order_by("created").first()
        if unfinished is not None:
            return unfinished, False
        ranked = not mine.exists()
        game = Game(mode=Game.DAILY, level="normal", daily_date=date, ranked=ranked,
                    seed=daily_seed(date), seats=solo_seats(player, "normal"), host=player)
        return start(game), True


def start(game: Game) -> Game:
    LIVE.forget(game.id)
    game.initial_position = start_position(game.seed)
    game.position = game.initial_position
    game.status = Game.PLAYING
    game.version = 0
    game.save()
    return game


def join_game(game_id, player, seat: str | None = None) -> tuple[Game, str]:
    """Seat `player` in a friends lobby (the wanted seat, else the first free of N, W, E)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise RoomError("not_found", status=404)
        already = game.seat_of(player.id)
        if already:
            return game, already
        if game.mode != Game.FRIENDS:
            raise RoomError("not_friends", status=409)
        if game.status != Game.LOBBY:
            raise RoomError("already_started", status=409)
        if seat is not None and seat not in SEATS:
            raise RoomError("bad_seat")
        free = [s for s in ("N", "W", "E") if s not in game.seats]
        if seat is not None and seat in game.seats:
            raise RoomError("seat_taken", status=409)
        if not free:
            raise RoomError("game_full", status=409)
        chosen = seat or free[0]
        game.seats = {**game.seats, chosen: {"player": str(player.id)}}
        game.save(update_fields=["seats", "updated"])
    broadcast_refresh_sync(game.id)
    return game, chosen


def start_friends_game(game_id, player) -> Game:
    """The host starts the lobby: bots of the game's level take the empty seats."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise RoomError("not_found", status=404)
        if game.host_id != player.id:
            raise RoomError("not_host", status=403)
        if game.status != Game.LOBBY:
            raise RoomError("already_started", status=409)
        game.seats = {seat: game.seats.get(seat) or {"bot": game.level} for seat in SEATS}
        start(game)
    broadcast_refresh_sync(game.id)
    return game


def seat_labels(game: Game, viewer_seat: str | None) -> dict:
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


def summary(game: Game, player) -> dict:
    """The game as GET /api/games/<id> and POST /api/games answer it, for this player."""
    seat = game.seat_of(player.id) if player is not None else None
    return {
        "id": str(game.id),
        "url": f"/g/{game.id}/",
        "ws": f"/ws/game/{game.id}/",
        "seat": seat,
        "ranked": game.ranked,
        "code": game.invite_code if game.mode == Game.FRIENDS else None,
        "mode": game.mode,
        "level": game.level,
        "status": game.status,
        "version": game.version,
        "daily_date": game.daily_date.isoformat() if game.daily_date else None,
        "host": bool(player is not None and game.host_id == player.id),
        "seats": seat_labels(game, seat),
    }


def replay(game: Game):
    """The engine game rebuilt from the initial position and the stored moves, in order."""
    replayed = engine().Game.from_position(game.initial_position)
    for move in game.moves.order_by("seq"):
        replayed.apply(move.seat, move.action)
    return replayed


# ---------------------------------------------------------------- views and moves


def view_for(engine_game, seat: str | None) -> dict:
    """The seat's view; a spectator's (the public view) for None or PUBLIC."""
    return engine_game.view(seat) if seat and seat != PUBLIC else engine_game.public_view()


def all_views(engine_game) -> dict:
    views = {seat: engine_game.view(seat) for seat in SEATS}
    views[PUBLIC] = engine_game.public_view()
    return views


def redacted(events: list, seat: str | None) -> list:
    return engine().redact_events(events, seat)


def stored_engine_game(game: Game):
    """The engine game at the stored position; rebuilt from the move log if the engine refuses it.

    The position is the engine's own output, so a refusal is an engine bug (seen: a game ended by
    a foot pickup whose second red three found the stock empty); the replay still shows the game.
    """
    try:
        return engine().Game.from_position(game.position)
    except engine().RuleError:
        log.error("the engine refuses the stored position of game %s v%s; replaying its moves", game.id, game.version)
        return replay(game)


def state_message(game: Game, seat: str | None) -> dict:
    """The whole `state` of the game for a seat (None: a spectator)."""
    view = LIVE.views(game.id, game.version).get(seat or PUBLIC)  # a lobby has no live entry
    if view is None and game.position is not None:
        view = view_for(stored_engine_game(game), seat)
    return {
        "type": "state", "v": game.version, "view": view, "seat": seat,
        "mode": game.mode, "ranked": game.ranked, "status": game.status, "level": game.level,
        "seats": seat_labels(game, seat), "awaiting": list(game.awaiting),
        "date": game.daily_date.isoformat() if game.daily_date else None,
        "code": game.invite_code if game.mode == Game.FRIENDS and seat else None,
    }


@dataclass
class MoveResult:
    game_id: str
    version: int
    seat: str
    parts: dict  # seat or PUBLIC -> {"ops": [...], "events": [...]}
    status: str
    awaiting: list = field(default_factory=list)
    next_plan: "BotPlan | None" = None  # the computer move due after this one, when known at once
    settled: bool = False  # True: no computer move is due after this one (known without presence)

    def message(self, origin: str | None, ref) -> dict:
        return {"type": "room.update", "v": self.version, "seat": self.seat, "parts": self.parts,
                "status": self.status, "awaiting": self.awaiting, "origin": origin, "ref": ref}


def apply_move(game_id, seat: str, action: dict, expected_version: int | None) -> MoveResult:
    """Apply one action of `seat` as one transaction; raises RoomError or the engine's RuleError."""
    try:
        outcome = _apply_from_memory(game_id, seat, action, expected_version)
        if outcome is None:
            outcome = _apply_in_transaction(game_id, seat, action, expected_version)
    except IntegrityError as clash:  # another writer appended this version first
        raise RoomError("stale_version", status=409) from clash
    result, game = outcome
    fault("after_commit", result.version)
    if game.status == Game.FINISHED:
        record_daily_result(game)
    return result


def listener_keys(game: Game) -> list:
    """Whose views a move patches: the human seats (a bot seat has no socket) and spectators."""
    return [*game.human_seats(), PUBLIC]


def live_game(game: Game, keys: list) -> LiveGame:
    """The engine game at the row's version with the listeners' views: from memory, else rebuilt."""
    live = LIVE.take(game.id, game.version)
    if live is None:
        engine_game = stored_engine_game(game)
        live = LiveGame(game.version, engine_game, {}, engine_game.turn)
    live.row = game  # the row just read: the freshest copy for a move from memory
    missing = [key for key in keys if key not in live.views]
    if missing:
        live.views = {**live.views, **{key: view_for(live.engine_game, key) for key in missing}}
    return live


def _apply_from_memory(game_id, seat, action, expected_version):
    """PostgreSQL: the move as one conditional statement, from the game and the row this process
    kept after the previous move — no locked read, no transaction of several round trips.

    The statement writes only if the row is still at that version, status and `awaiting` (the
    row's only fields that change between moves: `next_deal` sets `awaiting` without a new
    version). None when this path does not apply or the row moved on: the caller then takes the
    locked path, which rebuilds the game from the database and refuses a stale action.
    """
    if expected_version is None or not game_rows.supports_one_statement_moves():
        return None
    live = LIVE.take(game_id, expected_version)
    if live is None:
        return None
    game = live.row
    if game is None or game.status != Game.PLAYING or not set(listener_keys(game)) <= set(live.views):
        return None
    known_status, known_awaiting = game.status, list(game.awaiting)
    try:
        events = live.engine_game.apply(seat, action)
    except engine().RuleError:
        # The engine changed nothing, so the entry is kept; but the memory may be behind the row,
        # and a stale action must be refused as stale, not judged by the rules of an old position:
        # the locked path checks the version first, then the rules.
        LIVE.put(game_id, live)
        return None
    new_version, after = _record_in_row(game, live, seat, events)
    fault("before_commit", new_version)
    if not game_rows.write_move_if_unchanged(game, new_version, seat, action, known_status, known_awaiting):
        return None  # the entry is gone and its engine game changed: the locked path rebuilds
    return _after_commit(game, live, seat, events, after, new_version), game


def _apply_in_transaction(game_id, seat, action, expected_version):
    with transaction.atomic():
        game = game_rows.lock_game(game_id)
        refuse_move(game, expected_version)
        live = live_game(game, listener_keys(game))
        try:
            events = live.engine_game.apply(seat, action)
        except engine().RuleError:
            LIVE.put(game.id, live)  # the engine changed nothing: the entry is still right
            raise  # and the transaction rolls back: nothing written
        new_version, after = _record_in_row(game, live, seat, events)
        if not game_rows.write_move(game, new_version, seat, action):
            raise RoomError("stale_version", status=409)
        fault("before_commit", new_version)
    return _after_commit(game, live, seat, events, after, new_version), game


def _record_in_row(game: Game, live: LiveGame, seat: str, events: list) -> tuple[int, dict]:
    """After the engine applied the move: the new version, the listeners' new views, and the row's
    position, status and awaiting set as they are to be stored."""
    engine_game = live.engine_game
    new_version = game.version + 1
    fault("after_apply", new_version)
    after = {key: view_for(engine_game, key) for key in listener_keys(game)}
    game.position = engine_game.to_position()
    game.status = Game.FINISHED if engine_game.turn is None else Game.PLAYING
    update_awaiting(game, seat, events)
    return new_version, after


def _after_commit(game: Game, live: LiveGame, seat: str, events: list, after: dict, new_version: int) -> MoveResult:
    """The committed move's result: patches and events per listener, the next bot's plan; and the
    game kept in memory for the next move (only a committed move is: a rollback leaves no entry
    to mislead the next one; a finished game, which has no next move, is not kept)."""
    engine_game = live.engine_game
    game.version = new_version
    next_plan, settled = bot_plan_after(game, engine_game)
    if game.status == Game.PLAYING:
        LIVE.put(game.id, LiveGame(new_version, engine_game, after, engine_game.turn, game))
    parts = {key: {"ops": view_patch(live.views[key], after[key]),
                   "events": redacted(events, None if key == PUBLIC else key)} for key in after}
    return MoveResult(str(game.id), new_version, seat, parts, game.status, list(game.awaiting),
                      next_plan, settled)


def view_patch(before, after, path: str = "") -> list:
    """RFC 6902 ops from `before` to `after`, as jsonpatch.make_patch would find them, but cheaper.

    Equal subtrees are skipped with a plain == (make_patch serialises them to compare), a list
    that only grew or shrank at its end (the discard pile, a meld) gets add/remove ops at its end,
    a changed scalar one replace; anything else goes to jsonpatch.make_patch. Most of a view is
    unchanged by a move, so this is several times cheaper than one make_patch of the whole view.
    """
    if isinstance(before, dict) and isinstance(after, dict):
        return dict_patch(before, after, path)
    if isinstance(before, list) and isinstance(after, list):
        common = min(len(before), len(after))
        if before[:common] == after[:common]:
            if len(after) > common:
                return [{"op": "add", "path": f"{path}/{index}", "value": after[index]}
                        for index in range(common, len(after))]
            return [{"op": "remove", "path": f"{path}/{index}"} for index in range(len(before) - 1, common - 1, -1)]
    elif not isinstance(before, (dict, list)) and not isinstance(after, (dict, list)) and path:
        return [{"op": "replace", "path": path, "value": after}]
    return [rebased(op, path) for op in jsonpatch.make_patch(before, after).patch]


def rebased(op: dict, path: str) -> dict:
    """An op of a sub-document's patch, pointed at that sub-document (`from` of move/copy too)."""
    op = dict(op, path=path + op["path"])
    if "from" in op:
        op["from"] = path + op["from"]
    return op


def dict_patch(before: dict, after: dict, path: str) -> list:
    # A pointer is spelled only for a key that changed: most of a view's keys do not.
    ops = [{"op": "remove", "path": f"{path}/{escape_pointer(key)}"} for key in before if key not in after]
    missing = object()
    for key, value in after.items():
        old = before.get(key, missing)
        if old is missing:
            ops.append({"op": "add", "path": f"{path}/{escape_pointer(key)}", "value": value})
        elif old != value:
            ops.extend(view_patch(old, value, f"{path}/{escape_pointer(key)}"))
    return ops


def escape_pointer(key) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def refuse_move(game: Game | None, expected_version: int | None) -> None:
    if game is None:
        raise RoomError("not_found", status=404)
    if game.status == Game.LOBBY:
        raise RoomError("not_started", status=409)
    if game.status == Game.FINISHED:
        raise RoomError("game_over", status=409)
    if expected_version is not None and expected_version != game.version:
        raise RoomError("stale_version", status=409)


def update_awaiting(game: Game, seat: str, events: list) -> None:
    """After a deal ends (and the game goes on) the bots wait for each human's next_deal."""
    if seat in game.awaiting:
        # A human who acts has seen the score.
        game.awaiting = [s for s in game.awaiting if s != seat]
    types = {event.get("type") for event in events}
    if "deal_end" in types and "game_over" not in types and game.status != Game.FINISHED:
        game.awaiting = game.human_seats()
        game.awaiting_since = timezone.now()


def record_daily_result(game: Game) -> None:
    """The ranked daily's Entry (idempotent; also called when anyone opens a finished daily)."""
    if game.mode != Game.DAILY or not game.ranked:
        return
    try:
        from leaderboards.daily import on_game_finished
    except ImportError:
        log.warning("leaderboards.daily is missing: daily game %s not recorded", game.id)
        return
    try:
        on_game_finished(game)
    except Exception:  # the move stands; the entry is written again on the next visit
        log.exception("could not record daily game %s", game.id)


def next_deal(game_id, seat: str) -> bool:
    """The human at `seat` saw the deal's score; True when no human is awaited any more."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return False
        if seat in game.awaiting:
            game.awaiting = [s for s in game.awaiting if s != seat]
            game.save(update_fields=["awaiting", "updated"])
        return not game.awaiting


def check_action(game_id, seat: str, action: dict) -> dict:
    game = load(game_id)
    if game is None:
        raise RoomError("not_found", status=404)
    if game.position is None:
        raise RoomError("not_started", status=409)
    return engine().Game.from_position(game.position).check(seat, action)


# ---------------------------------------------------------------- presence


def touch_presence(game_id, seat: str | None, channel_name: str, first: bool = False) -> None:
    """The socket is there now (on connect and on every heartbeat: then one UPDATE)."""
    if first:
        # Closed sockets of this seat only served to date its absence: the seat is back.
        Presence.objects.filter(game_id=game_id, seat=seat, connected=False).delete()
    elif Presence.objects.filter(channel_name=channel_name).update(last_seen=timezone.now(), connected=True):
        return
    Presence.objects.update_or_create(channel_name=channel_name, defaults={
        "game_id": game_id, "seat": seat, "last_seen": timezone.now(), "connected": True})


def drop_presence(channel_name: str) -> None:
    """The socket closed: keep the row, dated now, as the start of its seat's absence."""
    Presence.objects.filter(channel_name=channel_name).update(connected=False, last_seen=timezone.now())


def seat_presence(game: Game) -> dict:
    """For each seat: "bot", or for a human "connected" / "disconnected" / "away" (past the grace)."""
    now = timezone.now()
    fresh = now - datetime.timedelta(seconds=3 * heartbeat_seconds())
    live = set(Presence.objects.filter(game=game, connected=True, last_seen__gte=fresh)
               .values_list("seat", flat=True))
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
    last = Presence.objects.filter(game=game, seat=seat).order_by("-last_seen").values_list(
        "last_seen", flat=True).first()
    # A player who never connected is absent since the game was made.
    since = last or game.created
    return (now - since).total_seconds() > grace_seconds()


def presence_message(game_id) -> dict | None:
    game = load(game_id)
    if game is None:
        return None
    return {"type": "room.presence", "seats": seat_presence(game)}


# ---------------------------------------------------------------- bots


@dataclass
class BotPlan:
    seat: str
    level: str
    seed: int
    view: dict
    version: int


def plan_bot_move(game_id) -> BotPlan | None:
    """The computer move due now, if any (a bot's turn, or an absent friend's past the grace).

    Cheap when nothing is due (the heartbeats ask every few seconds): one read of the row without
    its positions, and the turn from this process's live game when it is at the row's version.
    """
    game = game_rows.read_game(game_id)
    if game is None or game.status != Game.PLAYING or awaiting_humans(game):
        return None
    live = LIVE.peek(game.id, game.version)
    engine_game = None
    if live is not None:
        seat = live.turn
    else:
        engine_game = stored_engine_game(game)
        seat = engine_game.turn
    if seat is None:
        return None
    level = game.bot_level(seat)
    if level is None:
        if game.mode != Game.FRIENDS or seat_presence(game)[seat] != "away":
            return None
        level = BOT_LEVEL_FOR_ABSENT
    if engine_game is None:
        engine_game = stored_engine_game(game)
    return BotPlan(seat, level, bot_runner.bot_seed(game.seed, seat), engine_game.view(seat), game.version)


def bot_plan_after(game: Game, engine_game) -> tuple[BotPlan | None, bool]:
    """(the bot move due right after a move, whether no computer move is due), found right after
    the move's commit without reading the game again. A friend's seat may be played by a bot
    once its player is away, which needs the presence rows: neither is known then."""
    seat = engine_game.turn
    if seat is None or game.status != Game.PLAYING or awaiting_humans(game):
        return None, True
    level = game.bot_level(seat)
    if level is None:
        return None, game.mode != Game.FRIENDS
    return BotPlan(seat, level, bot_runner.bot_seed(game.seed, seat), engine_game.view(seat), game.version), False


def awaiting_humans(game: Game) -> bool:
    if not game.awaiting:
        return False
    if game.mode == Game.FRIENDS and game.awaiting_since is not None:
        waited = (timezone.now() - game.awaiting_since).total_seconds()
        return waited < next_deal_timeout()
    return True


_advancing: dict[str, bool] = {}  # game id -> "look again when done" (one advancer per game per process)
_background: set = set()


def advance_soon(game_id, plan: BotPlan | None = None) -> None:
    """Play the bots' turns in the background (keeping a reference so the task is not collected)."""
    task = asyncio.get_running_loop().create_task(advance(str(game_id), plan))
    _background.add(task)
    task.add_done_callback(_background.discard)


async def advance(game_id: str, plan: BotPlan | None = None) -> None:
    """Play every computer move that is due, one move and version at a time.

    Each move hands over the plan of the next one when it knows it (a bot seat to play), so a
    run of bot turns reads the game once per move, inside the move's own transaction.
    """
    if game_id in _advancing:
        _advancing[game_id] = True
        return
    _advancing[game_id] = False
    try:
        while True:
            moved, plan, settled = await advance_once(game_id, plan)
            if _advancing[game_id]:  # asked again meanwhile: look at the stored game afresh
                _advancing[game_id] = False
                plan, settled = None, False
                continue
            if settled or not moved:
                return
            if bot_delay() > 0:
                await asyncio.sleep(bot_delay())
    finally:
        _advancing.pop(game_id, None)


DB_RETRIES = 3
_db_threads: ThreadPoolExecutor | None = None
_bot_slots: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]" = weakref.WeakKeyDictionary()


def on_postgresql() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def database_threads() -> int:
    """The threads that serve the rooms' database calls: FOOT_DB_THREADS on PostgreSQL, else one."""
    return int(setting("FOOT_DB_THREADS", 4)) if on_postgresql() else 1


def bot_slot() -> asyncio.Semaphore:
    """The gate a computer move passes to use a database thread: one fewer than the threads, at
    least one. The threads serve their queue in order, so without it a person's move could wait
    behind the bot moves of every other busy room of the process (SQLite: one thread for all);
    with it, behind one bot move at most. One gate per event loop (tests run several)."""
    loop = asyncio.get_running_loop()
    if loop not in _bot_slots:
        _bot_slots[loop] = asyncio.Semaphore(max(1, database_threads() - 1))
    return _bot_slots[loop]


def database_call(function):
    """`function` made awaitable in a database thread, for the room's own work (moves, plans).

    On PostgreSQL a small pool of threads (FOOT_DB_THREADS, default 4; each keeps its own
    connection), so that one move's durable commit (a WAL flush, about 4 ms here) does not hold
    up every other room of the process, and concurrent commits share their flushes. The hand-off
    is the event loop's own `run_in_executor`: asgiref's (which Channels' helper uses) copies and
    restores every context variable and visits every connection around each call, a sizeable
    share of a move's CPU (docs/PERFORMANCE.md); the room's functions read no context variable,
    and only the default connection is used here, so it alone is looked after. SQLite takes one
    writer at a time, so there the one database thread of Channels serves them in turn.
    """
    global _db_threads
    if not on_postgresql():
        return database_sync_to_async(function)
    if _db_threads is None:
        _db_threads = ThreadPoolExecutor(max_workers=database_threads(), thread_name_prefix="room-db")

    async def call(*args):
        return await asyncio.get_running_loop().run_in_executor(_db_threads, in_database_thread, function, args)
    return call


def in_database_thread(function, args):
    """What Channels does around a call in its database thread (`close_old_connections`), for the
    one connection the rooms use: drop it when it broke or outlived CONN_MAX_AGE, before and after."""
    from django.db import connections

    connection = connections["default"]
    connection.close_if_unusable_or_obsolete()
    try:
        return function(*args)
    finally:
        connection.close_if_unusable_or_obsolete()


async def with_db_retries(function, *args):
    """Run a database step, retrying a dropped or busy connection: moves are versioned, so a retry
    after a commit whose answer was lost is refused as stale and never applies a move twice."""
    from django.db import Error as DatabaseError

    for attempt in range(DB_RETRIES):
        try:
            return await database_call(function)(*args)
        except DatabaseError:
            if attempt == DB_RETRIES - 1:
                raise
            log.warning("database error in %s, retrying", function.__name__, exc_info=True)
            await asyncio.sleep(0.2 * (attempt + 1))


class BotFailed(Exception):
    """A bot raised instead of answering (a bug in a bot): its game's bots stop, the room goes on."""


@contextmanager
def failing_bot(plan: BotPlan):
    """A bot's exception (other than no bots installed) raised as BotFailed, told apart from the
    move's own refusals."""
    try:
        yield
    except bot_runner.NoBot:
        raise
    except Exception as failure:
        raise BotFailed(plan.level) from failure


def think_and_apply(game_id, plan: BotPlan) -> MoveResult:
    """A thread-pool bot's move in one database call: its decision, then the move."""
    with failing_bot(plan):
        action = bot_runner.compute_action(plan.level, plan.seed, plan.view)
    fault("bot_thinking", plan.version + 1)
    return apply_move(game_id, plan.seat, action, plan.version)


async def think_elsewhere(plan: BotPlan) -> dict:
    """A slow bot's decision in its process pool (the event loop serves other rooms meanwhile)."""
    with failing_bot(plan):
        return await bot_runner.think(plan.level, plan.seed, plan.view)


async def advance_once(game_id: str, plan: BotPlan | None = None) -> tuple[bool, BotPlan | None, bool]:
    """One computer move: (moved, the plan of the next one if known, no computer move is due)."""
    if plan is None:
        plan = await with_db_retries(plan_bot_move, game_id)
        if plan is None:
            return False, None, True
    try:
        if bot_runner.pool_kind(plan.level) == "thread":
            # A quick bot thinks in the move's own database thread: one hand-off per move, not two.
            async with bot_slot():
                result = await with_db_retries(think_and_apply, game_id, plan)
        else:
            action = await think_elsewhere(plan)
            fault("bot_thinking", plan.version + 1)
            async with bot_slot():
                result = await with_db_retries(apply_move, game_id, plan.seat, action, plan.version)
    except bot_runner.NoBot:
        return False, None, True
    except BotFailed:
        log.exception("bot %s failed in game %s at v%s", plan.level, game_id, plan.version)
        return False, None, True
    except RoomError as refusal:
        # A human or another worker moved first: look again (any other refusal: stop).
        return refusal.code == "stale_version", None, refusal.code != "stale_version"
    except Exception as error:  # an illegal bot action: stop rather than loop on it
        log.error("bot %s action refused in game %s at v%s: %s", plan.level, game_id, plan.version, error)
        return False, None, True
    await broadcast(result, origin=None, ref=None)
    return True, result.next_plan, result.settled


async def hint(game_id, seat: str) -> dict:
    game = await database_sync_to_async(load)(game_id)
    if game is None or game.position is None:
        raise RoomError("not_started")
    if game.mode == Game.DAILY and game.ranked:
        raise RoomError("hint_unavailable", status=403)
    engine_game = engine().Game.from_position(game.position)
    try:
        return await bot_runner.think(HINT_LEVEL, bot_runner.bot_seed(game.seed, seat), engine_game.view(seat))
    except Exception as failure:
        raise RoomError("hint_failed") from failure


# ---------------------------------------------------------------- broadcasting


async def broadcast(result: MoveResult, origin: str | None, ref) -> None:
    await get_channel_layer().group_send(group_name(result.game_id), result.message(origin, ref))


async def broadcast_refresh(game_id) -> None:
    await get_channel_layer().group_send(group_name(game_id), {"type": "room.refresh"})


def broadcast_refresh_sync(game_id) -> None:
    """From sync code (HTTP views): tell every open socket of the game to fetch a fresh state."""
    from asgiref.sync import async_to_sync
    try:
        async_to_sync(broadcast_refresh)(game_id)
    except Exception:  # the lobby change is stored; sockets also refresh on their heartbeat
        log.exception("could not broadcast a refresh of game %s", game_id)


async def broadcast_presence(game_id, unless: dict | None = None) -> None:
    """Send every socket of the game who is there (not when it equals `unless`, already known)."""
    message = await database_sync_to_async(presence_message)(game_id)
    if message is None or message["seats"] == unless:
        return
    try:
        await get_channel_layer().group_send(group_name(game_id), message)
    except Exception:  # the layer is down (Redis restarting): presence is sent again on the next change
        log.warning("could not send the presence of game %s", game_id, exc_info=True)


async def act(game_id, seat: str, action: dict, version: int | None, origin: str, ref) -> MoveResult:
    """A human's move: apply, broadcast to every seat, then let the bots answer."""
    result = await database_call(apply_move)(game_id, seat, action, version)
    await broadcast(result, origin=origin, ref=ref)
    if not result.settled:
        advance_soon(game_id, result.next_plan)
    return result

