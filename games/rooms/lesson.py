"""Learn to play: the lesson's prepared deal and its steps, each with the condition that says it is done.

The lesson is a game of mode "lesson" that starts from `lesson_position()` instead of a shuffled
deal: South (the newcomer) plays first; West, North and East are quiet computer seats
(games.bots.lesson: draw, discard the lowest natural, never meld or take). Because the hands and
the top of the stock are fixed, every computer discard is known in advance, so a step can promise
"East will throw the 9♥: take the pile with your two 9s".

A step is done when South's own actions and the position say so (`done`); the current step is
the first step not yet done, computed on the server from the stored game and sent to the page
(games.rooms.lesson_room); the page only shows it. Each step also names the action a newcomer
following its prompt sends (`example`), so a test walks the whole lesson with the engine
(tests/rooms/test_lesson.py). docs/ROOMS.md, "The lesson", says how the deal is made.

Pure Python on the engine: no Django here (the prompts' words are in games.rooms.lesson_room).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from games.engine import canonical_deck, parse_cards
from games.engine.records import Action, Position

LESSON_SEED = "lesson"
LESSON_LEVEL = "lesson"  # the computer seats' bot (games.bots.lesson)
YOU = "S"
TEAM = "NS"

# South's hand: two groups of 30 (Kings, Queens) that reach the first meld's 50 only together
# (R37-R40: hence Set aside, then Lay down), a fourth King to add (R21), and a pair of 9s for
# the pile East will offer (R29).
HANDS = {
    "S": "KC KD KH QC QD QH KS 9C 9D 5C 6D 7H 8S",
    "W": "4C 4H 5D 6C 7D 8H TC JC QS AC AS 2C JK",
    "N": "5H 6H 7C 8C TD JS QC AH AD 2D 2H JK TS",
    # 9H is East's lowest natural, and East's draws (below) are higher: East's first discard.
    "E": "9H TH TS JD JH QH AH AS KD KC 2D 2S JK",
}
UPCARD = "4D"
# The top of the stock, in drawing order: South's, West's, North's and East's first two cards.
STOCK_TOP = "JD 6C 7S 8D 6S TC AD KS"


def lesson_position() -> Position:
    """The lesson's deal: deal 1 (first meld 50, R37), South to draw, the hands and the stock's top
    fixed above; feet and the rest of the stock from a fixed shuffle of the remaining cards."""
    rest = Counter(canonical_deck())
    fixed = [*parse_cards(" ".join(HANDS.values())), UPCARD, *parse_cards(STOCK_TOP)]
    rest.subtract(fixed)
    if min(rest.values()) < 0:
        raise ValueError("the lesson's fixed cards use a card more often than five decks hold")
    remaining = sorted(rest.elements())
    random.Random(LESSON_SEED).shuffle(remaining)
    feet = {seat: " ".join(remaining[i * 13 : (i + 1) * 13]) for i, seat in enumerate("SWNE")}
    stock = [*parse_cards(STOCK_TOP), *remaining[52:]]
    return {
        "seed": LESSON_SEED,
        "deal": 1,
        "dealer": "E",
        "turn": YOU,
        "phase": "draw",
        "hands": dict(HANDS),
        "feet": feet,
        "stock": " ".join(stock),
        "discard": UPCARD,
        "melds": {"NS": [], "EW": []},
        "red_threes": {"NS": "", "EW": ""},
        "down": {"NS": False, "EW": False},
        "scores": [],
        "ply": 0,
    }


Done = Callable[[Position, list[Action]], bool]


def did(kind: str, adds: bool = False) -> Done:
    """Done once South has made an action of `kind` (with `adds`: a meld adding to a team meld)."""

    def done(position: Position, actions: list[Action]) -> bool:
        return any(
            a.get("type") == kind and (not adds or any(g.get("to") for g in a.get("groups") or [])) for a in actions
        )

    return done


def team_down(position: Position, actions: list[Action]) -> bool:
    return bool(position["down"][TEAM])


def never(position: Position, actions: list[Action]) -> bool:
    return False


@dataclass(frozen=True)
class Step:
    key: str  # names the prompt (games.rooms.lesson_room.PROMPTS)
    done: Done
    # What a newcomer following the prompt sends, in order (the test walks these); the page's
    # Set aside is staging only (R42), so the first meld is one `meld` with both groups.
    example: list[Action] = field(default_factory=list)


STEPS = [
    Step("draw", did("draw"), [{"type": "draw"}]),
    Step(
        "first_meld",
        team_down,
        [{"type": "meld", "groups": [{"cards": ["KC", "KD", "KH"]}, {"cards": ["QC", "QD", "QH"]}]}],
    ),
    Step("add", did("meld", adds=True), [{"type": "meld", "groups": [{"cards": ["KS"], "to": "K"}]}]),
    Step("discard", did("discard"), [{"type": "discard", "card": "5C"}]),
    Step("take_pile", did("take_pile"), [{"type": "take_pile", "cards": ["9C", "9D"]}]),
    Step("finished", never),
]


def current_step(position: Position, actions: list[Action]) -> tuple[int, Step]:
    """(index, step): the first step not yet done, given the position and South's actions so far."""
    for index, step in enumerate(STEPS):
        if not step.done(position, actions):
            return index, step
    return len(STEPS) - 1, STEPS[-1]


def lesson_state(position: Position | None, actions: list[Action]) -> dict:
    """What the page is told: the step's key, its number and how many there are, whether it is the
    end, and whether it is South's turn (a prompt may ask to wait for the others)."""
    if position is None:
        return {"step": STEPS[0].key, "index": 0, "count": len(STEPS), "last": False, "your_turn": False}
    index, step = current_step(position, actions)
    return {
        "step": step.key,
        "index": index,
        "count": len(STEPS),
        "last": index == len(STEPS) - 1,
        "your_turn": position.get("turn") == YOU,
    }
