"""RuleError: the one exception the engine raises for a refused action or a bad position.

Every refusal has a stable snake_case `code` (the server translates by it), an English
`message` a player understands, the number of the rule it enforces, and the values of the
message. A refused action always leaves the game exactly as it was.
"""

from __future__ import annotations

from games.engine.records import Refusal

MESSAGES: dict[str, str] = {
    "bad_action": "That is not a valid action.",
    "unknown_action": "Unknown action type: {type}.",
    "missing_field": "The action is missing the field '{field}'.",
    "bad_field": "The field '{field}' is not part of this action or has the wrong form.",
    "action_too_big": "The action is too big (at most {limit} bytes).",
    "bad_card": "'{card}' is not a card name (ranks 4-9 T J Q K A 2 3, suits C D H S, or JK).",
    "bad_seat": "'{seat}' is not a seat (S, W, N or E).",
    "game_over": "The game is over.",
    "not_your_turn": "It is not your turn: {turn} is to play.",
    "must_draw_first": "Draw 2 or take the pile before you meld or discard.",
    "already_drew": "You have already drawn this turn.",
    "card_not_held": "You do not hold {card}.",
    "pile_empty": "The discard pile is empty.",
    "pile_top_is_three": "A three is on top of the discard pile: nobody can take it.",
    "no_matching_pair": "To take the pile you need two cards matching the top card {top}.",
    "card_does_not_match": "{card} cannot go into the meld with the top card {top}.",
    "empty_group": "A meld group needs at least one card.",
    "bad_rank": "'{rank}' is not a meld rank (4 to A, or wild).",
    "meld_too_small": "A new meld needs at least 3 cards.",
    "meld_too_large": "A meld has at most 7 cards.",
    "pile_complete": "That meld is already a complete pile of 7 cards.",
    "three_in_meld": "Threes can never be melded.",
    "mixed_ranks": "A meld holds naturals of one rank only.",
    "natural_to_wild_meld": "A wild meld takes only wild cards.",
    "too_many_wild": "A meld needs at least twice as many natural cards as wild cards.",
    "no_such_meld": "Your team has no incomplete {rank} meld to add to.",
    "duplicate_incomplete_meld": "Your team already has an incomplete {rank} meld: add to it instead.",
    "below_first_meld_minimum": "Your first meld must be worth at least {minimum} points (this one is worth {points}).",
    "must_keep_cards": "In your foot you must keep at least two cards unless you can go out.",
    "cannot_go_out": "You cannot go out yet: {reason}.",
    "invalid_position": "Invalid position: {reason}.",
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
