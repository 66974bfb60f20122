"""Shared helpers of the bot tests: positions from the engine tests' builder, and a bot's turn."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from games.engine import Game

_HELPERS = Path(__file__).resolve().parent.parent / "engine" / "helpers.py"
_spec = importlib.util.spec_from_file_location("engine_test_helpers", _HELPERS)
if _spec is None or _spec.loader is None:
    raise ImportError(f"cannot load {_HELPERS}")
engine_helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(engine_helpers)

position = engine_helpers.position  # names a few cards; the rest go to the bottom of the stock


def game_at(**overrides) -> Game:
    return Game.from_position(position(**overrides))


def bot_turn(game: Game, seat: str, bot, limit: int = 30) -> list[dict]:
    """Let `bot` play `seat`'s whole turn (one action at a time); every action must be legal."""
    actions: list[dict] = []
    deal = game.to_position()["deal"]
    while game.turn == seat and game.to_position()["deal"] == deal and len(actions) < limit:
        view = game.view(seat)
        action = bot.act(view)
        assert game.check(seat, action)["ok"], (action, game.check(seat, action))
        game.apply(seat, action)
        actions.append(action)
    return actions


def score_line(ns: int, ew: int) -> dict:
    """An itemised finished deal with the given totals (R54), for the `scores` of a position."""

    def item(total):
        return {"melded": total, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": total}

    return {"NS": item(ns), "EW": item(ew)}


def partner_waits_in_foot() -> Game:
    """South to play, one meld from its foot, while North already waits in theirs (R44, R49c): the
    position where a seat must not hold its partner back (hard, the look back, the named cases)."""
    return game_at(
        turn="S",
        phase="play",
        hands={"S": "KS 9C 9D 2H", "N": "5C 6D"},
        feet={"N": None},
        melds={"NS": ["KC KD KH"], "EW": []},
    )
