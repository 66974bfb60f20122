"""What a seat may see (its information set) and what a spectator may see.

A view never holds another seat's cards, an unpicked foot (the seat's own included), the
stock's order or the seed. It is shaped as objects keyed by stable names (docs/VIEW.md) so that
diffs between versions stay small.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from games.engine.cards import is_three
from games.engine.errors import RuleError
from games.engine.melds import meld_rank, pile_kind
from games.engine.records import View
from games.engine.rules import STANDARD
from games.engine.seats import SEATS, TEAMS

if TYPE_CHECKING:
    from games.engine.game import Game


def public_view(game: Game) -> View:
    melds, piles = _melds_and_piles(game)
    view: View = {
        "ply": game.ply,
        "deal": game.deal,
        "dealer": game.dealer,
        "turn": game.turn,
        "phase": game.phase,
        "first_meld_minimum": game.first_meld_minimum(),
        "seats": {
            s: {"cards": len(game.hands[s]), "foot": len(game.feet[s] or ()), "in_foot": game.in_foot(s)} for s in SEATS
        },
        "stock": len(game.stock),
        "discard": list(game.discard),
        "discard_blocked": bool(game.discard) and is_three(game.discard[-1]),
        "melds": melds,
        "piles": piles,
        "going_out_needs": dict(game.rules.going_out_piles),
        "red_threes": {t: len(game.red_threes[t]) for t in TEAMS},
        "down": dict(game.down),
        "scores": game.scores(),
        "winner": game.winner,
    }
    if game.rules is not STANDARD:  # house rules (V1–V7); a standard view stays as it always was
        view["rules"] = game.rules.to_json()
    return view


DEAL_TABLE_KEYS = ("deal", "stock", "discard", "discard_blocked", "seats", "melds", "piles", "red_threes", "down")


def deal_table(game: Game) -> dict[str, Any]:
    """The table as a deal ended (R51–R53), for the deal_end event: every team's melds and each
    seat's cards counted, public like public_view (no hand's cards), so the page can show how the
    deal ended after the next one is dealt."""
    view = public_view(game)
    return {key: view[key] for key in DEAL_TABLE_KEYS}


def _melds_and_piles(game: Game) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, int]]]:
    """Each team's melds keyed by index, and its complete piles counted from the same statuses."""
    melds: dict[str, dict[str, Any]] = {}
    piles: dict[str, dict[str, int]] = {}
    for team in TEAMS:
        shown: dict[str, Any] = {}
        counts = {"clean": 0, "dirty": 0, "wild": 0}
        for i, meld in enumerate(game.melds[team]):
            status = pile_kind(meld)
            if status != "incomplete":
                counts[status] += 1
            shown[str(i)] = {"cards": list(meld), "rank": meld_rank(meld), "status": status}
        melds[team], piles[team] = shown, counts
    return melds, piles


def seat_view(game: Game, seat: str, public: View | None = None) -> View:
    """The public view and the seat's own hand and options. `public`: public_view(game) as it is
    now, when the caller has it: its parts are shared, not copied (a view is read, never changed)."""
    if seat not in SEATS:
        raise RuleError("bad_seat", "R5", seat=str(seat)[:10])
    view = dict(public) if public is not None else public_view(game)
    view["seat"] = seat
    view["hand"] = dict(Counter(game.hands[seat]))
    view["options"] = game.options(seat)
    return view
