"""New games and their seats: a solo game against three bots, a friends lobby with an invite
code, joining a lobby, changing seats in it and the host's start; and the modes the apps built on games add (the
daily, by leaderboards) through `register_mode`.

May call the engine, games.models, and of the room service errors, live_games and broadcast
(a lobby change tells the lobby's sockets to refresh). Never the apps that register modes.
"""

import datetime
from collections.abc import Callable
from typing import Any, TypeAlias

from django.db import IntegrityError, transaction

from games import engine
from games.engine.records import Position
from games.models import LEVELS, SEATS, Game, GameId, Move, PlayerId, new_invite_code
from games.rooms.broadcast import broadcast_refresh_sync
from games.rooms.errors import RoomError
from games.rooms.live_games import LIVE
from players.models import Player


def game_for_invite(code: str) -> Game | None:
    """The friends game whose invite code this is (case-insensitive), for GET /join/<code>/."""
    if not code or len(code) > 12:
        return None
    return Game.objects.filter(invite_code=code.strip().upper(), mode=Game.FRIENDS).first()


def utc_today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def start_position(seed: int, rules: engine.Rules = engine.STANDARD) -> Position:
    """Deal 1 of the game of `seed` under `rules`; the position carries house rules (NOTATION.md)."""
    return engine.Game.new(seed, rules=rules).to_position()


def stored_rules(rules: engine.Rules) -> dict[str, Any]:
    """The Game row's `rules`: {} for the standard rules, else every rule with its value."""
    return {} if rules == engine.STANDARD else rules.to_json()


# mode -> make(player, level) -> (game, created), for the modes an app built on games adds from
# its AppConfig.ready() (leaderboards: the daily, which needs the date's secret seed).
MakeGame: TypeAlias = Callable[[Player, str | None], tuple[Game, bool]]
REGISTERED_MODES: dict[str, MakeGame] = {}


def register_mode(mode: str, make: MakeGame) -> None:
    REGISTERED_MODES[mode] = make


def create_game(
    player: Player, mode: str, level: str | None = None, rules: engine.Rules = engine.STANDARD
) -> tuple[Game, bool]:
    """A new game for `player` (South); (game, created). A registered mode (the daily) may
    return an existing game, and is always played by the standard rules; a solo or friends game
    by `rules`."""
    if mode == Game.SOLO:
        level = level or "normal"
        if level not in LEVELS:
            raise RoomError("bad_level")
        game = Game(mode=mode, level=level, seats=solo_seats(player, level), host=player, rules=stored_rules(rules))
        return start(game), True
    if mode in REGISTERED_MODES:
        if rules != engine.STANDARD:
            raise RoomError("standard_rules_only")
        return REGISTERED_MODES[mode](player, level)
    if mode == Game.FRIENDS:
        level = level or "normal"
        if level not in LEVELS:
            raise RoomError("bad_level")
        game = Game(
            mode=mode, level=level, seats={"S": {"player": str(player.id)}}, host=player, rules=stored_rules(rules)
        )
        save_with_invite_code(game)
        return game, True
    raise RoomError("bad_mode")


def solo_seats(player: Player, level: str) -> dict[str, Any]:
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


def start(game: Game) -> Game:
    LIVE.forget(game.id)
    game.initial_position = start_position(game.seed, game.engine_rules())
    game.position = game.initial_position
    game.status = Game.PLAYING
    game.version = 0
    game.save()
    return game


def join_game(game_id: GameId, player: Player, seat: str | None = None) -> tuple[Game, str]:
    """Seat `player` in a friends lobby: the wanted seat, else (in a lobby opened by Play again) the
    seat they had in the game before, else the first free of N, W, E, S."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise RoomError("not_found", status=404)
        already = game.seat_of(player.id)
        if already:
            return game, already
        refuse_join(game, seat)
        chosen = seat or seat_kept(game, player) or free_seats(game)[0]
        game.seats = {**game.seats, chosen: {"player": str(player.id)}}
        game.save(update_fields=["seats", "updated"])
    broadcast_refresh_sync(game.id)
    return game, chosen


def free_seats(game: Game) -> list[Any]:
    return [s for s in ("N", "W", "E", "S") if s not in game.seats]


def seat_kept(game: Game, player: Player) -> str | None:
    """In a lobby opened by Play again (games.rooms.rematch): the player's seat in the game before, if free."""
    if game.rematch_of_id is None:
        return None
    before = Game.objects.filter(pk=game.rematch_of_id).only("seats").first()
    seat = before.seat_of(player.id) if before is not None else None
    return seat if seat is not None and seat not in game.seats else None


def refuse_join(game: Game, seat: str | None) -> None:
    """Why a new player cannot take `seat` (None: any free seat) in this game, if they cannot."""
    if game.mode != Game.FRIENDS:
        raise RoomError("not_friends", status=409)
    if game.status != Game.LOBBY:
        raise RoomError("already_started", status=409)
    if seat is not None and seat not in SEATS:
        raise RoomError("bad_seat")
    if seat is not None and seat in game.seats:
        raise RoomError("seat_taken", status=409)
    if not free_seats(game):
        raise RoomError("game_full", status=409)


def change_seat(game_id: GameId, player_id: PlayerId | None, seat: object) -> Game:
    """A seated player moves to a free seat of the lobby (the host too: they stay the host)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise RoomError("not_found", status=404)
        held = game.seat_of(player_id)
        if held is None:
            raise RoomError("not_seated", status=403)
        if game.mode != Game.FRIENDS:
            raise RoomError("not_friends", status=409)
        if game.status != Game.LOBBY:
            raise RoomError("already_started", status=409)
        if not isinstance(seat, str) or seat not in SEATS:
            raise RoomError("bad_seat", params={"seat": str(seat)[:8]})
        if seat == held:
            return game
        if seat in game.seats:
            raise RoomError("seat_taken", status=409)
        seats = {key: spec for key, spec in game.seats.items() if key != held}
        game.seats = {**seats, seat: game.seats[held]}
        game.save(update_fields=["seats", "updated"])
    broadcast_refresh_sync(game.id)
    return game


def hosts_lobby(game_id: GameId, player: Player) -> Game:
    """The friends lobby `player` hosts, locked for the rest of the transaction; else the refusal
    (no such game, not the host, already started)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise RoomError("not_found", status=404)
    if game.host_id != player.id:
        raise RoomError("not_host", status=403)
    if game.status != Game.LOBBY:
        raise RoomError("already_started", status=409)
    return game


def set_lobby_rules(game_id: GameId, player: Player, rules: engine.Rules) -> Game:
    """The host changes the house rules of a friends lobby before it starts; every page of the
    table is told to fetch a fresh state (which carries them)."""
    with transaction.atomic():
        game = hosts_lobby(game_id, player)
        game.rules = stored_rules(rules)
        game.save(update_fields=["rules", "updated"])
    broadcast_refresh_sync(game.id)
    return game


def start_friends_game(game_id: GameId, player: Player) -> Game:
    """The host starts the lobby: bots of the game's level take the empty seats."""
    with transaction.atomic():
        game = hosts_lobby(game_id, player)
        game.seats = {seat: game.seats.get(seat) or {"bot": game.level} for seat in SEATS}
        start(game)
    broadcast_refresh_sync(game.id)
    return game


def prepared_game(
    player: Player, position: dict[str, Any], moves: list[Any], level: str, friends: dict[str, Any]
) -> Game:
    """FOOT_TEST_HOOKS only (games.pages): a game started from a prepared `position` with `moves`
    (already checked by the engine) played and stored in its log, as if played at this table (a
    look back or a recap reads them). A solo game for `player`; with `friends` ({seat: player id})
    a friends game with those players in those seats too."""
    played = engine.Game.from_position(position)
    for seat, action in moves:
        played.apply(seat, action)
    seats = solo_seats(player, level)
    for seat, friend_id in friends.items():
        if seat in SEATS and seat != "S":
            seats[seat] = {"player": str(friend_id)}
    game = Game(
        mode=Game.FRIENDS if friends else Game.SOLO,
        invite_code=new_invite_code() if friends else None,
        level=level,
        seats=seats,
        host=player,
        rules=stored_rules(played.rules),  # a prepared position of house rules carries them
        seed=int(position.get("seed") or 0),
        initial_position=position,
        position=played.to_position() if moves else position,
        status=Game.PLAYING,
        version=len(moves),
    )
    with transaction.atomic():
        game.save()
        Move.objects.bulk_create(
            Move(game=game, seq=seq, seat=seat, action=action) for seq, (seat, action) in enumerate(moves, 1)
        )
    return game
