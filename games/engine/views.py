"""What a seat may see (its information set) and what a spectator may see.

A view never holds another seat's cards, an unpicked foot (the seat's own included), the
stock's order or the seed. It is shaped as objects keyed by stable names (docs/VIEW.md) so that
diffs between versions stay small.
"""
from __future__ import annotations

from collections import Counter

from games.engine.cards import is_three
from games.engine.melds import pile_kind, meld_rank
from games.engine.scoring import count_piles
from games.engine.seats import GOING_OUT_PILES, SEATS, TEAMS


def public_view(game) -> dict:
    return {
        "ply": game.ply,
        "deal": game.deal,
        "dealer": game.dealer,
        "turn": game.turn,
        "phase": game.phase,
        "first_meld_minimum": game.first_meld_minimum(),
        "seats": {s: {"cards": len(game.hands[s]), "foot": len(game.feet[s] or ()), "in_foot": game.in_foot(s)}
                  for s in SEATS},
        "stock": len(game.stock),
        "discard": list(game.discard),
        "discard_blocked": bool(game.discard) and is_three(game.discard[-1]),
        "melds": {t: {str(i): {"cards": list(m), "rank": meld_rank(m), "status": pile_kind(m)}
                      for i, m in enumerate(game.melds[t])} for t in TEAMS},
        "piles": {t: count_piles(game.melds[t]) for t in TEAMS},
        "going_out_needs": dict(GOING_OUT_PILES),
        "red_threes": {t: len(game.red_threes[t]) for t in TEAMS},
        "down": dict(game.down),
        "scores": game.scores(),
        "winner": game.winner,
    }


def seat_view(game, seat: str) -> dict:
    from games.engine.errors import RuleError

    if seat not in SEATS:
        raise RuleError("bad_seat", "R5", seat=str(seat)[:10])
    view = public_view(game)
    view["seat"] = seat
    view["hand"] = dict(Counter(game.hands[seat]))
    view["options"] = game.options(seat)
    return view
