"""What a seat can do now (docs/VIEW.md "options"): the page enables its buttons from this, and
the bots find their moves from it. Every answer comes from the same planning code as `apply`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from games.engine.cards import JOKER, is_natural, is_three, is_wild
from games.engine.errors import RuleError
from games.engine.firstmeld import Take, best_take
from games.engine.melds import MELD_KIND, PILE_SIZE, addition_problem, meld_rank
from games.engine.records import Action, Options
from games.engine.seats import TEAM_OF

if TYPE_CHECKING:
    from games.engine.game import Game

NOTHING: Options = {
    "draw": False,
    "take_pile": False,
    "pile_cards": [],
    "meld": False,
    "add_to": {},
    "minimum": 0,
    "discard": False,
    "may_go_out": False,
    "undo": False,
}


def matches_top(card: str, top: str) -> bool:
    """R29 (b): naturals of the top's rank; two 2s for a 2; two jokers for a joker."""
    if top == JOKER:
        return card == JOKER
    if is_wild(top):
        return card != JOKER and is_wild(card)
    return is_natural(card) and card[0] == top[0]


def options_for(game: Game, seat: str) -> Options:
    if not isinstance(seat, str) or seat not in TEAM_OF:
        raise RuleError("bad_seat", "R5", seat=str(seat)[:10])
    team = TEAM_OF[seat]
    minimum = 0 if game.down[team] else game.first_meld_minimum()
    result = dict(NOTHING, minimum=minimum, add_to={}, pile_cards=[])
    if game.phase == "over" or seat != game.turn:
        return result
    result["may_go_out"] = game.may_go_out(seat)
    if game.phase == "draw":
        result["draw"] = True
        matching = result["pile_cards"] = pile_cards(game, seat)
        result["take_pile"] = can_take_pile(game, seat, matching)
        return result
    result["meld"] = True
    result["add_to"] = additions(game, seat)
    result["discard"] = can_discard(game, seat)
    result["undo"] = bool(game.undo_points)  # V7: melds of this turn to take back
    return result


def can_discard(game: Game, seat: str) -> bool:
    """Whether some card may be discarded. Every held card gets the same answer from the planner
    (it looks only at the number of cards left and at R49), so one check stands for all."""
    hand = game.hands[seat]
    return bool(hand) and game.check(seat, {"type": "discard", "card": hand[0]})["ok"]


def pile_cards(game: Game, seat: str) -> list[str]:
    if not game.discard or is_three(game.discard[-1]):
        return []
    top = game.discard[-1]
    return [c for c in game.hands[seat] if matches_top(c, top)]


def take_pile_candidates(game: Game, seat: str, matching: list[str]) -> Iterator[Action]:
    """Takes worth trying, smallest first: the pair, more matching cards, a wild card or two."""
    if len(matching) < 2:
        return
    team = TEAM_OF[seat]
    if not game.down[team]:
        yield from _first_meld_takes(game, seat)
        return
    wilds = [c for c in game.hands[seat] if is_wild(c) and c not in matching[:2]]
    for n in range(2, min(len(matching), 6) + 1):
        for w in range(min(len(wilds), 2) + 1):
            yield {"type": "take_pile", "cards": matching[:n] + wilds[:w]}


def _first_meld_takes(game: Game, seat: str) -> Iterator[Action]:
    """The best first-meld take; in the foot also the best one that keeps two cards (R40, R47)."""
    hand, top = game.hands[seat], game.discard[-1]
    best = best_take(hand, top)
    if best:
        yield _take_action(best)
        if game.in_foot(seat):
            taken_others = min(len(game.discard), game.rules.pile_take) - 1
            capped = best_take(hand, top, max_cards=len(hand) + taken_others - 2)
            if capped:
                yield _take_action(capped)


def _take_action(take: Take) -> Action:
    _, pickup, groups = take
    return {"type": "take_pile", "cards": pickup, "groups": [{"cards": g} for g in groups]}


def can_take_pile(game: Game, seat: str, matching: list[str]) -> bool:
    return any(game.check(seat, a)["ok"] for a in take_pile_candidates(game, seat, matching))


def take_choice(game: Game, seat: str) -> dict[str, Any]:
    """A take of the discard pile that works now, for Take pile pressed with nothing selected:
    {"ok": True, "action", "points"}: the first of `take_pile_candidates` that `check` accepts (the
    pair, or before the team is down the pair with the groups that reach the minimum, R40); else
    {"ok": False, code, message, rule, params}: why none works. A team not down whose cards cannot
    reach the minimum with the top card gets `take_cannot_reach_minimum` (R37, R40)."""
    matching = pile_cards(game, seat) if seat in TEAM_OF and seat == game.turn else []
    refused: dict[str, Any] | None = None
    for action in take_pile_candidates(game, seat, matching):
        checked = game.check(seat, action)
        if checked["ok"]:
            return {"ok": True, "action": action, "points": checked.get("points", 0)}
        refused = refused or dict(checked)
    answer = refused or dict(game.check(seat, {"type": "take_pile", "cards": matching[:2]}))
    if answer.get("code") == "below_first_meld_minimum":  # even the best first lay-down with the top falls short
        error = RuleError("take_cannot_reach_minimum", "R40", top=game.discard[-1], minimum=game.first_meld_minimum())
        return {"ok": False, **error.as_dict()}
    return answer


def additions(game: Game, seat: str) -> dict[str, list[str]]:
    """For each incomplete team meld, the distinct cards of the seat that could be added one at a time.

    This is `check` of each one-card addition, computed with the planner's own steps but without
    a `check` per card (views are computed on every move): for a team that is down, planning an
    addition of a held card to an incomplete meld can refuse only in `addition_problem` (which
    judges an added card by its kind alone: a three or a natural of another rank never joins,
    R17, R21) and in R47's test, which only applies in the foot with at most two cards; there
    `check` itself is asked. tests/engine/test_options.py compares the answer with `check`.
    """
    team = TEAM_OF[seat]
    found: dict[str, list[str]] = {}
    if not game.down[team]:
        return found
    hand = game.hands[seat]
    distinct = sorted(set(hand))
    keeps_cards_left = not game.in_foot(seat) or len(hand) > 2  # R47 cannot refuse
    for meld in game.melds[team]:
        if len(meld) >= PILE_SIZE:
            continue
        rank = meld_rank(meld)  # `check` adds to this meld: the only incomplete one of its rank (R20)
        verdicts: dict[str, bool] = {}
        fits = []
        for card in distinct:
            kind = MELD_KIND[card]
            if kind != rank and kind != "W":
                continue
            if kind not in verdicts:
                verdicts[kind] = addition_problem(meld, rank, (card,)) is None and (
                    keeps_cards_left
                    or game.check(seat, {"type": "meld", "groups": [{"cards": [card], "to": rank}]})["ok"]
                )
            if verdicts[kind]:
                fits.append(card)
        if fits:
            found[rank] = fits
    return found


__all__ = ["RuleError", "matches_top", "options_for", "take_choice", "take_pile_candidates"]
