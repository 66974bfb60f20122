"""The JSON-shaped records the engine takes and gives, named for the type checker.

Actions, events, views, options and positions cross the websocket and the database as they are,
so they stay plain dicts of JSON values; these names say which dict is which. Their fields are
documented where they are made: docs/PROTOCOL.md (actions), docs/VIEW.md (views, options,
events), docs/NOTATION.md (positions). Pure: no Django.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypeAlias, TypedDict

Action: TypeAlias = dict[str, Any]  # {"type": "meld", "groups": [{"cards": [...], "to": "K"}]}
Event: TypeAlias = dict[str, Any]  # {"type": "draw", "seat": "S", "count": 2, "cards": [...]}
View: TypeAlias = dict[str, Any]  # a seat's or a spectator's view of the table
Options: TypeAlias = dict[str, Any]  # what a seat may do now, as the view carries it
Position: TypeAlias = dict[str, Any]  # the notation: everything that determines a game
DealScore: TypeAlias = dict[str, dict[str, int]]  # team -> item ("melded", …, "total") -> points


class Scores(TypedDict):
    """`Game.scores()`: each finished deal's itemised score, and the totals so far (R54, R55)."""

    deals: list[DealScore]
    totals: dict[str, int]  # team -> points


class Refusal(TypedDict):
    """A refused action or position, as the client gets it (RuleError.as_dict)."""

    code: str  # stable (games/engine/errors.py MESSAGES)
    message: str  # for the player
    rule: str | None  # the number of the rule it enforces ("R37")
    params: dict[str, Any]  # the values of the message


class Check(TypedDict):
    """`Game.check`: {"ok": True, "points": n} or {"ok": False} and the refusal's fields."""

    ok: bool
    points: NotRequired[int]  # the points the action lays (when accepted)
    code: NotRequired[str]
    message: NotRequired[str]
    rule: NotRequired[str | None]
    params: NotRequired[dict[str, Any]]
