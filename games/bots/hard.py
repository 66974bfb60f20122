"""The hard bot: determinized Monte Carlo search on top of the normal policy.

At the decisions where the choice matters most — take the discard pile or draw; which melds to
lay, or none yet; which card to discard; go out now or play on — it lists candidate actions
(the normal bot's choice first), deals the unseen cards into complete positions consistent with
its view (`determinize`), and for each such world and candidate plays the normal policy for
every seat for a fixed number of plies, then scores the result: the exact R54 score if the deal
ended, else `evaluation.position_deal_estimate`. In the last deal an unfinished margin is
turned into a chance of winning the game (`evaluation.deal_margin_spread`), so the bot plays to
win, not to pile up points. The same worlds serve every candidate (common random numbers), and
an alternative replaces the normal choice only when it wins clearly in those worlds. The
rollouts are spent in two rounds: a few worlds for every candidate, then the rest of the budget
on normal's choice and the alternatives that could still beat it. When going out is a candidate
the rollouts play to the end of the deal, so both sides of that choice are scored exactly.

The budget is a number of rollouts (`iterations`), never a time, so the same view and seed give
the same action on any machine at any load.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

from games.bots import normal
from games.bots.base import Bot, Check, fallback_action, game_checker
from games.bots.cards import OTHER_TEAM, TEAM_OF, deals_in_game
from games.bots.determinize import determinize
from games.bots.evaluation import deal_margin_spread, position_deal_estimate
from games.bots.reasons import Reason, reason
from games.bots.situation import Situation, analyse
from games.engine import Game
from games.engine.records import Action, Position, View

LIVE_ITERATIONS = 48  # rollouts per searched decision at the live budget
LIVE_DEPTH = 12  # plies per rollout before the evaluation function takes over (without turns)
LIVE_TURNS = 2  # or: the seat's own turns a rollout plays (this one included) before the evaluation
DISCARD_CANDIDATES = 3
LATE_STOCK = 12  # with this few stock cards left, play the rollouts (nearly) to the end
LATE_DEPTH_FACTOR = 3
DEAL_END_PLIES = 150  # more than a deal has left once a seat can go out
OVERRIDE_MARGIN = 50.0  # an alternative must beat normal's choice by this many points on average
OVERRIDE_Z = 1.0  # with this many standard errors (paired over the worlds) to spare
SCREEN_WORLDS = 8  # worlds every candidate plays before the hopeless ones are dropped
SCREEN_Z = 1.0  # an alternative stays in the race if mean + this many SE clears the bar
GAME_RESULT_WEIGHT = 10000  # a won game is worth more than any score margin
FULL_DEAL_SPREAD = 2000.0  # spread of a whole deal's margin (deal_margin_spread at a full stock)

# where a rollout stops: at most these plies, and after the seat's n-th turn ends (None: no turn limit)
Horizon = tuple[int, int | None]


class HardBot(Bot):
    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = LIVE_ITERATIONS,
        depth: int = LIVE_DEPTH,
        turns: int | None = LIVE_TURNS,
        margin: float = OVERRIDE_MARGIN,
    ) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.depth = depth
        self.turns = turns
        self.margin = margin  # the override bar (benchmarks try others: bench_search)

    def choose(self, view: View, rng: random.Random, check: Check) -> Action | None:
        return self.choose_explained(view, rng, check)[0]

    def choose_explained(self, view: View, rng: random.Random, check: Check) -> tuple[Action | None, Reason | None]:
        """The normal choice with normal's reason, unless the search overrides it: then the
        search's own reason, its estimated gain over the normal choice in the worlds it played."""
        base, why = normal.explain(view, check)
        if base is None:
            return None, None
        situation = analyse(view)
        if partner_waits_on_me(situation, why):
            return base, why
        candidates, going_out = search_candidates(situation, base, check)
        if len(candidates) < 2 or self.iterations < len(candidates):
            return base, why
        horizon = rollout_horizon(view, self.depth, self.turns, going_out)
        index, scores = self.searched(view, candidates, horizon, rng)
        if index == 0:
            return base, why
        gain, _error = paired_gain(scores[0], scores[index])
        return candidates[index], reason("search_override", gain=round(gain), worlds=len(scores[index]))

    def search(self, view: View, candidates: list[Action], depth: int | Horizon, rng: random.Random) -> int:
        return self.searched(view, candidates, depth, rng)[0]

    def searched(
        self, view: View, candidates: list[Action], depth: int | Horizon, rng: random.Random
    ) -> tuple[int, list[list[float]]]:
        """The index of the candidate to play, from at most `iterations` rollouts in two rounds,
        and every candidate's scores in the worlds it played.

        Every candidate first plays the same few worlds (`SCREEN_WORLDS`); an alternative that
        cannot plausibly clear the override bar there (`in_contention`) is dropped, and the rest
        of the budget deals new worlds for normal's choice and the alternatives still in the
        race. The rollouts go where the candidates really differ: a decision whose alternatives
        all lose early costs a fraction of the budget, a contested one gets more worlds."""
        screen = max(1, min(SCREEN_WORLDS, self.iterations // len(candidates)))
        scores: list[list[float]] = [[] for _ in candidates]
        self._play_worlds(view, candidates, range(len(candidates)), screen, depth, rng, scores)
        racing = [0] + [
            index for index in range(1, len(candidates)) if in_contention(scores[0], scores[index], self.margin)
        ]
        if len(racing) == 1:
            return 0, scores
        spent = screen * len(candidates)
        more = (self.iterations - spent) // len(racing)
        self._play_worlds(view, candidates, racing, more, depth, rng, scores)
        return racing[confident_best([scores[index] for index in racing], self.margin)], scores

    def deal_world(self, view: View, rng: random.Random) -> Position:
        """One world to play the candidates in: the unseen cards dealt at random (`determinize`).
        A benchmark gives the search better worlds here (testsupport/oracle_search.py)."""
        return determinize(view, rng)

    def _play_worlds(
        self,
        view: View,
        candidates: list[Action],
        indices: Iterable[int],
        worlds: int,
        depth: int | Horizon,
        rng: random.Random,
        scores: list[list[float]],
    ) -> None:
        for _ in range(worlds):
            template = world_game(self.deal_world(view, rng))
            for index in indices:
                scores[index].append(rollout(copy_game(template), view["seat"], candidates[index], depth))


def partner_waits_on_me(situation: Situation, why: Reason | None) -> bool:
    """The team goes out only once both partners are in their feet (R49c): when normal's move
    takes this seat into its foot while the partner already plays from theirs, the search may
    not hold it back (a partner who trusts the bot must never be kept from going out)."""
    return situation.partner_in_foot and not situation.in_foot and why is not None and why.get("code") == "rush_to_foot"


def in_contention(base: list[float], other: list[float], margin: float = OVERRIDE_MARGIN, z: float = SCREEN_Z) -> bool:
    """Could `other` still beat the normal choice by `margin`? Its paired mean gain over the
    screening worlds, plus `z` standard errors, reaches the bar. An alternative that plays out
    exactly like normal's choice (gain 0 in every world) is out at once."""
    mean, error = paired_gain(base, other)
    return mean + z * error > margin


def paired_gain(base: list[float], other: list[float]) -> tuple[float, float]:
    """The mean gain of `other` over `base`, world by world, and its standard error."""
    worlds = len(base)
    gains = [other[w] - base[w] for w in range(worlds)]
    mean = sum(gains) / worlds
    spread = (sum((g - mean) ** 2 for g in gains) / max(1, worlds - 1)) ** 0.5
    return mean, spread / worlds**0.5


def rollout_depth(view: View, depth: int, going_out: bool = False) -> int:
    """Plies per rollout: `depth`; to the end of the deal when going out is one of the
    candidates (going out ends the deal with its exact R54 score, so playing on is scored
    exactly too, not by an estimate that would bias the biggest swing of a deal, R48, R54; such
    decisions are rare, docs/BOTS.md); `LATE_DEPTH_FACTOR` times `depth` once the stock is low
    (nearly always to the end of the deal as well)."""
    if going_out:
        return DEAL_END_PLIES
    if view["stock"] <= LATE_STOCK:
        return depth * LATE_DEPTH_FACTOR
    return depth


def rollout_horizon(view: View, depth: int, turns: int | None, going_out: bool = False) -> Horizon:
    """Where a rollout stops. With `turns`, after the seat's own `turns`-th turn ends (the current
    one counts), so every candidate is scored at the same point of the table's round: a
    candidate that melds before its discard and one that discards at once are compared after the
    same turns of every seat, not after the same number of actions (which would stop them at
    different points of an opponent's turn, before or after their meld). Late in a deal
    `LATE_DEPTH_FACTOR` times as many turns; to the end of the deal when going out is a candidate
    (`rollout_depth`). Without `turns`, `depth` plies as before."""
    if going_out:
        return DEAL_END_PLIES, None
    if turns is None:
        return rollout_depth(view, depth), None
    if view["stock"] <= LATE_STOCK:
        return DEAL_END_PLIES, turns * LATE_DEPTH_FACTOR
    return DEAL_END_PLIES, turns


def confident_best(scores: list[list[float]], margin: float = OVERRIDE_MARGIN, z: float = OVERRIDE_Z) -> int:
    """The index of the candidate to play: the normal bot's (index 0) unless another beats it
    in the same worlds by more than `margin` points with `z` standard errors to spare. The
    comparison is paired world by world, so the luck of the deal cancels out."""
    best, best_gain = 0, 0.0
    for index in range(1, len(scores)):
        mean, error = paired_gain(scores[0], scores[index])
        if mean - z * error > margin and mean > best_gain:
            best, best_gain = index, mean
    return best


def search_candidates(situation: Situation, base: Action, check: Check) -> tuple[list[Action], bool]:
    """The normal bot's action and its main alternatives, all legal; and whether going out is one."""
    candidates, out = [base], None
    kind = base["type"]
    if kind == "take_pile":
        candidates.append({"type": "draw"})
    elif kind == "draw" and situation.options.get("take_pile"):
        for take in normal.take_candidates(situation):
            if check(take):
                candidates.append(take)
                break
    if kind in ("meld", "discard"):
        # going out or playing on: the largest swing of a deal (R48, R50)
        out = normal.going_out_plan(situation)
        if out is not None and not seals_a_defeat(situation):
            _add_checked(candidates, out.action(), check)
    if kind == "meld":
        _add_checked(candidates, normal.build_plan(situation, "keep", 2).action(), check)
        # lay nothing more this turn: keep the cards, and the pairs that take the pile (R29)
        _add_checked(candidates, normal.discard_decision(situation, check), check)
    elif kind == "discard":
        added = 0
        for card in normal.discard_ranking(situation):
            if added >= DISCARD_CANDIDATES - 1:
                break
            added += _add_checked(candidates, {"type": "discard", "card": card}, check)
    return candidates, out is not None and out.action() in candidates


def seals_a_defeat(situation: Situation) -> bool:
    """Going out in the last deal while the game is lost ends it lost (R56). The rollouts see
    all but no chance of a comeback either way and would only compare margins, so the search
    does not offer it (the normal bot's rule), unless the stock is nearly gone."""
    view = situation.view
    return view["deal"] == deals_in_game(view) and view["stock"] > 6 and normal.game_margin_if_out(situation) <= 0


def _add_checked(candidates: list[Action], action: Action | None, check: Check) -> bool:
    if action is None or action in candidates or not check(action):
        return False
    candidates.append(action)
    return True


def world_game(position: Position) -> Game:
    """A determinized world read into an engine game (once per world; `copy_game` per candidate)."""
    return Game.from_position(position)


def copy_game(game: Game) -> Game:
    """An independent copy of a game (the engine's state is lists and dicts of card strings),
    cheaper than reading the position again for every candidate of a world."""
    copy = Game.__new__(Game)
    for name in Game.__slots__:
        value = getattr(game, name)
        if isinstance(value, list):
            value = list(value)
        elif isinstance(value, dict):
            value = {key: _copied(item) for key, item in value.items()}
        setattr(copy, name, value)
    return copy


def _copied(item: object) -> object:
    if isinstance(item, list):
        return [list(x) if isinstance(x, list) else x for x in item]
    return item


def rollout(game: Game, seat: str, action: Action, depth: int | Horizon) -> float:
    """Play `action` in `game` (a determinized copy, changed in place), then the normal policy
    for everyone to the horizon (`depth` plies, or a `Horizon`); the score difference for the
    seat's team, exact if the deal ended, else estimated."""
    deals_before = play_out(game, seat, action, depth)
    return score_difference(game, TEAM_OF[seat], deals_before)


def play_out(game: Game, seat: str, action: Action, depth: int | Horizon) -> int:
    """`action`, then the normal policy for every seat for `depth` plies (or to a `Horizon`: at
    most its plies, and no further than the end of the seat's n-th turn) or to the deal's end,
    in place; the number of deals finished before `action` (for the scoring)."""
    plies, turns = (depth, None) if isinstance(depth, int) else depth
    deals_before = len(game.deal_scores)
    game.apply(seat, action)
    turns_ended = int(game.turn != seat)
    for _ in range(plies):
        if game.turn is None or len(game.deal_scores) > deals_before:
            break
        if turns is not None and turns_ended >= turns:
            break
        mover = game.turn
        check = game_checker(game, mover)
        view = game.view(mover)
        move = normal.decide(view, check) or fallback_action(view, check)
        game.apply(mover, move)
        turns_ended += mover == seat and game.turn != seat
    return deals_before


def score_difference(game: Game, team: str, deals_before: int) -> float:
    """The game margin for `team` (totals plus this deal, exact or estimated), valued as it
    counts toward winning the game (`valued_margin`)."""
    margin, position = game_margin(game, team, deals_before)
    return valued_margin(game, margin, position)


def game_margin(game: Game, team: str, deals_before: int) -> tuple[float, Position | None]:
    """The game margin for `team` in points: the deals finished before plus this one, exact if
    it ended (then no position), else estimated on the position it is at (returned with it)."""
    scores = game.scores()
    other = OTHER_TEAM[team]
    deals = scores["deals"]
    before = sum(d[team]["total"] - d[other]["total"] for d in deals[:deals_before])
    if len(deals) > deals_before:
        finished = deals[deals_before]
        return before + finished[team]["total"] - finished[other]["total"], None
    position = game.to_position()
    return before + position_deal_estimate(position, team) - position_deal_estimate(position, other), position


def valued_margin(game: Game, margin: float, position: Position | None) -> float:
    """A game margin valued as it counts toward winning the game. In the last deal the game's
    result counts far above any margin (R56): exactly if the game ended, else as the chance of
    winning given the estimated margin and how much of the deal is left. Before the last deal
    the margin is bent the same way (`winning_points`): a point counts fully while the game is
    close, less and less once it is decided either way, so the search plays for the win rather
    than for a bigger lead. `position` is None when the deal ended (the margin is exact)."""
    last = game.rules.deals  # V1
    if position is None:
        deals = len(game.deal_scores)
        if deals == last:
            return float(margin + GAME_RESULT_WEIGHT * ((margin > 0) - (margin < 0)))
        return winning_points(margin, FULL_DEAL_SPREAD * math.sqrt(last - deals))
    spread = deal_margin_spread(position)
    if position["deal"] == last:
        # 2·Φ(margin / spread) − 1: from -1 (the game is lost) to +1 (it is won)
        return margin + GAME_RESULT_WEIGHT * math.erf(margin / (spread * math.sqrt(2)))
    later = last - position["deal"]
    return winning_points(margin, math.sqrt(spread**2 + later * FULL_DEAL_SPREAD**2))


def winning_points(margin: float, spread: float) -> float:
    """A game margin in points as it bears on winning: spread·√(π/2)·(2Φ(margin/spread) − 1),
    the chance of winning (the rest of the game's margin taken as normal with `spread`) scaled so
    that near an even game one point counts as one point."""
    return spread * math.sqrt(math.pi / 2) * math.erf(margin / (spread * math.sqrt(2)))
