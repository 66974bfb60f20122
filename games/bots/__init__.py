"""Computer players of Foot Canasta (docs/BOTS.md, "Contract").

    bot = make_bot("normal", seed=7)
    action = bot.act(game.view(seat))     # one legal action dict
    action, reason = bot.act_explained(view)   # and why (games.bots.reasons), or None

Levels: "easy", "normal", "hard", "random" (uniformly random legal play, for tests and
benchmarks) and "lesson" (the quiet seats of Learn to play, games.bots.lesson). A bot sees a
seat's view and nothing else, and answers one action at a time; its
randomness comes from its seed, the seat and the view's ply only. This package imports nothing
of the project but `games.engine` (tests/bots/test_imports.py checks it).
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.base import Bot, Check
from games.bots.easy import EasyBot
from games.bots.hard import HardBot
from games.bots.lesson import LessonBot
from games.bots.normal import decide as normal_decide
from games.bots.normal import explain as normal_explain
from games.bots.random_bot import RandomBot
from games.bots.reasons import Reason
from games.engine.records import Action, View

LEVELS = ("easy", "normal", "hard")


class NormalBot(Bot):
    level = "normal"

    def choose(self, view: View, rng: random.Random, check: Check) -> Action | None:
        return normal_decide(view, check)

    def choose_explained(self, view: View, rng: random.Random, check: Check) -> tuple[Action | None, Reason | None]:
        return normal_explain(view, check)


_BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
    "lesson": LessonBot,
}


def make_bot(level: str, seed: int = 0, **options: Any) -> Bot:
    """A bot of `level` ("easy", "normal", "hard" or "random") seeded with `seed`.

    `options` go to the bot (the hard bot takes `iterations` and `depth`)."""
    try:
        return _BOTS[level](seed, **options)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}") from None


__all__ = ["LEVELS", "Bot", "make_bot"]
