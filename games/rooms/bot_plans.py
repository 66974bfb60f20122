"""Which computer move is due: a bot's turn, or an absent friend's past the grace, found either
from the stored game (`plan_bot_move`) or right after a move's commit (`bot_plan_after`); after a
deal ends the bots wait for every human's `next_deal` (friends: or FOOT_NEXT_DEAL_TIMEOUT seconds).

May call games.models, games.rooms.config, live_games, game_rows, stored, presence, stand_ins
and bot_runner's seeds; it never moves (it forgets a stand-in whose friend is back at a new turn).
"""

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from games import engine
from games.models import Game, GameId
from games.rooms import game_rows
from games.rooms.bot_runner import bot_seed
from games.rooms.config import next_deal_timeout
from games.rooms.live_games import LIVE
from games.rooms.presence import seat_presence
from games.rooms.stand_ins import forget, has_moved_for
from games.rooms.stored import stored_engine_game

BOT_LEVEL_FOR_ABSENT = "normal"


@dataclass
class BotPlan:
    seat: str
    level: str
    seed: int
    view: dict[str, Any]
    version: int
    stand_in: bool = False  # the computer plays for an absent friend


def plan_bot_move(game_id: GameId) -> BotPlan | None:
    """The computer move due now, if any (a bot's turn, or an absent friend's past the grace).

    Cheap when nothing is due: one read of the row without its positions, and the turn from this
    process's live game when it is at the row's version.
    """
    game = game_rows.read_game(game_id)
    if game is None or not_playing(game):
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
    if level is not None:
        engine_game = engine_game or stored_engine_game(game)
        return BotPlan(seat, level, bot_seed(game.seed, seat), engine_game.view(seat), game.version)
    if game.mode != Game.FRIENDS:
        return None
    engine_game = engine_game or stored_engine_game(game)
    if not stands_in(game, seat, engine_game):
        return None
    view = engine_game.view(seat)
    return BotPlan(seat, BOT_LEVEL_FOR_ABSENT, bot_seed(game.seed, seat), view, game.version, stand_in=True)


def maybe_due(game_ids: list[str]) -> list[str]:
    """Of these games, those where a computer move may be due now (`plan_bot_move` then decides),
    from one read of their rows: the heartbeats' watchdog asks for every game of a process at once."""
    return [str(game.id) for game in game_rows.read_games(list(game_ids)) if not nothing_due(game)]


def nothing_due(game: Game) -> bool:
    """Whether no computer move can be due in the game read, known without reading more: it is
    not being played, it waits for `next_deal`, or (but in a friends game, where an away friend's
    seat is the computer's) this process's live game at the row's version has a person to play."""
    if not_playing(game):
        return True
    if game.mode == Game.FRIENDS:
        return False
    live = LIVE.peek(game.id, game.version)
    return live is not None and (live.turn is None or game.bot_level(live.turn) is None)


def not_playing(game: Game) -> bool:
    """Over or not started, or waiting for the people's `next_deal`: nobody moves."""
    return game.status != Game.PLAYING or awaiting_humans(game)


def stands_in(game: Game, seat: str, engine_game: engine.Game) -> bool:
    """Whether the computer plays this friend's turn: the friend is away past the grace, or came
    back after the computer had already moved in this turn (it finishes the turn)."""
    if seat_presence(game)[seat] == "away":
        return True
    if not has_moved_for(game.id, seat):
        return False
    if engine_game.phase == "draw":  # a new turn of the seat: it is the friend's again
        forget(game.id, seat)
        return False
    return True


def bot_plan_after(
    game: Game, engine_game: engine.Game, public: dict[str, Any] | None = None
) -> tuple[BotPlan | None, bool]:
    """(the bot move due right after a move, whether no computer move is due), found right after
    the move's commit without reading the game again. A friend's seat may be played by a bot
    once its player is away, which needs the presence rows: neither is known then. `public`: the
    game's public view as it is now, if the move made it (the bot's view shares it)."""
    seat = engine_game.turn
    if seat is None or game.status != Game.PLAYING or awaiting_humans(game):
        return None, True
    level = game.bot_level(seat)
    if level is None:
        return None, game.mode != Game.FRIENDS
    return BotPlan(seat, level, bot_seed(game.seed, seat), engine_game.view(seat, public), game.version), False


def awaiting_humans(game: Game) -> bool:
    if not game.awaiting:
        return False
    if game.mode == Game.FRIENDS and game.awaiting_since is not None:
        waited = (timezone.now() - game.awaiting_since).total_seconds()
        return waited < next_deal_timeout()
    return True
