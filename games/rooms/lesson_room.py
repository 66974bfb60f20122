"""The room side of Learn to play: a lesson game for a player, and the lesson's current step with
its prompt in the player's language, for GET /api/games/<id>/lesson.

A lesson game is unranked, on no board, and starts from the lesson's prepared deal
(games.rooms.lesson) with the quiet lesson bots in the other seats. The step is computed here from
the stored position and South's moves, never by the page. Registered as the mode "lesson" in
GamesConfig.ready (games.apps). May call games.models, errors and
games.rooms.lesson.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.models import Game
from games.rooms.errors import RoomError
from games.rooms.lesson import LESSON_LEVEL, YOU, lesson_position, lesson_state

# The prompts, one per step (games.rooms.lesson.STEPS), translated when asked for.
PROMPTS = {
    "draw": gettext_noop(
        "Welcome! You sit at the bottom, and your partner North sits across the table. Every turn begins "
        "with a draw: tap Draw 2."
    ),
    "first_meld": gettext_noop(
        "A meld is 3 to 7 cards of one rank. Your team's first meld must be worth at least 50 points, and "
        "three Kings (30) alone are not enough. Select K♣ K♦ K♥ and tap Set aside, then Q♣ Q♦ Q♥ and Set "
        "aside, then tap Lay down."
    ),
    "add": gettext_noop(
        "Your team is down: from now on you may add cards to its melds. Select K♠ and tap your team's Kings."
    ),
    "discard": gettext_noop(
        "A turn ends with one discard. Keep your two 9s: select 5♣ and tap Discard. Then the others play."
    ),
    "take_pile": gettext_noop(
        "East is about to throw a 9. On your turn, select 9♣ 9♦ and tap Take pile instead of Draw 2: the "
        "three 9s become a meld, and the cards below them come into your hand."
    ),
    "finished": gettext_noop(
        "Well done: you can draw, meld, add to a meld, discard and take the pile. Play on in this deal, or "
        "start a real game. A team may go out once it has 2 clean, 2 dirty and 1 wild pile of 7 cards."
    ),
}


def lesson_game(player, level: str | None = None) -> tuple[Game, bool]:
    """A new lesson for `player` (South); the mode's maker for creation.register_mode."""
    position = lesson_position()
    seats = {"S": {"player": str(player.id)}, **{seat: {"bot": LESSON_LEVEL} for seat in "WNE"}}
    game = Game(
        mode=Game.LESSON,
        level=LESSON_LEVEL,
        seats=seats,
        host=player,
        ranked=False,
        initial_position=position,
        position=position,
        status=Game.PLAYING,
        version=0,
    )
    game.save()
    return game, True


def lesson_step(game: Game, player) -> dict:
    """The lesson's current step for its South player: its key, number, prompt and whether it is the last."""
    if game.mode != Game.LESSON:
        raise RoomError("not_found", status=404)
    if player is None or game.seat_of(player.id) != YOU:
        raise RoomError("not_seated", status=403)
    position = game.position  # saved with every move (games.rooms.moves)
    actions = list(game.moves.filter(seat=YOU).order_by("seq").values_list("action", flat=True))
    state = lesson_state(position, actions)
    offer = _("Start a real game") if state["last"] else None
    return {**state, "prompt": _(PROMPTS[state["step"]]), "offer": offer}
