"""What every bot level shares: the seeded generator, the legality check and the safety net.

A bot's randomness comes only from `random.Random` seeded with (level, seed, seat, ply), so the
same view and seed give the same action on any machine (docs/BOTS.md, "Contract"). Legality
is the engine's: `game.check` on a determinization of the view. The check of a seat's own action
depends only on what that seat can see, so any determinization gives the same answer.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from games.bots.determinize import determinize
from games.bots.reasons import Reason
from games.engine import Game
from games.engine.records import Action, View

Check = Callable[[Action], bool]  # is this action of the seat legal now (a dry run of the engine)


class ViewChecker:
    """`game.check` for the seat of a view, on one determinization built when first needed.

    A draw or a discard is answered from the view's options alone (R25–R27, R47, R48): a draw is
    legal exactly when `options.draw` says so; a discard of a held card whenever the seat may
    discard, except the last foot card, which only goes as going out (`options.may_go_out`).
    Melds and takes are always asked of the engine.

    `game`: the game the view was made from, when the caller holds it (the room's computer turns):
    it is asked instead of a determinization, whose building cost more than the bot's decision.
    The true game is one determinization of the view, so the answers are the same.
    """

    def __init__(self, view: View, game: Game | None = None) -> None:
        self.view = view
        self._game: Game | None = game
        self._answers: dict[str, bool] = {}

    @property
    def game(self) -> Game:
        if self._game is None:
            self._game = Game.from_position(determinize(self.view, None))
        return self._game

    def __call__(self, action: Action) -> bool:
        answer = self._from_options(action)
        if answer is not None:
            return answer
        key = json.dumps(action, sort_keys=True)
        if key not in self._answers:
            self._answers[key] = bool(self.game.check(self.view["seat"], action).get("ok"))
        return self._answers[key]

    def _from_options(self, action: Action) -> bool | None:
        options = self.view.get("options") or {}
        kind = action.get("type")
        if kind == "draw" and len(action) == 1:
            return bool(options.get("draw"))
        if kind == "discard" and len(action) == 2 and isinstance(action.get("card"), str):
            if not options.get("discard") or self.view["hand"].get(action["card"], 0) < 1:
                return False
            me = self.view["seats"][self.view["seat"]]
            return not me["in_foot"] or me["cards"] >= 2 or bool(options.get("may_go_out"))
        return None


def game_checker(game: Game, seat: str) -> Check:
    """The same check on a real game (used inside rollouts)."""
    return lambda action: bool(game.check(seat, action).get("ok"))


def fallback_action(view: View, check: Check) -> Action:
    """Any legal action: draw, else a discard, else the first legal addition."""
    if view.get("turn") != view["seat"]:
        raise ValueError(f"it is not {view['seat']}'s turn")
    if view["phase"] == "draw":
        return {"type": "draw"}
    for card in sorted(view["hand"]):
        action = {"type": "discard", "card": card}
        if view["hand"][card] > 0 and check(action):
            return action
    for rank, cards in sorted(((view.get("options") or {}).get("add_to") or {}).items()):
        for card in cards:
            action = {"type": "meld", "groups": [{"cards": [card], "to": rank}]}
            if check(action):
                return action
    raise RuntimeError("no legal action found for this view")


class Bot:
    """Base class: subclasses implement `choose(view, rng, check)`."""

    level = "base"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def generator(self, view: View) -> random.Random:
        return random.Random(f"{self.level}:{self.seed}:{view['seat']}:{view.get('ply', 0)}")

    def act(self, view: View) -> Action:
        return self.act_explained(view)[0]

    def act_explained(self, view: View, game: Game | None = None) -> tuple[Action, Reason | None]:
        """The action and the reason its decision gave (None for the safety net's action, and
        for the levels that give none). `game`: the game the view was made from, if held (its
        checks then need no determinization; ViewChecker)."""
        rng = self.generator(view)
        check = ViewChecker(view, game)
        action, why = self.choose_explained(view, rng, check)
        if action is None or not check(action):
            return fallback_action(view, check), None
        return action, why

    def choose(self, view: View, rng: random.Random, check: Check) -> Action | None:
        raise NotImplementedError

    def choose_explained(self, view: View, rng: random.Random, check: Check) -> tuple[Action | None, Reason | None]:
        """`choose` with the reason of the decision; a level that explains itself overrides it."""
        return self.choose(view, rng, check), None
