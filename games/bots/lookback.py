"""The look back: after a deal, up to three of one seat's decisions where the hard bot's search
would have played otherwise, each with the search's estimate of what it cost.

Given the position a deal started from and the deal's moves in order (every seat's), the deal is
replayed with the engine; at each move of the asked seat (and only those: another seat's move,
or a move the computer made for the seat, is never judged) the seat's own view is taken — what
that seat could see then, never another hand — and the hard bot's search (`games.bots.hard`) is
run on it: normal's choice and its alternatives (`search_candidates`, every one checked legal by
the engine) plus the action actually played, all played out on the same determinized worlds
(paired, common random numbers). The search's choice is the hard bot's own rule
(`confident_best`: normal's choice unless an alternative clearly beats it); a decision is
reported when that choice differs from the move played and beats it, world by world, by more
than the hard bot's override bar with one standard error to spare.

The look back and the Hint agree (issue #27): at each decision the hint the player would have
been shown then is asked again (`games.bots.hint.hint_bot`, the hint's own level and seed) and
played out beside the others. A move that is the hint is never called a mistake: when the
search's choice beats it, the item says so as what it is, a deeper look than the hint's
(`"hint": "played"`); an item for a move that left the hint says whether the better move was
the hint's (`"hint": "better"`). No item shows a cost below `MIN_COST`, the noise of the
estimate (docs/BOTS.md).

The budget is a number of rollouts for the whole deal, never a time, spent in two rounds as the
hard bot spends its own: every decision's candidates first play a few worlds, then the rest goes
to the decisions where the played move could plausibly have cost something, largest first. The
same moves and seed give the same look back on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.bots import normal
from games.bots.base import Bot, ViewChecker, fallback_action
from games.bots.cards import TEAM_OF
from games.bots.determinize import determinize
from games.bots.hard import (
    LIVE_DEPTH,
    LIVE_ITERATIONS,
    LIVE_TURNS,
    OVERRIDE_MARGIN,
    OVERRIDE_Z,
    confident_best,
    copy_game,
    game_margin,
    in_contention,
    paired_gain,
    partner_waits_on_me,
    play_out,
    rollout_horizon,
    search_candidates,
    valued_margin,
    world_game,
)
from games.bots.hint import describe, hint_bot
from games.bots.situation import analyse
from games.engine import Game, normalise_action
from games.engine.records import Action, Position, View

MAX_ITEMS = 3  # what a player reads after a deal
DEAL_ROLLOUTS = 480  # the whole deal's budget (its CPU: docs/BOTS.md)
SCREEN_WORLDS = 4  # worlds every candidate of every decision plays first
MIN_SCREEN_WORLDS = 2  # fewer than this tells nothing: such decisions wait for the budget
DECISION_ROLLOUTS = LIVE_ITERATIONS  # at most as many as the hard bot spends on one decision
TURNS = LIVE_TURNS  # a rollout plays the seat's own turns as the hard bot's do (`depth` plies without)
ROUNDING = 10  # the cost is said to the nearest ten points ("about +120")
MIN_COST = 200  # no item below this: twice the spread of its estimate over determinization seeds (docs/BOTS.md)

Move = tuple[str, Action]  # (seat, action), as the engine applied it


@dataclass
class Decision:
    """One of the seat's decisions: its view, the candidates (normal's choice first; the move
    played among them at `played`), and each candidate's scores in the worlds played so far."""

    number: int  # the move's index in the deal
    view: View
    candidates: list[Action]  # the hard bot's own first (`own` of them), then the hint and the move played if not
    own: int
    played: int
    hint: int  # the candidate the Hint would have shown then
    going_out: bool
    rng: random.Random
    racing: list[int] = field(default_factory=list)  # the candidates of the second round
    values: list[list[float]] = field(default_factory=list)  # as the search values a margin
    points: list[list[float]] = field(default_factory=list)  # the plain game margin in points

    def __post_init__(self) -> None:
        self.values = [[] for _ in self.candidates]
        self.points = [[] for _ in self.candidates]


@dataclass
class Budget:
    """Rollouts left for the deal; `spent` is what the look back used (tests count it). `pause`
    is called before each world is granted: the caller's chance to wait for idle CPU (the room's
    worker does); it never changes what is searched."""

    left: int
    spent: int = 0
    pause: Callable[[], None] | None = None

    def take(self, rollouts: int) -> int:
        """`rollouts` if the budget holds them all (then they are spent), else 0."""
        if rollouts > self.left:
            return 0
        if self.pause is not None:
            self.pause()
        self.left -= rollouts
        self.spent += rollouts
        return rollouts


def look_back(
    start: Position,
    moves: Sequence[Move],
    seat: str,
    seed: int | str,
    computer: Collection[int] = (),
    rollouts: int = DEAL_ROLLOUTS,
    depth: int = LIVE_DEPTH,
    pause: Callable[[], None] | None = None,
    hint: Bot | None = None,
    hints_offered: bool = True,
) -> dict[str, Any]:
    """{"items": [...], "decisions": n, "searched": n, "rollouts": n} for `seat`'s decisions in
    the deal that `start` begins and `moves` plays. `computer`: indices of moves the computer
    made for the seat (a friend away): not the player's, not judged. Each item: the move's
    index, the action played and the search's, each also as the hint's parts (what a person does
    at the table, `hint.describe`), the estimated cost in points, and where the hint stood
    (`"hint"`: "played", "better" or None). `pause`: see Budget. `hint`: the bot whose answers
    were the seat's hints (by default the room's, `hint_bot(seed, seat)`). `hints_offered`: False
    where the game offered no Hint (a ranked daily): the hint stays the reference, but no item
    speaks of it (`"hint"` None)."""
    decisions = seat_decisions(start, moves, seat, seed, computer, hint)
    searched = [d for d in decisions if len(d.candidates) > 1]
    budget = Budget(rollouts, pause=pause)
    screen_all(searched, budget, depth)
    gains = {d.number: contested_gain(d) for d in searched}
    contested = sorted((d for d in searched if gains[d.number] is not None), key=lambda d: -(gains[d.number] or 0.0))
    for decision in contested:
        play_more(decision, budget, depth)
    items = [item for item in (judged(d) for d in contested) if item is not None]
    items.sort(key=lambda item: (-item["points"], item["move"]))
    if not hints_offered:
        items = [{**item, "hint": None} for item in items]
    return {
        "items": items[:MAX_ITEMS],
        "decisions": len(decisions),
        "searched": len(searched),
        "rollouts": budget.spent,
    }


def seat_decisions(
    start: Position,
    moves: Sequence[Move],
    seat: str,
    seed: int | str,
    computer: Collection[int],
    hint: Bot | None = None,
) -> list[Decision]:
    """Replay the deal; at each of the seat's own moves, its view, the search's candidates and the
    hint that `hint` (the hint's bot; by default the room's, `hint_bot(seed, seat)`) gave there."""
    hint = hint or hint_bot(int(seed), seat)
    game = Game.from_position(start)
    deal = game.deal
    found: list[Decision] = []
    skipped = set(computer) | taken_back(start, moves)
    for number, (mover, action) in enumerate(moves):
        if game.deal != deal or game.turn is None:
            break  # the deal is over: a move after it belongs to the next deal
        if mover == seat and number not in skipped:
            view = game.view(seat)
            rng = random.Random(f"lookback:{seed}:{seat}:{deal}:{number}")
            decision = _decision(number, view, normalise_action(action), normalise_action(hint.act(view)), rng)
            if decision is not None:
                found.append(decision)
        game.apply(mover, action)
    return found


def taken_back(start: Position, moves: Sequence[Move]) -> set[int]:
    """The indices of meld actions the player took back with an undo (docs/RULES.md V7), and of
    those undos: a move that did not stay on the table is no decision to judge."""
    game = Game.from_position(start)
    if not game.rules.undo:
        return set()
    melds: list[int] = []  # this turn's meld actions that an undo could still take back
    found: set[int] = set()
    for number, (mover, action) in enumerate(moves):
        if game.turn is None:
            break
        game.apply(mover, action)
        if action.get("type") == "undo":
            found.update((melds.pop(), number))
        elif len(game.undo_points) > len(melds):
            melds.append(number)
        else:
            melds = melds[: len(game.undo_points)]
    return found


def _decision(number: int, view: View, played: Action, hinted: Action, rng: random.Random) -> Decision | None:
    check = ViewChecker(view)
    if not check(played):
        return None  # cannot happen for a stored move; judged only against legal play
    base, why = normal.explain(view, check)
    base = base or fallback_action(view, check)
    situation = analyse(view)
    if partner_waits_on_me(situation, why):
        candidates, going_out = [base], False  # the hard bot never holds such a move back (R49c): nor does this
    else:
        candidates, going_out = search_candidates(situation, normalise_action(base), check)
    candidates = [normalise_action(c) for c in candidates]
    own = len(candidates)
    hint = _index_of(candidates, hinted)
    return Decision(number, view, candidates, own, _index_of(candidates, played), hint, going_out, rng)


def _index_of(candidates: list[Action], action: Action) -> int:
    """The index of the candidate that does what `action` does; appended if there is none."""
    keys = [action_key(c) for c in candidates]
    if action_key(action) in keys:
        return keys.index(action_key(action))
    candidates.append(action)
    return len(candidates) - 1


def action_key(action: Action) -> tuple[Any, ...]:
    """Two actions that do the same thing (cards named in another order) have the same key."""
    groups = tuple(sorted((tuple(sorted(g["cards"])), g.get("to") or "") for g in action.get("groups", [])))
    return (action["type"], action.get("card"), tuple(sorted(action.get("cards", []))), groups)


def screen_all(decisions: list[Decision], budget: Budget, depth: int) -> None:
    """The first round: the same few worlds for every candidate of every decision, as many as
    the first half of the budget allows (at least `MIN_SCREEN_WORLDS`); if even that is too much,
    the decisions where the player left normal's choice go first."""
    plays = sum(len(d.candidates) for d in decisions)
    worlds = min(SCREEN_WORLDS, budget.left // 2 // max(1, plays))
    worlds = max(worlds, MIN_SCREEN_WORLDS)
    for decision in sorted(decisions, key=lambda d: (d.played == 0, d.number)):
        if budget.left < worlds * len(decision.candidates):
            continue
        play_worlds(decision, range(len(decision.candidates)), worlds, budget, depth)


def contested_gain(decision: Decision) -> float | None:
    """The best screened gain of another candidate over the move played, if one could plausibly
    beat it by the override bar; None when the move played is not in question (or unscreened)."""
    if not decision.values[decision.played]:
        return None
    rivals = _rivals(decision)
    if not rivals:
        return None
    return max(paired_gain(decision.values[decision.played], decision.values[i])[0] for i in rivals)


def _rivals(decision: Decision) -> list[int]:
    played = decision.values[decision.played]
    return [
        i
        for i in range(len(decision.candidates))
        if i != decision.played and len(decision.values[i]) == len(played) and in_contention(played, decision.values[i])
    ]


def play_more(decision: Decision, budget: Budget, depth: int) -> None:
    """The second round: more worlds for the move played, normal's choice, the hint and the
    rivals, up to the hard bot's own budget for one decision."""
    racing = sorted({0, decision.hint, decision.played, *_rivals(decision)})
    spent = len(decision.values[0]) * len(decision.candidates)
    worlds = min((DECISION_ROLLOUTS - spent) // len(racing), budget.left // len(racing))
    if worlds > 0:
        play_worlds(decision, racing, worlds, budget, depth)
    decision.racing = racing


def play_worlds(decision: Decision, indices: Sequence[int], worlds: int, budget: Budget, depth: int) -> None:
    """`worlds` new determinized worlds of the decision's view, each played out by every
    candidate in `indices`; both the search's value and the plain margin are kept."""
    view, seat = decision.view, decision.view["seat"]
    horizon = rollout_horizon(view, depth, TURNS, decision.going_out)  # where the hard bot's rollouts stop
    for _ in range(worlds):
        if budget.take(len(indices)) < len(indices):
            return  # the deal's budget is spent (only whole worlds are played)
        template = world_game(determinize(view, decision.rng))
        for index in indices:
            game = copy_game(template)
            deals_before = play_out(game, seat, decision.candidates[index], horizon)
            margin, position = game_margin(game, TEAM_OF[seat], deals_before)
            decision.values[index].append(valued_margin(game, margin, position))
            decision.points[index].append(float(margin))


def judged(decision: Decision) -> dict[str, Any] | None:
    """The item for a decision where the search would have played otherwise, or None.

    The search's choice is the hard bot's rule with the hint in the place of normal's choice:
    the hint unless one of the search's own candidates of the second round beats it by the
    override bar with one standard error to spare (`confident_best`). An item needs that choice
    to differ from the move played and beat it by the same bar, and the plain margin to say it
    gained at least `MIN_COST` points (the cost shown). So a move that is the hint is an item only
    where the deeper search clearly beat the hint, and the item says so (`"hint": "played"`)."""
    if not decision.racing:
        return None  # never raced: the screen found nothing to say, or the budget was spent
    hint = decision.hint
    ordered = [hint] + [i for i in decision.racing if i < decision.own and i != hint]
    choice = ordered[confident_best([decision.values[i] for i in ordered])]
    if choice == decision.played:
        return None
    gain, error = paired_gain(decision.values[decision.played], decision.values[choice])
    points, _ = paired_gain(decision.points[decision.played], decision.points[choice])
    cost = int(round(points / ROUNDING) * ROUNDING)
    if gain - OVERRIDE_Z * error <= OVERRIDE_MARGIN or cost < MIN_COST:
        return None
    return item(decision, choice, cost)


def item(decision: Decision, choice: int, cost: int) -> dict[str, Any]:
    """The item's words are the hint's parts of each action (what a person does at the table)."""
    view, seat = decision.view, decision.view["seat"]
    down = bool(view["down"][TEAM_OF[seat]])
    played, better = decision.candidates[decision.played], decision.candidates[choice]
    game = ViewChecker(view).game  # any determinization gives the seat's own check (base.py)
    return {
        "move": decision.number,
        "deal": view["deal"],
        "played": played,
        "better": better,
        "played_parts": describe(played, down, game.check(seat, played).get("points", 0)),
        "better_parts": describe(better, down, game.check(seat, better).get("points", 0)),
        "points": cost,
        "worlds": len(decision.values[choice]),
        "hint": _hint_stood(decision, choice),
    }


def _hint_stood(decision: Decision, choice: int) -> str | None:
    """ "played": the move played was the hint (a deeper look than the hint's found better);
    "better": the better move is the hint's; None: the hint was neither."""
    if decision.hint == decision.played:
        return "played"
    return "better" if decision.hint == choice else None
