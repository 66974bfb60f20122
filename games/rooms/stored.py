"""A stored game read back: the Game row by id, and the engine game at its stored position (or,
if the engine refuses that, games.replay's replay of its moves).

May call the engine, games.models and games.replay; nothing else of the room service.
"""

import logging

from django.core.exceptions import ValidationError

from games import engine
from games.models import Game, GameId
from games.replay import replay

log = logging.getLogger(__name__)


def load(game_id: GameId) -> Game | None:
    try:
        return Game.objects.filter(pk=game_id).first()
    except (ValueError, ValidationError):  # a malformed UUID
        return None


def stored_engine_game(game: Game) -> engine.Game:
    """The engine game at the stored position; rebuilt from the move log if the engine refuses it.

    The position is the engine's own output, so a refusal is an engine bug (seen: a game ended by
    a foot pickup whose second red three found the stock empty); the replay still shows the game.
    """
    try:
        return engine.Game.from_position(game.position)
    except engine.RuleError:
        log.error("the engine refuses the stored position of game %s v%s; replaying its moves", game.id, game.version)
        return replay(game)  # games.replay: the project's one replay
