"""A game's rules as a value: the standard rules (R1–R59) and the house-rule variations V1–V7.

A `Rules` is fixed when a game is made and read by the engine wherever a rule has a number that a
table may choose (docs/RULES.md, section 17). `STANDARD` is the default and gives exactly the
standard game. `Rules.from_json` is the one place that validates a table's choice: it refuses an
unknown key, a wrong type, a value out of range and a combination that cannot be played, each with
a stable code and a message that names the problem. Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

DECK_WILD_CARDS = 30  # R1, R3: 20 twos and 10 jokers in the five packs


class RulesError(ValueError):
    """A table's rules refused: `code` is stable (unknown_rule, bad_rule_type, rule_out_of_range,
    unplayable_rules), `message` names the key and the problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers of one game's rules; every field is a numbered variation of docs/RULES.md."""

    deals: int = 4  # V1 (R7): deals in the game
    hand_size: int = 13  # V2 (R11): cards in each hand and in each foot
    minimums: tuple[int, int, int, int] = (50, 90, 120, 150)  # V3 (R37): first-meld minimum per deal
    clean_piles: int = 2  # V4 (R49b): complete piles a team needs to go out
    dirty_piles: int = 2
    wild_piles: int = 1
    pile_take: int = 7  # V5 (R28): the cards a take of the discard pile gives, at most
    red_three_value: int = 100  # V6 (R35): each red three laid, and minus for each one left
    undo: bool = False  # V7 (R26): the player may take back the turn's melds until the discard
    going_out_piles: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # built once: the going-out check asks for it on every option of every seat in the foot
        piles = (("clean", self.clean_piles), ("dirty", self.dirty_piles), ("wild", self.wild_piles))
        object.__setattr__(self, "going_out_piles", piles)

    def first_meld_minimum(self, deal: int) -> int:
        """V3: the minimum of deal `deal` (1–4): the deal's number picks it, whatever `deals` is."""
        return self.minimums[deal - 1]

    @property
    def is_standard(self) -> bool:
        return self == STANDARD

    def to_json(self) -> dict[str, Any]:
        """Every key with its value, as the API, the views and the notation write it: a fresh dict
        (built once per rules and copied, as every view carries it)."""
        written = _WRITTEN.get(self)
        if written is None:
            written = {
                name: list(getattr(self, name)) if name == "minimums" else getattr(self, name) for name in RULE_KEYS
            }
            if len(_WRITTEN) < 64:  # the presets and a few custom tables; never grows without end
                _WRITTEN[self] = written
        return {**written, "minimums": list(written["minimums"])}

    @classmethod
    def from_json(cls, value: object) -> Rules:
        """The rules a JSON object names; keys left out keep the standard value. RulesError else."""
        if not isinstance(value, dict):
            raise RulesError("bad_rule_type", "rules must be a JSON object")
        unknown = sorted(str(key) for key in value if key not in RULE_KEYS)
        if unknown:
            raise RulesError("unknown_rule", f"unknown rule '{unknown[0][:40]}'")
        chosen: dict[str, Any] = {}
        for key, given in value.items():
            chosen[key] = _READERS.get(key, _whole_number)(key, given)
        rules = cls(**chosen)
        _check_playable(rules)
        return STANDARD if rules == STANDARD else rules  # one standard value: views test it by identity


STANDARD = Rules()
# Each key's least and greatest value (for `minimums`: of each of its four numbers), documented in
# docs/RULES.md (V1–V7) and docs/PROTOCOL.md.
RULE_RANGES: dict[str, tuple[int, int]] = {
    "deals": (1, 4),
    "hand_size": (9, 15),
    "minimums": (0, 300),
    "clean_piles": (0, 4),
    "dirty_piles": (0, 4),
    "wild_piles": (0, 4),
    "pile_take": (1, 270),
    "red_three_value": (0, 500),
}
# The table options that are on or off (JSON true or false): V7.
RULE_SWITCHES = ("undo",)
RULE_KEYS = (*RULE_RANGES, *RULE_SWITCHES)
_WRITTEN: dict[Rules, dict[str, Any]] = {}  # to_json's first answer per rules (few distinct rules exist)
assert set(RULE_KEYS) == {f.name for f in fields(Rules) if f.init}, "every rule has a range or is a switch"


def _whole_number(key: str, given: object) -> int:
    if not isinstance(given, int) or isinstance(given, bool):
        raise RulesError("bad_rule_type", f"rule '{key}' must be a whole number")
    low, high = RULE_RANGES[key]
    if not low <= given <= high:
        raise RulesError("rule_out_of_range", f"rule '{key}' must be {low} to {high}, not {given}")
    return given


def _switch(key: str, given: object) -> bool:
    if not isinstance(given, bool):
        raise RulesError("bad_rule_type", f"rule '{key}' must be true or false")
    return given


def _minimums(key: str, given: object) -> tuple[int, int, int, int]:
    if not isinstance(given, list) or len(given) != 4:
        raise RulesError("bad_rule_type", "rule 'minimums' must be a list of four whole numbers, one per deal")
    low, high = RULE_RANGES["minimums"]
    for number in given:
        if not isinstance(number, int) or isinstance(number, bool):
            raise RulesError("bad_rule_type", "rule 'minimums' must be a list of four whole numbers, one per deal")
        if not low <= number <= high or number % 5:
            raise RulesError("rule_out_of_range", f"each of 'minimums' must be {low} to {high} in fives, not {number}")
    return (given[0], given[1], given[2], given[3])


_READERS: dict[str, Any] = {"minimums": _minimums, "undo": _switch}  # the other keys: _whole_number


def _check_playable(rules: Rules) -> None:
    """V4: a team must be able to complete the piles it needs with the wild cards there are."""
    wild_needed = 7 * rules.wild_piles + rules.dirty_piles  # a dirty pile holds one wild card at least
    if wild_needed > DECK_WILD_CARDS:
        raise RulesError(
            "unplayable_rules",
            f"going out would need {wild_needed} wild cards (7 per wild pile, 1 per dirty pile) "
            f"and the five packs hold {DECK_WILD_CARDS}",
        )
