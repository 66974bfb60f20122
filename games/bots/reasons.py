"""Why a bot played its move: a reason as a code and its params, made where the decision is made.

A reason is shown to every seat with the move, so it may say only what every seat can see once
the move is made. `reason()` enforces it by the params' form: each code allows a fixed set of
params, and each param is a count (an int), a rank of a card now on the table ("A" … "K", or
"wild" for the wild cards), or a pile kind ("clean", "dirty", "wild"). A card code, which is
what a hand holds, cannot pass; that every rank named is public after its move is checked over
whole games (tests/bots/test_reasons.py). The client words each code (static/foot/reasons.js).
"""

from __future__ import annotations

from typing import Any

from games.bots.cards import NATURAL_RANKS, WILD

Reason = dict[str, Any]  # {"code": str, "params": {name: int | str}}

RANKS = frozenset(NATURAL_RANKS) | {WILD}  # the ranks of melds; every wild card counts as "wild"
PILE_KINDS = frozenset({"clean", "dirty", "wild"})
COUNT, RANK, PILE = "count", "rank", "pile"
PARAM_KINDS = {
    "cards": COUNT,
    "points": COUNT,
    "minimum": COUNT,
    "gain": COUNT,
    "worlds": COUNT,
    "rank": RANK,
    "pile": PILE,
}

CODES: dict[str, frozenset[str]] = {
    # the draw phase (normal.draw_decision)
    "take_first_meld": frozenset({"cards", "rank"}),  # the pile brought the team down
    "take_grow_meld": frozenset({"cards", "rank"}),  # the top card's rank is a team meld
    "take_pile": frozenset({"cards", "rank"}),  # a pile of several cards is worth taking
    "draw_pile_blocked": frozenset(),  # a black three on top (R36)
    "draw_stock": frozenset(),  # no take was worth it, or possible
    # the meld phase (normal.meld_decision)
    "first_meld": frozenset({"points", "minimum"}),
    "go_out_wins_game": frozenset(),
    "go_out_partner_low": frozenset({"cards"}),  # the partner holds this few cards
    "go_out_stock_low": frozenset({"cards"}),  # this few cards left in the stock
    "go_out_opponents_close": frozenset(),
    "rush_to_foot": frozenset(),
    "complete_pile": frozenset({"pile"}),
    "feed_wild_pile": frozenset(),
    "build_melds": frozenset(),
    # the discard (normal.discard_decision)
    "discard_black_three": frozenset(),
    "discard_least_needed": frozenset({"rank"}),
    "go_out_last_card": frozenset(),
    # the hard bot's search overriding the normal choice
    "search_override": frozenset({"gain", "worlds"}),
}


def reason(code: str, **params: int | str) -> Reason:
    """The reason `code` with `params`; ValueError for an unknown code or a param that could
    name something hidden (anything but a count, a rank or a pile kind)."""
    allowed = CODES.get(code)
    if allowed is None:
        raise ValueError(f"unknown reason code {code!r}")
    for name, value in params.items():
        if name not in allowed:
            raise ValueError(f"reason {code!r} takes no param {name!r}")
        if not _fits(PARAM_KINDS[name], value):
            raise ValueError(f"reason param {name}={value!r} is not a {PARAM_KINDS[name]}")
    return {"code": code, "params": dict(params)}


def _fits(kind: str, value: object) -> bool:
    if kind == COUNT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == RANK:
        return value in RANKS
    return value in PILE_KINDS


def valid(candidate: object) -> bool:
    """Whether `candidate` is a reason `reason()` could have made (for what crosses a process)."""
    if not isinstance(candidate, dict) or set(candidate) != {"code", "params"}:
        return False
    params = candidate["params"]
    if not isinstance(params, dict):
        return False
    try:
        reason(candidate["code"], **params)
    except (ValueError, TypeError):
        return False
    return True
