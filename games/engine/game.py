"""The game: state, the actions and everything that happens automatically (R9–R56, V7's undo).

`Game.apply(seat, action)` first *plans* an action (every check, on copies, raising RuleError)
and only then *commits* it, so a refused action never touches the state and `check` is just the
planning step. Automatic steps (red threes, foot pick-ups, end of a deal, the next deal) happen
inside the commit and are reported as events.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from games.engine.cards import (
    ALL_CARDS,
    JOKER,
    RED_THREES,
    check_card,
    is_natural,
    is_three,
    is_wild,
    points,
)
from games.engine.deal import deal_cards, shuffled_deck
from games.engine.errors import RuleError
from games.engine.melds import (
    MELD_KIND,
    PILE_SIZE,
    WILD,
    addition_problem,
    meld_problem,
    meld_rank,
    pile_kind,
)
from games.engine.notation import game_from_position, position_of
from games.engine.options import options_for, take_choice
from games.engine.records import Action, Check, DealScore, Event, Options, Position, Scores, View
from games.engine.rules import STANDARD, Rules
from games.engine.scoring import count_piles, team_deal_score, totals
from games.engine.scoring import winner as game_winner
from games.engine.seats import (
    NEXT_SEAT,
    PARTNER,
    SEATS,
    TEAM_OF,
    TEAM_SEATS,
    TEAMS,
)
from games.engine.takeback import UndoPoint, restore, undo_point
from games.engine.visibility import public_view, seat_view

ACTION_TYPES = ("draw", "take_pile", "meld", "discard", "undo")
_PHASE_OF = {"draw": "draw", "take_pile": "draw", "meld": "play", "discard": "play", "undo": "play"}
MELD_RANKS = frozenset("456789TJQKA") | {WILD}


class _DealOver(Exception):
    """Raised inside a commit when the deal ended; the rest of the action does not happen (R52)."""


class _Plan:
    """What a checked action will do: the cards it uses and the team's melds afterwards."""

    __slots__ = ("goes_out", "groups", "laid_points", "melds", "taken", "used")
    used: list[str]
    melds: list[list[str]] | None  # the team's melds after a meld or a take; None for the others
    laid_points: int
    groups: list[tuple[list[str], int]]  # (cards, meld index) per group, for the events
    goes_out: bool
    taken: list[str]  # set by a take, the only action that has it

    def __init__(self, used: list[str], melds: list[list[str]] | None = None) -> None:
        self.used = used
        self.melds = melds
        self.laid_points = 0
        self.groups = []
        self.goes_out = False


class Game:
    """A game of Foot Canasta: four seats, its rules' deals (the surface: docs/ENGINE.md)."""

    __slots__ = (
        "deal",
        "deal_scores",
        "dealer",
        "discard",
        "down",
        "feet",
        "hands",
        "melds",
        "phase",
        "ply",
        "red_threes",
        "rules",
        "seed",
        "stock",
        "turn",
        "undo_points",
    )

    def __init__(self, rules: Rules = STANDARD) -> None:
        self.rules = rules  # fixed for the whole game (V1–V7)
        self.seed: int | str = 0
        self.deal = 1
        self.dealer = "E"
        self.turn: str | None = "S"
        self.phase = "draw"
        self.hands: dict[str, list[str]] = {s: [] for s in SEATS}
        self.feet: dict[str, list[str] | None] = {s: [] for s in SEATS}
        self.stock: list[str] = []  # top of the stock is the LAST element (pop() draws)
        self.discard: list[str] = []  # bottom to top
        self.melds: dict[str, list[list[str]]] = {t: [] for t in TEAMS}
        self.red_threes: dict[str, list[str]] = {t: [] for t in TEAMS}
        self.down = dict.fromkeys(TEAMS, False)
        self.deal_scores: list[DealScore] = []
        self.ply = 0
        # V7: where an undo may go back to this turn, oldest first (games/engine/takeback.py)
        self.undo_points: list[UndoPoint] = []

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, seed: int | str | None = None, events: list[Event] | None = None, rules: Rules = STANDARD) -> Game:
        """A fresh game with deal 1 dealt (R8–R13, R57) under `rules`. No seed: a random one (R58).
        `events`, if given, receives the dealing's events (deal_start, the dealt red threes laid)."""
        if seed is None:
            seed = secrets.randbits(63)
        game = cls(rules)
        game.seed = seed
        game._start_deal(1, events if events is not None else [])
        return game

    @classmethod
    def at_deal(cls, seed: int | str, deal: int, rules: Rules = STANDARD) -> Game:
        """The cards of deal `deal` of the game of `seed` just dealt (R8–R13, R57), without
        the earlier deals' scores: what a replay of that game must meet when the deal starts."""
        if not 1 <= deal <= rules.deals:
            raise ValueError(f"a game has deals 1 to {rules.deals}, not {deal}")
        game = cls(rules)
        game.seed = seed
        game._start_deal(deal, [])
        return game

    @classmethod
    def from_position(cls, position: object) -> Game:
        """The game `position` describes; RuleError("invalid_position") for anything else."""
        return game_from_position(cls(), position)

    def to_position(self) -> Position:
        return position_of(self)

    # ------------------------------------------------------------------ public surface
    def apply(self, seat: str, action: Action) -> list[Event]:
        """Apply one action of `seat`; returns its events; raises RuleError and changes nothing."""
        kind, plan = self._plan(seat, action)
        events: list[Event] = []
        point = undo_point(self, seat) if kind == "meld" and self.rules.undo else None
        foot = self.feet[seat]
        with contextlib.suppress(_DealOver):  # the deal ended inside the commit; the events say so
            _COMMITS[kind](self, seat, action, plan, events)
        self.ply += 1
        if point is not None and self.phase == "play" and self.feet[seat] is foot:
            self.undo_points.append(point)  # V7: still this turn's melds, and no foot picked up
        return events

    def check(self, seat: str, action: Action) -> Check:
        """A dry run: {"ok": True, "points": n} or {"ok": False, code, message, rule, params}."""
        try:
            _, plan = self._plan(seat, action)
        except RuleError as error:
            return {
                "ok": False,
                "code": error.code,
                "message": error.message,
                "rule": error.rule,
                "params": error.params,
            }
        return {"ok": True, "points": plan.laid_points}

    def options(self, seat: str) -> Options:
        return options_for(self, seat)

    def take_choice(self, seat: str) -> dict[str, Any]:
        """A take of the pile that works now, or why none does (options.take_choice)."""
        return take_choice(self, seat)

    def view(self, seat: str, public: View | None = None) -> View:
        """The seat's view; `public`: this game's public view at this moment, if the caller has
        it (its parts are shared with the seat's view, not built again)."""
        return seat_view(self, seat, public)

    def public_view(self) -> View:
        return public_view(self)

    def scores(self) -> Scores:
        return {"deals": [dict(d) for d in self.deal_scores], "totals": totals(self.deal_scores)}

    @property
    def winner(self) -> str | None:
        return game_winner(self.deal_scores) if self.phase == "over" else None

    # ------------------------------------------------------------------ facts used by several rules
    def in_foot(self, seat: str) -> bool:
        return self.feet[seat] is None

    def first_meld_minimum(self) -> int:
        return self.rules.first_meld_minimum(self.deal)

    def incomplete_meld_index(self, melds: Sequence[Sequence[str]], rank: str) -> int | None:
        """R20: the team has at most one incomplete meld of a rank."""
        for i, meld in enumerate(melds):
            if len(meld) < PILE_SIZE:
                first = MELD_KIND[meld[0]]  # a meld's first card is nearly always a natural
                if (first if first != "W" else meld_rank(meld)) == rank:
                    return i
        return None

    def may_go_out(self, seat: str, melds: Sequence[Sequence[str]] | None = None) -> bool:
        """R49 (a)–(c) with the team's melds as they would be (default: as they are)."""
        if not self.in_foot(seat) or not self.in_foot(PARTNER[seat]):
            return False
        piles = count_piles(self.melds[TEAM_OF[seat]] if melds is None else melds)
        return all(piles[kind] >= need for kind, need in self.rules.going_out_piles)

    # ------------------------------------------------------------------ planning (all checks)
    def _plan(self, seat: object, action: object) -> tuple[str, _Plan]:
        if not isinstance(seat, str) or seat not in SEATS:
            raise RuleError("bad_seat", "R5", seat=str(seat)[:10])
        if not isinstance(action, dict):
            raise RuleError("bad_action", None)
        kind = action.get("type")
        if kind not in ACTION_TYPES:
            raise RuleError("unknown_action", None, type=str(kind)[:30])
        if self.phase == "over":
            raise RuleError("game_over", "R55a")
        if seat != self.turn:
            raise RuleError("not_your_turn", "R24", turn=self.turn)
        if self.phase != _PHASE_OF[kind]:  # R26: draw first, then meld and discard
            raise RuleError("already_drew" if _PHASE_OF[kind] == "draw" else "must_draw_first", "R26")
        return kind, _PLANS[kind](self, seat, action)

    def _plan_draw(self, seat: str, action: Action) -> _Plan:
        return _DRAW_PLAN

    def _plan_undo(self, seat: str, action: Action) -> _Plan:
        """V7: only at a table that allows it, and only melds of this turn since the draw, the
        take or a foot picked up (takeback.py)."""
        if not self.rules.undo:
            raise RuleError("undo_not_allowed", "V7")
        if not self.undo_points:
            raise RuleError("nothing_to_undo", "V7")
        return _Plan([])

    def _plan_discard(self, seat: str, action: Action) -> _Plan:
        card = _card_field(action, "card")
        hand = self.hands[seat]
        if card not in hand:
            raise RuleError("card_not_held", "R25", card=card)
        plan = _Plan([card])
        if self.feet[seat] is None and len(hand) == 1:  # R47, R48: only as going out
            if not self.may_go_out(seat):
                raise RuleError("cannot_go_out", "R49", **self._going_out_gap(seat))
            plan.goes_out = True
        return plan

    def _plan_meld(self, seat: str, action: Action) -> _Plan:
        groups = _groups_field(action)
        team = TEAM_OF[seat]
        held = list(self.hands[seat])
        melds = list(self.melds[team])  # copy-on-write: a changed meld is replaced, never mutated
        plan = _Plan([], melds)
        for group in groups:
            cards = _take_cards(held, _cards_of(group))
            target = group.get("to")
            if target is not None:
                index = self._plan_addition(melds, target, cards)
            else:
                index = self._plan_new_meld(melds, cards)
            plan.used += cards
            plan.groups.append((cards, index))
        plan.laid_points = points(plan.used)
        if not self.down[team]:
            self._check_first_meld(plan.laid_points, "meld")
        if self.feet[seat] is None:
            self._check_cards_left(seat, plan, len(held))
        return plan

    def _plan_addition(self, melds: list[list[str]], target: object, cards: list[str]) -> int:
        if not isinstance(target, str) or target not in MELD_RANKS:
            raise RuleError("bad_rank", "R21", rank=str(target)[:10])
        index = self.incomplete_meld_index(melds, target)
        if index is None:
            if any(meld_rank(m) == target for m in melds):  # only complete piles of that rank
                raise RuleError("pile_complete", "R19")
            raise RuleError("no_such_meld", "R21", rank=target)
        problem = addition_problem(melds[index], target, cards)
        if problem:
            raise problem
        melds[index] = melds[index] + cards
        return index

    def _plan_new_meld(self, melds: list[list[str]], cards: list[str]) -> int:
        problem = meld_problem(cards)
        if problem:
            raise problem
        rank = meld_rank(cards)
        if self.incomplete_meld_index(melds, rank) is not None:  # R20
            raise RuleError("duplicate_incomplete_meld", "R20", rank=rank)
        melds.append(list(cards))
        return len(melds) - 1

    def _check_first_meld(self, laid_points: int, kind: str) -> None:
        """R37–R40: until the team is down (callers ask), one action must reach the minimum on its own.
        The refusal says how much is missing and whether it was a take (`action`), so that it can say
        what to do next (games/messages.py)."""
        minimum = self.first_meld_minimum()
        if laid_points < minimum:
            raise RuleError(
                "below_first_meld_minimum",
                "R37",
                minimum=minimum,
                points=laid_points,
                missing=minimum - laid_points,
                action=kind,
            )

    def _check_cards_left(self, seat: str, plan: _Plan, left: int) -> None:
        """R47: in the foot (callers ask), keep two cards unless going out is allowed (R49)."""
        if left >= 2:
            return
        if self.may_go_out(seat, plan.melds):
            plan.goes_out = left == 0
            return
        if left == 1:
            raise RuleError("must_keep_cards", "R47")
        raise RuleError("cannot_go_out", "R49", **self._going_out_gap(seat, plan.melds))

    def _going_out_gap(self, seat: str, melds: Sequence[Sequence[str]] | None = None) -> dict[str, object]:
        """R49's params: the English `reason`, and for each pile kind how many the team still needs
        (`clean`, `dirty`, `wild`) and whether the partner is in the foot, for the translated text;
        under house rules (V4) also how many of each the table asks for (`required_clean`, …)."""
        piles = count_piles(self.melds[TEAM_OF[seat]] if melds is None else melds)
        needs = {kind: max(0, need - piles[kind]) for kind, need in self.rules.going_out_piles}
        partner = self.in_foot(PARTNER[seat])
        if not partner:
            reason = "your partner has not picked up their foot"
        else:
            missing = [f"{n} {kind}" for kind, n in needs.items() if n]
            reason = "your team still needs " + ", ".join(missing) + " pile(s)"
        gap: dict[str, object] = {"reason": reason, **needs, "partner_in_foot": partner}
        if self.rules.going_out_piles != STANDARD.going_out_piles:  # V4: the text then says the table's numbers
            gap.update({f"required_{kind}": need for kind, need in self.rules.going_out_piles})
        return gap

    def _plan_take_pile(self, seat: str, action: Action) -> _Plan:
        if not self.discard:
            raise RuleError("pile_empty", "R28")
        top = self.discard[-1]
        if is_three(top):
            raise RuleError("pile_top_is_three", "R29")
        named = _card_list_field(action, "cards")
        groups = action.get("groups", [])
        if not isinstance(groups, list) or any(not isinstance(g, dict) or "to" in g for g in groups):
            raise RuleError("bad_field", "R30", field="groups")
        held = list(self.hands[seat])
        named = _take_cards(held, named)
        ordered = _pickup_order(top, named)
        team = TEAM_OF[seat]
        melds = list(self.melds[team])
        plan = _Plan([], melds)
        plan.groups.append(([top] + ordered[1:], self._place_pickup(melds, ordered)))
        for group in groups:
            cards = _take_cards(held, _cards_of(group))
            plan.groups.append((cards, self._plan_new_meld(melds, cards)))
            plan.used += cards
        plan.used = named + plan.used
        plan.taken = self.discard[-self.rules.pile_take :]
        plan.laid_points = points(ordered) + points(plan.used[len(named) :])
        if not self.down[team]:
            self._check_first_meld(plan.laid_points, "take_pile")
        if self.feet[seat] is None:
            self._check_cards_left(seat, plan, len(held) + len(plan.taken) - 1)
        return plan

    def _place_pickup(self, melds: list[list[str]], ordered: list[str]) -> int:
        """R30: onto the team's incomplete meld of the rank up to 7 cards, the rest as a new meld."""
        rank = meld_rank(ordered)
        index = self.incomplete_meld_index(melds, rank)
        if index is None:
            return self._plan_new_meld(melds, ordered)
        room = PILE_SIZE - len(melds[index])
        # `addition_problem` could not refuse this: the cards are of the meld's rank (or all wild
        # onto the wild meld), at most `room` of them, and wild cards come after the top and at
        # least two naturals, so they join a meld of three at most one at a time (3:1 or 4:2).
        melds[index] = melds[index] + ordered[:room]
        if ordered[room:]:
            return self._plan_new_meld(melds, ordered[room:])
        return index

    # ------------------------------------------------------------------ commits (state changes)
    def _commit_draw(self, seat: str, action: Action, plan: _Plan, events: list[Event]) -> None:
        stock = self.stock
        if len(stock) >= 2 and stock[-1] not in RED_THREES and stock[-2] not in RED_THREES:
            # the common case, as _draw_card would do it: two cards, one event, nothing to lay
            cards = [stock.pop(), stock.pop()]
            self.hands[seat] += cards
            events.append({"type": "draw", "seat": seat, "count": 2, "cards": cards})
            self.phase = "play"
            return
        if not stock:  # R53 (i): the draw on an empty stock ends the deal
            self._end_deal("stock", None, events)
        for _ in range(2):
            if not self.stock:  # R53 (ii)
                break
            self._draw_card(seat, events)
        self.phase = "play"

    def _commit_discard(self, seat: str, action: Action, plan: _Plan, events: list[Event]) -> None:
        card = plan.used[0]
        self.hands[seat].remove(card)
        self.discard.append(card)
        events.append({"type": "discard", "seat": seat, "card": card})
        if self.undo_points:  # V7: a discard ends what an undo may take back
            self.undo_points = []
        if plan.goes_out:
            self._go_out(seat, events)
        self._pass_turn(seat, events)

    def _commit_undo(self, seat: str, action: Action, plan: _Plan, events: list[Event]) -> None:
        events.append(restore(self, seat, self.undo_points.pop()))

    def _commit_take_pile(self, seat: str, action: Action, plan: _Plan, events: list[Event]) -> None:
        taken = plan.taken
        del self.discard[-len(taken) :]
        events.append({"type": "take_pile", "seat": seat, "count": len(taken), "top": taken[-1], "cards": list(taken)})
        self.hands[seat].extend(taken[:-1])  # R31: the rest of the cards taken join the active cards
        self.phase = "play"
        self._commit_meld(seat, action, plan, events)
        self._lay_red_threes(seat, events)  # R33

    def _commit_meld(self, seat: str, action: Action, plan: _Plan, events: list[Event]) -> None:
        """Lay the planned groups (a meld, or the melds of a take)."""
        team = TEAM_OF[seat]
        hand = self.hands[seat]
        for card in plan.used:
            hand.remove(card)
        assert plan.melds is not None, "a meld's or a take's plan holds the team's melds"
        self.melds[team] = plan.melds
        self.down[team] = True
        events.append(
            {
                "type": "meld",
                "seat": seat,
                "team": team,
                "groups": [{"cards": list(c), "meld": str(i)} for c, i in plan.groups],
            }
        )
        if plan.goes_out:
            self._go_out(seat, events)
        foot = self.feet[seat]
        if not hand and foot is not None:  # R44: into the foot at once
            self._pick_up_foot(seat, foot, events)

    def _draw_card(self, seat: str, events: list[Event]) -> None:
        """One card from the stock; a red three is laid and replaced at once (R27, R34)."""
        card = self.stock.pop()
        self.hands[seat].append(card)
        last = events[-1] if events else None
        if last and last["type"] == "draw" and last["seat"] == seat and "replacement" not in last:
            last["count"] += 1  # 'West drew 2 cards' is one event
            last["cards"].append(card)
        else:
            events.append({"type": "draw", "seat": seat, "count": 1, "cards": [card]})
        if card in RED_THREES:
            self._lay_red_threes(seat, events)

    def _lay_red_threes(self, seat: str, events: list[Event]) -> None:
        """R34, R53 (iii): lay every red three of the active cards, replace each from the stock."""
        hand = self.hands[seat]
        while True:
            card = next((c for c in hand if c in RED_THREES), None)
            if card is None:
                return
            hand.remove(card)
            self.red_threes[TEAM_OF[seat]].append(card)
            events.append({"type": "red_three", "seat": seat, "card": card})
            if not self.stock:
                # R53 (iii): laid, and the deal ends; the other red threes of a foot just picked
                # up are laid too (R45: every red three in it is laid), none stays among the cards.
                for other in [c for c in hand if c in RED_THREES]:
                    hand.remove(other)
                    self.red_threes[TEAM_OF[seat]].append(other)
                    events.append({"type": "red_three", "seat": seat, "card": other})
                self._end_deal("stock", None, events)
            replacement = self.stock.pop()
            hand.append(replacement)
            events.append({"type": "draw", "seat": seat, "count": 1, "cards": [replacement], "replacement": True})

    def _pick_up_foot(self, seat: str, foot: list[str], events: list[Event]) -> None:
        """R44–R46: the foot becomes the active cards; its red threes are laid and replaced."""
        self.hands[seat] = foot
        self.feet[seat] = None
        self.undo_points = []  # V7: never back past a foot's cards seen
        events.append({"type": "foot", "seat": seat, "count": len(self.hands[seat])})
        self._lay_red_threes(seat, events)

    def _pass_turn(self, seat: str, events: list[Event]) -> None:
        """R25: from `seat` to the next seat clockwise; an empty hand picks up its foot as the turn passes."""
        turn = self.turn = NEXT_SEAT[seat]
        self.phase = "draw"
        events.append({"type": "turn", "seat": turn})
        foot = self.feet[turn]
        if not self.hands[turn] and foot is not None:
            self._pick_up_foot(turn, foot, events)

    def _go_out(self, seat: str, events: list[Event]) -> NoReturn:
        events.append({"type": "go_out", "seat": seat, "team": TEAM_OF[seat]})
        self._end_deal("out", TEAM_OF[seat], events)

    # ------------------------------------------------------------------ deals
    def _end_deal(self, reason: str, went_out_team: str | None, events: list[Event]) -> NoReturn:
        """R51–R55a: score the deal, then deal the next one or end the game. Always raises _DealOver."""
        score = {team: self._team_score(team, went_out_team == team) for team in TEAMS}
        self.deal_scores.append(score)
        from games.engine.visibility import deal_table

        events.append(
            {"type": "deal_end", "deal": self.deal, "reason": reason, "score": score, "table": deal_table(self)}
        )
        if self.deal < self.rules.deals:
            self._start_deal(self.deal + 1, events)
        else:
            self.phase = "over"
            self.turn = None
            events.append({"type": "game_over", "totals": self.scores()["totals"], "winner": self.winner})
        raise _DealOver

    def _team_score(self, team: str, went_out: bool) -> dict[str, int]:
        held: list[str] = []
        for seat in TEAM_SEATS[team]:
            held += self.hands[seat]
            held += self.feet[seat] or []
        return team_deal_score(self.melds[team], held, len(self.red_threes[team]), went_out, self.rules.red_three_value)

    def _start_deal(self, deal: int, events: list[Event]) -> None:
        dealt = deal_cards(shuffled_deck(self.seed, deal), deal, self.rules.hand_size)
        self.deal, self.dealer = deal, dealt.dealer
        self.hands = {s: list(dealt.hands[s]) for s in SEATS}
        self.feet = {s: list(dealt.feet[s]) for s in SEATS}
        self.stock = list(reversed(dealt.stock_top_first))
        self.discard = [dealt.upcard]
        self.melds = {t: [] for t in TEAMS}
        self.red_threes = {t: [] for t in TEAMS}
        self.down = dict.fromkeys(TEAMS, False)
        self.undo_points = []
        seat = self.turn = NEXT_SEAT[self.dealer]
        self.phase = "draw"
        events.append({"type": "deal_start", "deal": deal, "dealer": self.dealer, "turn": seat, "upcard": dealt.upcard})
        for _ in SEATS:  # R13: dealt red threes, in turn order from the first player
            self._lay_red_threes(seat, events)
            seat = NEXT_SEAT[seat]


_DRAW_PLAN = _Plan([])  # a draw needs no planning; its plan is never changed
_PLANS: dict[str, Callable[[Game, str, Action], _Plan]] = {
    kind: getattr(Game, "_plan_" + kind) for kind in ACTION_TYPES
}
_COMMITS: dict[str, Callable[[Game, str, Action, _Plan, list[Event]], None]] = {
    kind: getattr(Game, "_commit_" + kind) for kind in ACTION_TYPES
}


# ---------------------------------------------------------------------- field parsing
def _card_field(action: dict[str, Any], name: str) -> str:
    if name not in action:
        raise RuleError("missing_field", None, field=name)
    return check_card(action[name])


def _card_list_field(action: dict[str, Any], name: str) -> list[str]:
    if name not in action:
        raise RuleError("missing_field", None, field=name)
    value = action[name]
    if not isinstance(value, list) or len(value) > 30:
        raise RuleError("bad_field", None, field=name)
    for card in value:
        if card.__class__ is not str or card not in ALL_CARDS:
            check_card(card)  # raises bad_card with the name
    return list(value)


def _groups_field(action: Action) -> list[dict[str, Any]]:
    if "groups" not in action:
        raise RuleError("missing_field", None, field="groups")
    groups = action["groups"]
    if not isinstance(groups, list) or not groups or len(groups) > 30:
        raise RuleError("bad_field", None, field="groups")
    for group in groups:
        if not isinstance(group, dict):
            raise RuleError("bad_field", None, field="groups")
    return groups


def _cards_of(group: dict[str, Any]) -> list[str]:
    cards = _card_list_field(group, "cards")
    if not cards:
        raise RuleError("empty_group", "R15")
    return cards


def _take_cards(held: list[str], cards: list[str]) -> list[str]:
    """Remove `cards` from `held` (a copy of the seat's cards), refusing a card it does not hold (R24)."""
    for card in cards:
        try:
            held.remove(card)
        except ValueError:
            raise RuleError("card_not_held", "R24", card=card) from None
    return cards


def _pickup_order(top: str, named: list[str]) -> list[str]:
    """R29 (b), R30: check the named cards and order them top, naturals, then wild cards."""
    if is_wild(top):
        matching = [c for c in named if c == top or (top != JOKER and c != JOKER and is_wild(c))]
        for card in named:
            if not is_wild(card):
                raise RuleError("card_does_not_match", "R30", card=card, top=top)
        if len(matching) < 2:
            raise RuleError("no_matching_pair", "R29", top=top)
        return [top] + named
    rank = top[0]
    naturals = [c for c in named if is_natural(c) and c[0] == rank]
    for card in named:
        if not is_wild(card) and not (is_natural(card) and card[0] == rank):
            raise RuleError("card_does_not_match", "R30", card=card, top=top)
    if len(naturals) < 2:
        raise RuleError("no_matching_pair", "R29", top=top)
    return [top] + naturals + [c for c in named if is_wild(c)]


__all__ = ["Game", "pile_kind"]
