"""New games and their seats: a solo game against three bots, the daily (one ranked game per
player and date), a friends lobby with an invite code, joining a lobby and the host's start.

May call the engine, games.models, and of the room service errors, live_games and broadcast
(a lobby change tells the lobby's sockets to refresh).
"""
import datetime

from django.db import IntegrityError, transaction

from games import engine
from games.models import LEVELS, SEATS, Game, new_invite_code
from games.rooms.broadcast import broadcast_refresh_sync
from games.rooms.errors import RoomError
from games.rooms.live_games import LIVE


def game_for_invite(code: str) -> Game | None:
    """The friends game whose invite code this is (case-insensitive), for GET /join/<code>/."""
    if not code or len(code) > 12:
        return None
    return Game.objects.filter(invite_code=code.strip().upper(), mode=Game.FRIENDS).first()


def utc_today() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()


def start_position(seed: int) -> dict:
    return engine.Game.new(seed).to_position()


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
        refuse_join(game, seat)
        chosen = seat or free_seats(game)[0]
        game.seats = {**game.seats, chosen: {"player": str(player.id)}}
        game.save(update_fields=["seats", "updated"])
    broadcast_refresh_sync(game.id)
    return game, chosen


def free_seats(game: Game) -> list:
    return [s for s in ("N", "W", "E") if s not in game.seats]


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
