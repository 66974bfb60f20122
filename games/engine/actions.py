"""The shape of an action: the fields each action type has, and nothing else.

`Game.apply` reads only these fields (game.py's `_plan_*` and the field parsers below them):

    draw       {"type"}
    discard    {"type", "card"}
    meld       {"type", "groups": [{"cards", "to"?}, ...]}     ("to": the rank of a meld to add to)
    take_pile  {"type", "cards", "groups"?: [{"cards"}, ...]}  (new melds only: no "to", R30)
    undo       {"type"}                                        (the turn's last meld action back, V7)

`normalise_action` is for the edge (the websocket): an action with any other field is refused
with `bad_field`, so what is stored in the move log and published by the replays is exactly
what the engine read. The engine itself stays lenient about extra fields, so moves stored
before this check still replay. Values are checked by the engine, not here.
"""

from __future__ import annotations

import json

from games.engine.errors import RuleError
from games.engine.records import Action

ACTION_FIELDS = {
    "draw": (),
    "discard": ("card",),
    "meld": ("groups",),
    "take_pile": ("cards", "groups"),
    "undo": (),
}
GROUP_FIELDS = {"meld": ("cards", "to"), "take_pile": ("cards",)}
MAX_ACTION_BYTES = 4096  # 700 card names: more than any hand holds; stored actions stay small


def normalise_action(action: object) -> Action:
    """A copy of `action` with its type's fields only; RuleError when it has any other or is too big."""
    if not isinstance(action, dict):
        raise RuleError("bad_action", None)
    kind = action.get("type")
    if kind not in ACTION_FIELDS:
        raise RuleError("unknown_action", None, type=str(kind)[:30])
    allowed = ACTION_FIELDS[kind]
    normal = {"type": kind}
    for name, value in action.items():
        if name != "type" and name not in allowed:
            raise RuleError("bad_field", None, field=str(name)[:30])
        if name == "groups" and isinstance(value, list):
            normal[name] = [_normal_group(kind, group) for group in value]
        elif name != "type":
            normal[name] = value
    if len(json.dumps(normal, separators=(",", ":"))) > MAX_ACTION_BYTES:
        raise RuleError("action_too_big", None, limit=MAX_ACTION_BYTES)
    return normal


def _normal_group(kind: str, group: object) -> object:
    if not isinstance(group, dict):
        return group  # the engine refuses it as a bad "groups"
    for name in group:
        if name not in GROUP_FIELDS[kind]:
            raise RuleError("bad_field", None, field=str(name)[:30])
    # "to": null is the same as no "to" (a new meld): one spelling in the log
    return {name: value for name, value in group.items() if not (name == "to" and value is None)}


def public_fields(action: Action | None) -> Action | None:
    """`action` with only its type's fields, for publishing moves stored before the edge checked them."""
    if not isinstance(action, dict) or action.get("type") not in ACTION_FIELDS:
        return action
    kind = action["type"]
    normal = {"type": kind}
    for name in ACTION_FIELDS[kind]:
        if name in action:
            normal[name] = action[name]
    if isinstance(normal.get("groups"), list):
        normal["groups"] = [
            {k: v for k, v in group.items() if k in GROUP_FIELDS[kind]} if isinstance(group, dict) else group
            for group in normal["groups"]
        ]
    return normal
