"""The normal bot: a strong heuristic partner, cheap enough to play every decision of every seat
(its CPU budget and measured times: docs/BOTS.md).

What it does, by phase (sections of docs/RULES.md in brackets):
- draw [§6]: take the discard pile whenever the take is legal and brings at least two cards, or
  grows a team meld, or gets the team down; otherwise draw two.
- meld [§4, §8–§10]: go down as soon as the minimum is reached; put every natural on the team's
  melds; start melds from three of a rank; keep pairs in the hand (they take the pile); save wild
  cards for the wild pile while the team needs one, else use them to finish dirty piles, never
  dirtying a meld that the team needs clean; empty the hand into melds when that reaches the
  foot; in the foot keep two cards (R47) unless going out, and go out only when it pays.
- discard [§5, §7]: the card that costs least to lose plus the expected gift to the next
  opponent (the chance that they hold a pair of it, R29b, times what the pile is worth), so a
  black three goes on a big pile and a rank the opponents collect is kept back.

`decide(view, check)` is the whole policy; `check(action) -> bool` is a dry run of the engine
(`game.check`), so the policy only ever returns actions the engine accepts. `explain(view, check)`
is the same decision with its reason (games.bots.reasons), made by the step that chose the action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import cast

from games.bots.base import Check
from games.bots.cards import WILD, deals_in_game, is_black_three, is_natural, is_wild, points, total_points
from games.bots.evaluation import view_deal_estimate
from games.bots.plan import MeldPlan, ratio_ok
from games.bots.reasons import Reason, reason
from games.bots.situation import Situation, analyse, match_key, needs_after
from games.engine.records import Action, View

DRAW: Action = {"type": "draw"}
Decision = tuple[Action | None, Reason | None]
PILE_ORDER = ("wild", "clean", "dirty")  # the pile a meld reason names when it completes several


def decide(view: View, check: Check) -> Action | None:
    """The normal bot's action for this view, or None if it finds no legal one."""
    return explain(view, check)[0]


def explain(view: View, check: Check) -> Decision:
    """The normal bot's action for this view and why, or (None, None) if it finds no legal one."""
    situation = analyse(view)
    if view["phase"] == "draw":
        return explained_draw(situation, check)
    action, why = explained_meld(situation, check)
    if action is not None:
        return action, why
    return explained_discard(situation, check)


# --- draw or take ---------------------------------------------------------------------------


def draw_decision(situation: Situation, check: Check) -> Action:
    return explained_draw(situation, check)[0]


def explained_draw(situation: Situation, check: Check) -> tuple[Action, Reason]:
    if situation.options.get("take_pile"):
        for take in take_candidates(situation):
            if take_is_worth(situation, take) and check(take):
                return take, take_reason(situation)
    if situation.top is not None and is_black_three(situation.top):
        return dict(DRAW), reason("draw_pile_blocked")
    return dict(DRAW), reason("draw_stock")


def take_reason(situation: Situation) -> Reason:
    """Why the pile is taken, in the terms of `take_is_worth`: the first meld, a team meld, its size."""
    top = situation.discard[-1]
    rank = top[0] if is_natural(top) else WILD
    cards = min(7, len(situation.discard))  # the cards the take brings (R29)
    if not situation.down:
        return reason("take_first_meld", cards=cards, rank=rank)
    if rank in situation.incomplete:
        return reason("take_grow_meld", cards=cards, rank=rank)
    return reason("take_pile", cards=cards, rank=rank)


def take_candidates(situation: Situation) -> list[Action]:
    """Ways to take the discard pile (R29, R30, R40), the most cards melded first."""
    top = situation.top
    if top is None or top[0] == "3":
        return []
    if is_natural(top):
        matching = list(situation.naturals.get(top[0], []))
    else:
        matching = [c for c in situation.wilds if match_key(c) == match_key(top)]
    if len(matching) < 2:
        return []
    pair, extras = matching[:2], matching[2:]
    spare_wild = [c for c in situation.wilds if c not in pair][:1] if is_natural(top) else []
    variants = [pair + extras, pair + extras + spare_wild, pair]
    taken_to_hand = min(7, len(situation.discard)) - 1
    candidates: list[Action] = []
    for variant in variants:
        cards = _keep_two_after_take(situation, variant, taken_to_hand)
        if cards is None:
            continue
        action: Action = {"type": "take_pile", "cards": cards}
        if not situation.down:
            pickup_points = points(top) + total_points(cards)
            rest = situation.hand.copy()
            rest.subtract(cards)
            groups = first_meld_groups(
                +rest, situation.minimum - pickup_points, exclude=WILD if not is_natural(top) else top[0]
            )
            if groups is None:
                continue
            if groups:
                action["groups"] = [{"cards": g} for g in groups]
        if action not in candidates:
            candidates.append(action)
    return candidates


def _keep_two_after_take(situation: Situation, cards: list[str], taken_to_hand: int) -> list[str] | None:
    """R47: in the foot, a take must leave at least two cards (the pair is the minimum)."""
    if not situation.in_foot:
        return cards
    while len(cards) > 2 and situation.card_count - len(cards) + taken_to_hand < 2:
        cards = cards[:-1]
    if situation.card_count - len(cards) + taken_to_hand < 2:
        return None
    return cards


def take_is_worth(situation: Situation, take: Action) -> bool:
    if min(7, len(situation.discard)) >= 2:
        return True
    top = situation.discard[-1]  # a take is offered only with a pile to take
    rank = top[0] if is_natural(top) else WILD
    return not situation.down or rank in situation.incomplete


def first_meld_groups(hand: Counter[str], need: int, exclude: str | None = None) -> list[list[str]] | None:
    """New melds from `hand` worth at least `need` points (R37–R39), or None if there are none.

    Every natural rank with three or more cards is melded (it empties the hand fastest); wild
    cards are added, to pairs first, only as far as the minimum requires; a wild meld of all the
    wild cards is the last resort.
    """
    by_rank: dict[str, list[str]] = {}
    wilds: list[str] = []
    for card in sorted(hand.elements()):
        if is_wild(card):
            wilds.append(card)
        elif is_natural(card) and card[0] != exclude:
            by_rank.setdefault(card[0], []).append(card)
    wilds.sort(key=lambda c: c != "JK")
    sparing = _first_meld_with(by_rank, list(wilds), need, wild_meld=False)
    if sparing is not None or len(wilds) < 3 or exclude == WILD:
        return sparing
    return _first_meld_with(by_rank, list(wilds), need, wild_meld=True)


def _first_meld_with(
    by_rank: dict[str, list[str]], wilds: list[str], need: int, wild_meld: bool
) -> list[list[str]] | None:
    groups = [cards[:7] for cards in by_rank.values() if len(cards) >= 3]
    if wild_meld:
        groups.append(wilds[:7])
        del wilds[:7]
    total = sum(total_points(g) for g in groups)
    pairs = sorted((cards for cards in by_rank.values() if len(cards) == 2), key=total_points, reverse=True)
    for pair in pairs:
        if total >= need or not wilds:
            break
        group = pair + [wilds.pop(0)]
        groups.append(group)
        total += total_points(group)
    for group in groups:
        while (
            total < need
            and wilds
            and len(group) < 7
            and ratio_ok(group + wilds[:1])
            and any(is_natural(c) for c in group)
        ):
            total += points(wilds[0])
            group.append(wilds.pop(0))
    return groups if total >= need else None


# --- melds ----------------------------------------------------------------------------------


def meld_decision(situation: Situation, check: Check) -> Action | None:
    return explained_meld(situation, check)[0]


def explained_meld(situation: Situation, check: Check) -> Decision:
    if not situation.options.get("meld"):
        return None, None
    for plan, why in explained_meld_plans(situation):
        action = plan.action()
        if action is not None and check(action):
            return action, why(plan)
    return None, None


def meld_plans(situation: Situation) -> Iterator[MeldPlan]:
    """Candidate meld actions, the preferred one first."""
    for plan, _why in explained_meld_plans(situation):
        yield plan


def explained_meld_plans(situation: Situation) -> Iterator[tuple[MeldPlan, Callable[[MeldPlan], Reason]]]:
    """Each candidate meld plan with how to say why it was chosen (asked only of the one played)."""
    keep = 2 if situation.in_foot else 0
    if not situation.down:
        plan = MeldPlan(situation.hand, situation.incomplete, keep)
        groups = first_meld_groups(situation.hand, situation.minimum)
        if groups and sum(len(g) for g in groups) <= plan.budget():
            for group in groups:
                plan.start(group[0][0] if is_natural(group[0]) else _group_rank(group), group)
            yield plan, lambda chosen: reason("first_meld", points=chosen.points, minimum=situation.minimum)
        return
    out = going_out_plan(situation)
    motive = going_out_motive(situation) if out is not None else None
    if out is not None and motive is not None:
        yield out, lambda _chosen: motive
    if not situation.in_foot:
        rush = build_plan(situation, "rush", 0)
        if rush.remaining <= 1:
            yield rush, lambda _chosen: reason("rush_to_foot")
    yield build_plan(situation, "keep", keep), meld_reason
    yield build_plan(situation, "naturals", keep), meld_reason


def meld_reason(plan: MeldPlan) -> Reason:
    """A meld of the play phase: the pile it completes, else the wild pile it feeds, else the melds."""
    for kind in PILE_ORDER:
        if plan.completed[kind]:
            return reason("complete_pile", pile=kind)
    if any(group.get("to") == WILD or _all_wild(group) for group in plan.groups):
        return reason("feed_wild_pile")
    return reason("build_melds")


def _all_wild(group: dict[str, object]) -> bool:
    return all(is_wild(card) for card in cast(list[str], group["cards"]))


def _group_rank(group: list[str]) -> str:
    for card in group:
        if is_natural(card):
            return card[0]
    return WILD


def going_out_plan(situation: Situation) -> MeldPlan | None:
    """A meld that leaves at most one card with the requirement met (R48, R49), if any."""
    if not (situation.in_foot and situation.partner_in_foot):
        return None
    plan = build_plan(situation, "out", 0)
    if plan.remaining > 1 or any(needs_after(situation.needs, plan.completed).values()):
        return None
    return plan


def build_plan(situation: Situation, mode: str, min_keep: int) -> MeldPlan:
    """mode: "naturals" (no wild cards), "keep" (pairs stay in hand), "rush"/"out" (meld all)."""
    prefix = situation.plans.get(min_keep)
    if prefix is None:
        # every mode starts with the naturals; built once per situation and copied
        prefix = MeldPlan(situation.hand, situation.incomplete, min_keep)
        add_naturals(prefix)
        start_naturals(prefix)
        add_naturals(prefix)
        situation.plans[min_keep] = prefix
    plan = prefix.copy()
    if mode == "naturals":
        return plan
    place_wilds(plan, situation, eager=mode == "out")
    if mode in ("rush", "out"):
        use_everything(plan, situation)
    return plan


def add_naturals(plan: MeldPlan) -> None:
    ranks = sorted((r for r in plan.incomplete if r != WILD), key=lambda r: -len(plan.incomplete[r]))
    for rank in ranks:
        cards = plan.naturals(rank)[: min(plan.room(rank), plan.budget())]
        if cards:
            plan.add(rank, cards)


def start_naturals(plan: MeldPlan) -> None:
    for rank in plan.natural_ranks():
        cards = plan.naturals(rank)
        while len(cards) >= 3 and rank not in plan.incomplete and plan.budget() >= 3:
            if not plan.start(rank, cards[: min(7, plan.budget())]):
                break
            cards = plan.naturals(rank)
        if cards and rank in plan.incomplete:
            plan.add(rank, cards[: min(plan.room(rank), plan.budget())])


def place_wilds(plan: MeldPlan, situation: Situation, eager: bool) -> None:
    """Wild cards go to the wild pile first: it is worth 1500 (R54), about 250 a card, where a
    wild card finishing a dirty pile earns 300 for up to two. Dirty piles are finished with wild
    cards only while the team still needs them to go out (R49b), or as the deal runs out."""
    wild_needed = needs_after(situation.needs, plan.completed)["wild"] > 0
    feed_wild_meld(plan, start_with=3)
    if eager or not wild_needed or situation.view["stock"] <= 24:
        complete_dirty(plan, situation, force=eager or situation.view["stock"] <= 24)


def feed_wild_meld(plan: MeldPlan, start_with: int) -> None:
    wilds = plan.wilds()
    if WILD in plan.incomplete:
        cards = wilds[: min(plan.room(WILD), plan.budget())]
        if cards:
            plan.add(WILD, cards)
    elif len(wilds) >= start_with and plan.budget() >= 3:
        plan.start(WILD, wilds[: min(7, plan.budget())])


def complete_dirty(plan: MeldPlan, situation: Situation, force: bool = False) -> None:
    """Finish natural melds into dirty piles with wild cards, never spoiling a needed clean one."""
    ranks = sorted((r for r in plan.incomplete if r != WILD), key=lambda r: -len(plan.incomplete[r]))
    for rank in ranks:
        meld = plan.incomplete.get(rank)
        wilds = plan.wilds()
        if meld is None or len(meld) < 5:
            continue
        missing = 7 - len(meld)
        if missing > min(len(wilds), plan.wild_room(rank), plan.budget()):
            continue
        already_dirty = any(is_wild(c) for c in meld)
        dirty_needed = needs_after(situation.needs, plan.completed)["dirty"] > 0
        if not (dirty_needed or force):
            continue
        if not already_dirty and not clean_to_spare(plan, situation, rank):
            continue
        plan.add(rank, wilds[:missing])


def clean_to_spare(plan: MeldPlan, situation: Situation, rank: str) -> bool:
    """True when the team has enough other clean piles or clean melds to give this one up."""
    clean_needed = needs_after(situation.needs, plan.completed)["clean"]
    other_clean = sum(
        1
        for r, cards in plan.incomplete.items()
        if r not in (rank, WILD) and len(cards) >= 4 and not any(is_wild(c) for c in cards)
    )
    return other_clean >= clean_needed


def use_everything(plan: MeldPlan, situation: Situation) -> None:
    """Meld all that can be melded: pairs with a wild card, wild cards wherever they fit."""
    for rank in plan.natural_ranks():
        cards = plan.naturals(rank)
        wilds = plan.wilds()
        if rank not in plan.incomplete and len(cards) == 2 and wilds:
            plan.start(rank, cards + wilds[:1])
    feed_wild_meld(plan, start_with=3)
    for rank in sorted(r for r in plan.incomplete if r != WILD):
        wilds = plan.wilds()
        room = min(plan.wild_room(rank), len(wilds), plan.budget())
        if room:
            plan.add(rank, wilds[:room])


# --- going out ------------------------------------------------------------------------------


def wants_to_go_out(situation: Situation) -> bool:
    return going_out_motive(situation) is not None


def going_out_motive(situation: Situation) -> Reason | None:
    """Go out when it pays (R48–R50): when the partner holds little (their cards would count
    against the team), when the stock runs low, or when the opponents are close to going out
    themselves. Otherwise play on: the team's piles are worth more than the going-out bonus.
    In the last deal only the game counts: go out when that wins the game, never when it seals
    a defeat. The motive is the reason going out is chosen for; None: play on."""
    view = situation.view
    if view["deal"] == deals_in_game(view):
        if game_margin_if_out(situation) > 0:
            return reason("go_out_wins_game")
        if view["stock"] > 6:
            return None
    partner_cards = situation.seat_info(situation.partner)["cards"]
    if partner_cards <= 6:
        return reason("go_out_partner_low", cards=partner_cards)
    if view["stock"] <= 20:
        return reason("go_out_stock_low", cards=view["stock"])
    if sum(situation.opponent_needs.values()) <= 1:
        return reason("go_out_opponents_close")
    return None


def deal_margin_if_out(situation: Situation) -> float:
    """Our deal score minus theirs if the seat went out now (R54, hidden cards at average)."""
    view = situation.view
    ours = view_deal_estimate(view, situation.team) + 100
    # the seat's own cards are about to be melded or discarded: they will not count
    ours += sum(points(c) * n for c, n in situation.hand.items())
    return ours - view_deal_estimate(view, situation.opponents)


def game_margin_if_out(situation: Situation) -> float:
    scores = situation.view.get("scores") or {}
    totals: dict[str, int] = scores.get("totals") or {}
    return totals.get(situation.team, 0) - totals.get(situation.opponents, 0) + deal_margin_if_out(situation)


# --- discard --------------------------------------------------------------------------------


def discard_decision(situation: Situation, check: Check) -> Action | None:
    return explained_discard(situation, check)[0]


def explained_discard(situation: Situation, check: Check) -> Decision:
    for card in discard_ranking(situation):
        action = {"type": "discard", "card": card}
        if check(action):
            return action, discard_reason(situation, card)
    return None, None


def discard_reason(situation: Situation, card: str) -> Reason:
    """Why `card` goes: it ends the turn by going out, it is a black three (R36), or it ranked
    first in `discard_ranking`. It names the discarded card's rank only (public once it lies on
    the pile), never what stays in the hand."""
    if situation.in_foot and situation.card_count == 1:
        return reason("go_out_last_card")
    if is_black_three(card):
        return reason("discard_black_three")
    return reason("discard_least_needed", rank=card[0] if is_natural(card) else WILD)


def discard_ranking(situation: Situation) -> list[str]:
    """The seat's distinct cards, the best discard first."""
    return sorted(situation.hand, key=lambda card: (discard_cost(situation, card), card))


def discard_cost(situation: Situation, card: str) -> float:
    return keep_value(situation, card) + gift_value(situation, card)


def keep_value(situation: Situation, card: str) -> float:
    """What losing the card costs the seat's team."""
    pile = min(len(situation.discard), 7)
    late = situation.view["stock"] < 30 or sum(situation.opponent_needs.values()) <= 1
    if is_black_three(card):
        return 12 - 8 * pile  # R36: useless to keep, and it blocks the pile for the next player
    if is_wild(card):
        return 150 + (80 if situation.needs["wild"] else 0)
    rank = card[0]
    held = len(situation.naturals.get(rank, []))
    value: float = {1: 10, 2: 35}.get(held, 55)
    if rank in situation.incomplete:
        value += 25
    if late:
        value -= points(card) / 2  # what stays in hand counts against the team (R54)
    return value


def gift_value(situation: Situation, card: str) -> float:
    """Expected value of the discard pile to the next opponent if `card` is put on top."""
    if is_black_three(card):
        return 0.0
    opponent = situation.seat_info(situation.next_seat)
    held = opponent["cards"] or opponent["foot"]
    chance = pair_chance(situation.unseen_by_rank[match_key(card)], situation.unseen_total, held)
    pile = situation.discard[-6:] + [card]
    worth: float = total_points(pile) + 15 * len(pile)
    rank = card[0] if is_natural(card) else WILD
    if rank in situation.opponent_incomplete:
        worth += 40 + 15 * len(situation.opponent_incomplete[rank])
        chance = min(1.0, chance * 1.3)
    if not situation.opponents_down:
        worth *= 0.5  # they also need the first-meld minimum (R29d)
    return chance * worth


def pair_chance(copies: int, unseen: int, held: int) -> float:
    """Chance that `held` unseen cards hold at least two of `copies` (binomial estimate)."""
    if copies < 2 or held < 2:
        return 0.0
    p = min(1.0, copies / max(unseen, 1))
    q = 1 - p
    return max(0.0, 1 - q**held - held * p * q ** (held - 1))


__all__ = [
    "build_plan",
    "decide",
    "discard_ranking",
    "explain",
    "going_out_plan",
    "meld_plans",
    "take_candidates",
    "wants_to_go_out",
]
