"""The room side of Learn to play: a lesson game for a player, and the lesson's current step with
its prompt in the player's language, for GET /api/games/<id>/lesson.

A lesson game is unranked, on no board, and starts from the lesson's prepared deal
(games.rooms.lesson) with the quiet lesson bots in the other seats. The step is computed here from
the stored position and South's moves, never by the page. Registered as the mode "lesson" in
GamesConfig.ready (games.apps). May call games.models, errors and
games.rooms.lesson.
"""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from games.messages import shown_params
from games.models import Game
from games.rooms.errors import RoomError
from games.rooms.lesson import BASICS, DEALS, LESSON_LEVEL, YOU, lesson_position, lesson_state
from players.models import Player

# The prompts, one per step of either part (games.rooms.lesson.STEPS) and a "_now" one where a
# step's prompt follows what happened, translated when asked for. {cards} and {cards2} are the
# cards South holds for the step (games.rooms.lesson.step_cards), {tap} / {Tap} the device's verb.
PROMPTS = {
    "draw": gettext_noop(
        "Welcome! You sit at the bottom, and your partner North sits across the table. Every turn begins "
        "with a draw: {tap} Draw 2."
    ),
    "first_meld": gettext_noop(
        "A meld is 3 to 7 cards of one rank. Your team's first meld must be worth at least 50 points, and "
        "three Kings (30) alone are not enough. Select {cards} and {tap} Set aside, then {cards2} and Set "
        "aside, then {tap} Lay down."
    ),
    "add": gettext_noop(
        "Your team is down: from now on you may add cards to its melds. Select {cards} and {tap} your team's Kings."
    ),
    "discard": gettext_noop(
        "A turn ends with one discard. Keep your two 9s: select {cards} and {tap} Discard. Then the others play."
    ),
    "take_pile": gettext_noop(
        "East is about to throw a 9. On your turn, select {cards} and {tap} Take pile instead of Draw 2: the "
        "three 9s become a meld, and the cards below them come into your hand."
    ),
    "take_pile_now": gettext_noop(
        "East threw a 9. Select {cards} and {tap} Take pile instead of Draw 2: the three 9s become a meld, "
        "and the cards below them come into your hand."
    ),
    "finished": gettext_noop(
        "Well done: you can draw, meld, add to a meld, discard and take the pile. Play on in this deal, or "
        "start a real game. A team may go out once it has 2 clean, 2 dirty and 1 wild pile of 7 cards."
    ),
    "piles": gettext_noop(
        "Part 2: the foot and going out. Later in a deal: your team has piles, complete melds of 7 cards. "
        "A clean pile has no wild card (the Kings, the Aces), a dirty pile has one or two (the 9s), a wild "
        "pile is 7 wild cards. {Tap} Draw 2."
    ),
    "dirty_pile": gettext_noop(
        "To go out your team needs 2 clean, 2 dirty and 1 wild pile. Select {cards} and {tap} your team's "
        "Eights: 6 Eights and a wild card make a dirty pile."
    ),
    "wild_pile": gettext_noop(
        "Now select the Joker and {tap} your team's wild cards: 7 wild cards make the wild pile."
    ),
    "foot": gettext_noop(
        "Select your five 7s and {tap} Meld. Your hand is then empty, so you pick up your foot, 13 more "
        "cards, and play on from it."
    ),
    "black_three": gettext_noop(
        "Your foot held a red three: it went onto the table at once for 100 points, and you got a card in "
        "its place. A black three is different: select {cards} and {tap} Discard. While it is on top, "
        "nobody can take the discard pile."
    ),
    "go_out": gettext_noop(
        "Your team has all 5 piles and your partner plays from the foot, so you may go out. On your turn: "
        "Draw 2, then select the seven Queens and {tap} Meld, the six Jacks and Meld, and discard 5♠."
    ),
    "finished_foot": gettext_noop(
        "You went out: the deal ends, and your team scores its piles and a bonus for going out. A game is "
        "four such deals. Start a real game when you are ready."
    ),
}
# The verb for pressing a button: "tap" on a touch screen, "click" with a mouse; the page says
# which it has (lesson.js, from the pointer and hover media queries, never the user agent).
TOUCH, MOUSE = "touch", "mouse"


def press_verb(device: str) -> str:
    if device == TOUCH:
        return pgettext("lesson: pressing a button on a touch screen", "tap")
    return pgettext("lesson: pressing a button with a mouse", "click")


OFF_COURSE = gettext_noop(
    "This is not the lesson's way any more, so its next step cannot be shown. Start this part again, "
    "or play on as you like."
)
OFFERS = {  # the buttons at the end of a part (or off its path): a label and the game the button makes
    "real_game": (gettext_noop("Start a real game"), {"mode": "solo", "level": "normal"}),
    "foot": (gettext_noop("Next: the foot and going out"), {"mode": "lesson", "level": "foot"}),
}
AGAIN = gettext_noop("Start this part again")


def lesson_game(player: Player, level: str | None = None) -> tuple[Game, bool]:
    """A new lesson for `player` (South); the mode's maker for creation.register_mode. `level`
    names the part: "basics" (the default) or "foot"."""
    part = level or BASICS
    if part not in DEALS:
        raise RoomError("bad_level")
    position = lesson_position(part)
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


def lesson_step(game: Game, player: Player | None, device: str = MOUSE) -> dict[str, Any]:
    """The lesson's current step for its South player: its key, number, prompt (worded for the
    `device`, naming the cards South holds), what to highlight and whether it is the last."""
    if game.mode != Game.LESSON:
        raise RoomError("not_found", status=404)
    if player is None or game.seat_of(player.id) != YOU:
        raise RoomError("not_seated", status=403)
    position = game.position  # saved with every move (games.rooms.moves)
    state = lesson_state(position, south_actions(game))
    offers, prompt = [], prompt_text(state["prompt_key"], state["cards"], device)
    if state["last"]:
        keys = [state["next_part"], "real_game"] if state["next_part"] else ["real_game"]
        offers = [{"label": _(OFFERS[key][0]), "game": OFFERS[key][1]} for key in keys]
    elif state["off_course"]:
        prompt = _(OFF_COURSE)
        offers = [{"label": _(AGAIN), "game": {"mode": "lesson", "level": state["part"]}}]
        offers.append({"label": _(OFFERS["real_game"][0]), "game": OFFERS["real_game"][1]})
    return {**state, "prompt": prompt, "offers": offers}


def prompt_text(key: str, cards: list[list[str]], device: str) -> str:
    """The step's prompt in the active language, with the cards' names as the table shows them."""
    named = [" ".join(card_name(card) for card in group) for group in cards]
    verb = press_verb(device)
    return _(PROMPTS[key]).format(
        cards=named[0] if named else "",
        cards2=named[1] if len(named) > 1 else "",
        tap=verb,
        Tap=verb[:1].upper() + verb[1:],
    )


def card_name(card: str) -> str:
    """ "K♣", "10♠", "Joker": a card as the table names it."""
    return str(shown_params({"card": card})["card"])


def south_actions(game: Game) -> list[Any]:
    """South's actions so far, in order, from the move log."""
    return list(game.moves.filter(seat=YOU).order_by("seq").values_list("action", flat=True))
