"""Learn to play: the lesson's prepared deals and their steps, each with the condition that says it is done.

The lesson has two parts, the basics and the foot (`DEALS`, `STEPS`); each is a game of mode
"lesson" that starts from `lesson_position(part)` instead of a shuffled deal: South (the
newcomer) plays first; West, North and East are quiet computer seats (games.bots.lesson: draw,
discard the lowest natural, never meld or take). Because the hands and the top of the stock are
fixed, every computer discard is known in advance, so a step can promise "East will throw the
9♥: take the pile with your two 9s".

A step is done when South's own actions and the position say so (`done`), whatever equal cards
South used for it (`equal_kind`: a K♠ serves where the prompt named K♣); the current step is
the first step not yet done, computed on the server from the stored game and sent to the page
(games.rooms.lesson_room); the page only shows it. Each step also names the action a newcomer
following its prompt sends (`example`), so a test walks the whole lesson with the engine
(tests/rooms/test_lesson.py). That example is read in South's cards of the moment
(`in_hand_terms`): the prompt names, and the page highlights, the cards South holds, and the
lesson stays on its path as long as some equal cards can still do the step. docs/ROOMS.md, "The
lesson", says how the deal is made.

Pure Python on the engine: no Django here (the prompts' words are in games.rooms.lesson_room).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, canonical_deck, meld_status, parse_cards
from games.engine.records import Action, Position

LESSON_LEVEL = "lesson"  # the computer seats' bot (games.bots.lesson)
YOU = "S"
TEAM = "NS"
BASICS, FOOT = "basics", "foot"  # the lesson's two parts, each its own prepared deal


@dataclass(frozen=True)
class Deal:
    """A prepared deal: the written-out cards; the feet (where not written out) and the rest of
    the stock come from a fixed shuffle of the remaining cards, so it is the 270 every time."""

    seed: str  # the position's seed: names the part, and seeds deals 2-4 if the deal is played on
    hands: dict[str, str]
    stock_top: str  # the stock's first cards, in drawing order
    upcard: str
    feet: dict[str, str | None] = field(default_factory=dict)  # None: picked up already (R46)
    melds: dict[str, list[str]] = field(default_factory=lambda: {"NS": [], "EW": []})


# Part 1, the basics. South's hand: two groups of 30 (Kings, Queens) that reach the first meld's
# 50 only together (R37-R40: hence Set aside, then Lay down), a fourth King to add (R21), and a
# pair of 9s for the pile East will offer (R29). 9H is East's lowest natural, and East's draws
# are higher: East's first discard. The stock's top: S's, W's, N's and E's first two cards.
BASICS_DEAL = Deal(
    seed="lesson",
    hands={
        "S": "KC KD KH QC QD QH KS 9C 9D 5C 6D 7H 8S",
        "W": "4C 4H 5D 6C 7D 8H TC JC QS AC AS 2C JK",
        "N": "5H 6H 7C 8C TD JS QC AH AD 2D 2H JK TS",
        "E": "9H TH TS JD JH QH AH AS KD KC 2D 2S JK",
    },
    stock_top="JD 6C 7S 8D 6S TC AD KS",
    upcard="4D",
)

# Part 2, the foot and going out: later in a deal. North-South are down with 2 clean piles and 1
# dirty pile (R18), 6 Eights and 6 wild cards; North already plays from the foot (R49c). South
# completes the Eights with 2C (a dirty pile) and the wild meld with JK (the wild pile), melds
# the five 7s (with the two drawn) and so empties the hand: the foot comes up at once (R44), its
# red three is laid and replaced by JC (R45, R34). South throws the foot's black three (R29a),
# and next turn draws QH JD and goes out (R48, R49): seven Queens, six Jacks, discard 5S.
FOOT_DEAL = Deal(
    seed="lesson-foot",
    hands={
        "S": "2C JK 7C 7D 7H",
        "W": "4C 4H 5D 6C 7D 8H TC JC QS AC AS 6D TS",
        "N": "5H 6H 7S 8S TD JS QC AH 4D 5D 6S TH KS",
        "E": "9H TH TS JD JH QH AH AS KD KC 4S 5C 6C",
    },
    stock_top="7S 7C JC 8H 9H 9C 9D TC TD QH JD",
    upcard="6H",
    feet={"S": "3H 3S QC QD QH QS QC QD JC JD JH JS 5S", "N": None},
    melds={
        "NS": [
            "KC KD KH KS KC KD KH",
            "AC AD AH AS AC AD AD",
            "9C 9D 9H 9S 9C 2H JK",
            "8C 8D 8H 8S 8C 8D",
            "2D 2H 2S JK JK 2S",
        ],
        "EW": [],
    },
)
DEALS = {BASICS: BASICS_DEAL, FOOT: FOOT_DEAL}


def lesson_position(part: str = BASICS) -> Position:
    """A part's deal: deal 1, dealer E, South to draw, the written-out cards of its Deal."""
    deal = DEALS[part]
    rest = Counter(canonical_deck())
    written = [
        *parse_cards(" ".join(deal.hands.values())),
        deal.upcard,
        *parse_cards(deal.stock_top),
        *parse_cards(" ".join(f for f in deal.feet.values() if f)),
        *parse_cards(" ".join(m for team in deal.melds.values() for m in team)),
    ]
    rest.subtract(written)
    if min(rest.values()) < 0:
        raise ValueError("the lesson's written-out cards use a card more often than five decks hold")
    remaining = sorted(rest.elements())
    random.Random(deal.seed).shuffle(remaining)
    feet: dict[str, str | None] = {}
    for seat in "SWNE":
        if seat in deal.feet:
            feet[seat] = deal.feet[seat]
        else:
            feet[seat], remaining = " ".join(remaining[:13]), remaining[13:]
    return {
        "seed": deal.seed,
        "deal": 1,
        "dealer": "E",
        "turn": YOU,
        "phase": "draw",
        "hands": dict(deal.hands),
        "feet": feet,
        "stock": " ".join([*parse_cards(deal.stock_top), *remaining]),
        "discard": deal.upcard,
        "melds": {team: list(melds) for team, melds in deal.melds.items()},
        "red_threes": {"NS": "", "EW": ""},
        "down": {team: bool(melds) for team, melds in deal.melds.items()},
        "scores": [],
        "ply": 0,
    }


def part_of(position: Position | None) -> str:
    """Which part of the lesson a game's position belongs to (by its seed)."""
    seed = (position or {}).get("seed")
    return next((part for part, deal in DEALS.items() if deal.seed == seed), BASICS)


Done = Callable[[Position, list[Action]], bool]


def did(kind: str, adds: bool = False, cards: tuple[str, ...] = ()) -> Done:
    """Done once South has made an action of `kind` (`adds`: a meld adding to a team meld;
    `cards`: a discard of one of these cards)."""

    def done(position: Position, actions: list[Action]) -> bool:
        return any(
            a.get("type") == kind
            and (not adds or any(g.get("to") for g in a.get("groups") or []))
            and (not cards or a.get("card") in cards)
            for a in actions
        )

    return done


def team_down(position: Position, actions: list[Action]) -> bool:
    return bool(position["down"][TEAM])


def piles(kind: str, count: int) -> Done:
    """Done once the team has `count` piles of `kind` (R18: clean, dirty or wild)."""

    def done(position: Position, actions: list[Action]) -> bool:
        return sum(1 for meld in position["melds"][TEAM] if meld_status(meld) == kind) >= count

    return done


def in_foot(position: Position, actions: list[Action]) -> bool:
    return position["feet"][YOU] is None or bool(position["scores"])


def went_out(position: Position, actions: list[Action]) -> bool:
    """The first deal is scored with the team's going-out bonus (R48, R54)."""
    return bool(position["scores"]) and position["scores"][0][TEAM].get("going_out", 0) > 0


def never(position: Position, actions: list[Action]) -> bool:
    return False


def top_is(rank: str) -> Callable[[Position], bool]:
    """On South's turn to draw, the discard pile's top card is of `rank` (the promised throw came)."""

    def now(position: Position) -> bool:
        pile = parse_cards(position.get("discard") or "")
        return position.get("turn") == YOU and position.get("phase") == "draw" and bool(pile) and pile[-1][0] == rank

    return now


@dataclass(frozen=True)
class Step:
    key: str  # names the prompt (games.rooms.lesson_room.PROMPTS)
    done: Done
    # What a newcomer following the prompt sends, in order (the test walks these); the page's
    # Set aside is staging only (R42), so the first meld is one `meld` with both groups.
    example: list[Action] = field(default_factory=list)
    buttons: tuple[str, ...] = ()  # the table's buttons the prompt names (their ids), highlighted
    # Once this holds on South's turn the prompt says what happened (key + "_now"): East's 9 is down.
    now: Callable[[Position], bool] | None = None


def add(cards: list[str], to: str) -> Action:
    return {"type": "meld", "groups": [{"cards": cards, "to": to}]}


# The table's buttons a step's prompt names, by their ids (templates/table.html).
DRAW, TAKE, MELD, DISCARD = "btn-draw", "btn-take", "btn-meld", "btn-discard"
ASIDE, LAY_DOWN = "btn-aside", "btn-laydown"

STEPS = {
    BASICS: [
        Step("draw", did("draw"), [{"type": "draw"}], (DRAW,)),
        Step(
            "first_meld",
            team_down,
            [{"type": "meld", "groups": [{"cards": ["KC", "KD", "KH"]}, {"cards": ["QC", "QD", "QH"]}]}],
            (ASIDE, LAY_DOWN),
        ),
        Step("add", did("meld", adds=True), [add(["KS"], "K")]),
        Step("discard", did("discard"), [{"type": "discard", "card": "5C"}], (DISCARD,)),
        Step("take_pile", did("take_pile"), [{"type": "take_pile", "cards": ["9C", "9D"]}], (TAKE,), top_is("9")),
        Step("finished", never),
    ],
    FOOT: [
        Step("piles", did("draw"), [{"type": "draw"}], (DRAW,)),
        Step("dirty_pile", piles("dirty", 2), [add(["2C"], "8")]),
        Step("wild_pile", piles("wild", 1), [add(["JK"], "wild")]),
        Step("foot", in_foot, [{"type": "meld", "groups": [{"cards": ["7C", "7D", "7H", "7S", "7C"]}]}], (MELD,)),
        Step("black_three", did("discard", cards=("3C", "3S")), [{"type": "discard", "card": "3S"}], (DISCARD,)),
        Step(
            "go_out",
            went_out,
            [
                {"type": "draw"},
                {"type": "meld", "groups": [{"cards": ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]}]},
                {"type": "meld", "groups": [{"cards": ["JC", "JD", "JH", "JS", "JC", "JD"]}]},
                {"type": "discard", "card": "5S"},
            ],
            (DRAW, MELD, DISCARD),
        ),
        Step("finished_foot", never),
    ],
}
NEXT_PART = {BASICS: FOOT}  # the part the end of a part offers, besides a real game


def current_step(part: str, position: Position, actions: list[Action]) -> tuple[int, Step]:
    """(index, step): the part's first step not yet done, given the position and South's actions."""
    steps = STEPS[part]
    if position["scores"]:  # the deal is over: its table is gone, and every step counts as done
        return len(steps) - 1, steps[-1]
    for index, step in enumerate(steps):
        if not step.done(position, actions):
            return index, step
    return len(steps) - 1, steps[-1]


def equal_kind(card: str) -> str:
    """Cards of one kind serve a step alike: the same rank, so the same points and the same melds
    (K♠ for K♣); threes also by colour, since a red three is laid and a black one blocks (R34)."""
    if card == "JK":
        return card
    if card[0] == "3":
        return "3" + ("red" if card[1] in "DH" else "black")
    return card[0]


def in_hand_terms(action: Action, hand: list[str]) -> Action:
    """`action` with each card South lacks replaced by an equal card South holds and the action
    does not already use (the named card first, so the prompt's own cards are kept where held);
    a card with no equal in the hand stays as it is (the engine then refuses it)."""
    left = Counter(hand)
    named = [*action.get("cards", []), *([action["card"]] if "card" in action else [])]
    named += [card for group in action.get("groups") or [] for card in group["cards"]]
    for card in named:  # the named cards held are kept first
        if left[card] > 0:
            left[card] -= 1
    missing = Counter(named) - Counter(hand)

    def held(card: str) -> str:
        if missing[card] <= 0:
            return card
        missing[card] -= 1
        kind = equal_kind(card)
        equal = next((other for other in sorted(left) if left[other] > 0 and equal_kind(other) == kind), None)
        if equal is None:
            return card
        left[equal] -= 1
        return equal

    resolved = dict(action)
    if "card" in action:
        resolved["card"] = held(action["card"])
    if "cards" in action:
        resolved["cards"] = [held(card) for card in action["cards"]]
    if "groups" in action:
        resolved["groups"] = [{**group, "cards": [held(card) for card in group["cards"]]} for group in action["groups"]]
    return resolved


def step_actions(step: Step, game: Game) -> list[Action]:
    """The step's example in South's cards of the moment (`in_hand_terms`)."""
    return [in_hand_terms(action, game.hands[YOU]) for action in step.example]


def off_course(step: Step, position: Position) -> bool:
    """Whether the newcomer can no longer do what the step asks: on South's turn, none of the
    step's actions is legal, with any equal cards, not even after the draw that starts the turn
    (R25). The lesson then offers to start the part again (a different play, e.g. a 9 discarded
    before the take)."""
    if not step.example or position.get("turn") != YOU or position["scores"]:
        return False
    game = Game.from_position(position)
    if any(game.check(YOU, action)["ok"] for action in step_actions(step, game)):
        return False
    if game.phase == "draw":
        game.apply(YOU, {"type": "draw"})
        return not any(game.check(YOU, action)["ok"] for action in step_actions(step, game))
    return True


def step_cards(step: Step, position: Position) -> list[list[str]]:
    """The cards the step's prompt names and the page highlights, a list per group of cards
    (a meld's groups; a take's pair; a discard's card), in South's cards of the moment."""
    game = Game.from_position(position)
    groups: list[list[str]] = []
    for action in step_actions(step, game):
        if action.get("groups"):
            groups.extend(list(group["cards"]) for group in action["groups"])
        elif action.get("cards"):
            groups.append(list(action["cards"]))
        elif action.get("card"):
            groups.append([action["card"]])
    return groups


def meld_targets(step: Step) -> list[str]:
    """The team melds the step adds to (their ranks, "wild" for the wild cards), highlighted."""
    return [group["to"] for action in step.example for group in action.get("groups") or [] if group.get("to")]


def lesson_state(position: Position | None, actions: list[Action]) -> dict[str, Any]:
    """What the page is told: the part, the step's key (and its prompt's key, which follows what
    happened), its number and how many there are, the cards, buttons and melds to highlight,
    whether it is the part's end (and the part it offers next), and whether it is South's turn."""
    part = part_of(position)
    steps = STEPS[part]
    index, step = (0, steps[0]) if position is None else current_step(part, position, actions)
    last = index == len(steps) - 1
    stored, position = position, position or lesson_position(part)
    return {
        "part": part,
        "off_course": off_course(step, position),
        "step": step.key,
        "prompt_key": f"{step.key}_now" if step.now and step.now(position) else step.key,
        "cards": step_cards(step, position) if not position["scores"] else [],
        "buttons": list(step.buttons),
        "melds": meld_targets(step),
        "index": index,
        "count": len(steps),
        "last": last,
        "next_part": NEXT_PART.get(part) if last else None,
        "your_turn": stored is not None and position.get("turn") == YOU,
    }
