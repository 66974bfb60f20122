"""RuleError: the one exception the engine raises for a refused action or a bad position.

Every refusal has a stable snake_case `code` (the server translates by it), an English
`message` a player understands, the number of the rule it enforces, and the values of the
message. A refused action always leaves the game exactly as it was.
"""

from __future__ import annotations

from games.engine.records import Refusal


def gettext_noop(text: str) -> str:
    """The text itself, marked for translation: makemessages finds the engine's texts by this
    name (as it finds Django's own `gettext_noop`), and games.messages translates them. The engine
    stays pure Python: it names the texts, the server says them in the player's language."""
    return text


MESSAGES: dict[str, str] = {
    "bad_action": gettext_noop("That is not a valid action."),
    "unknown_action": gettext_noop("Unknown action type: {type}."),
    "missing_field": gettext_noop("The action is missing the field '{field}'."),
    "bad_field": gettext_noop("The field '{field}' is not part of this action or has the wrong form."),
    "action_too_big": gettext_noop("The action is too big (at most {limit} bytes)."),
    "bad_card": gettext_noop("'{card}' is not a card name (ranks 4-9 T J Q K A 2 3, suits C D H S, or JK)."),
    "bad_seat": gettext_noop("'{seat}' is not a seat (S, W, N or E)."),
    "game_over": gettext_noop("The game is over."),
    "not_your_turn": gettext_noop("It is not your turn: {turn} is to play."),
    "must_draw_first": gettext_noop("Draw 2 or take the pile before you meld or discard."),
    "already_drew": gettext_noop("You have already drawn this turn."),
    "card_not_held": gettext_noop("You do not hold {card}."),
    "pile_empty": gettext_noop("The discard pile is empty."),
    "pile_top_is_three": gettext_noop("A three is on top of the discard pile: nobody can take it."),
    "no_matching_pair": gettext_noop("To take the pile you need two cards matching the top card {top}."),
    "card_does_not_match": gettext_noop("{card} cannot go into the meld with the top card {top}."),
    "empty_group": gettext_noop("A meld group needs at least one card."),
    "bad_rank": gettext_noop("'{rank}' is not a meld rank (4 to A, or wild)."),
    "meld_too_small": gettext_noop("A new meld needs at least 3 cards."),
    "meld_too_large": gettext_noop("A meld has at most 7 cards."),
    "pile_complete": gettext_noop("That meld is already a complete pile of 7 cards."),
    "three_in_meld": gettext_noop("Threes can never be melded."),
    "mixed_ranks": gettext_noop("A meld holds naturals of one rank only."),
    "natural_to_wild_meld": gettext_noop("A wild meld takes only wild cards."),
    "too_many_wild": gettext_noop("A meld needs at least twice as many natural cards as wild cards."),
    "no_such_meld": gettext_noop("Your team has no incomplete {rank} meld to add to."),
    "duplicate_incomplete_meld": gettext_noop("Your team already has an incomplete {rank} meld: add to it instead."),
    "below_first_meld_minimum": gettext_noop(
        "Your first meld must be worth at least {minimum} points (this one is worth {points})."
    ),
    "take_cannot_reach_minimum": gettext_noop(
        "Your cards cannot make a first meld of {minimum} points with the top card {top}."
    ),
    "must_keep_cards": gettext_noop("In your foot you must keep at least two cards unless you can go out."),
    "cannot_go_out": gettext_noop("You cannot go out yet: {reason}."),
    "invalid_position": gettext_noop("Invalid position: {reason}."),
    "undo_not_allowed": gettext_noop(
        "This table does not allow undo: it is chosen when a game is made, and the daily never allows it."
    ),
    "nothing_to_undo": gettext_noop(
        "Nothing to undo: only melds made since your draw, your take of the pile or your foot can be taken back."
    ),
}


class RuleError(Exception):
    """A refused action or position; `code` is stable, `message` is for the player."""

    def __init__(self, code: str, rule: str | None = None, **params: object) -> None:
        self.code = code
        self.rule = rule
        self.params = params
        template = MESSAGES.get(code, code)
        try:
            self.message = template.format(**params)
        except (KeyError, IndexError):
            self.message = template
        super().__init__(self.message)

    def as_dict(self) -> Refusal:
        return {"code": self.code, "message": self.message, "rule": self.rule, "params": self.params}
