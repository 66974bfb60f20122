"""The hint: the whole step a bot would play now for a seat, worked out from the seat's view alone.

A step is what a person does between two looks at new cards: in the draw phase one action (a draw
or a take of the pile), in the play phase every meld action and then the discard. The bot is asked
again after each action of the step on a determinization of the view with that action applied:
the seat's own melds and discard depend only on its own cards and the public table, so every
action of the step is exactly what the bot would answer on the real table, and legal there. The
step stops where a real game would show unseen cards (a draw, a take, the foot picked up) or
where the turn or the deal ends.

`parts` describe the step in the order a person carries it out at the table (set aside, lay
down, take the pile, add, meld, discard); the page words them, the client holds no rule.

`hint_bot` is the one place that says whose moves the Hint shows (`HINT_LEVEL`, seeded per seat
by `seat_seed`): the room asks it for the Hint, and the look back asks it again at each of the
seat's decisions, so that the look back knows what the hint said there (docs/BOTS.md).
"""

from __future__ import annotations

from typing import Any

from games.bots import make_bot
from games.bots.base import Bot
from games.bots.determinize import determinize
from games.engine import Game
from games.engine.records import Action, Event, View
from games.engine.seats import TEAM_OF

MAX_ACTIONS = 12  # a play phase of one meld action per natural rank and the discard stays far below
ENDS_A_STEP = frozenset({"draw", "take_pile", "discard"})  # the draw shows new cards; a discard ends the turn
STOPS_AFTER = frozenset({"foot", "go_out", "deal_end", "game_over"})  # unseen cards follow, or nothing does

Part = dict[str, Any]

HINT_LEVEL = "normal"  # the level whose step the Hint shows (its CPU per step: docs/BOTS.md, "Hints")


def seat_seed(game_seed: int, seat: str) -> int:
    """Each seat's bot has its own seed, fixed by the game's seed (so a daily is the same for all)."""
    return (int(game_seed) * 4 + "SWNE".index(seat)) % (2**63)


def hint_bot(game_seed: int, seat: str) -> Bot:
    """The bot whose answer is the seat's hint in the game of `game_seed`."""
    return make_bot(HINT_LEVEL, seat_seed(game_seed, seat))


def hint_step(bot: Bot, view: View) -> dict[str, Any]:
    """{"actions": [...], "parts": [...]}: the actions in the order to send them, and their description."""
    seat = view["seat"]
    if view.get("turn") != seat or view.get("phase") not in ("draw", "play"):
        return {"actions": [], "parts": []}
    game = Game.from_position(determinize(view, None))
    actions: list[Action] = []
    parts: list[Part] = []
    while len(actions) < MAX_ACTIONS:
        action = bot.act(view)
        answer = game.check(seat, action)
        if not answer["ok"]:
            break  # cannot happen (the bot checks on the same kind of determinization): end the step here
        down = game.down[TEAM_OF[seat]]
        parts += describe(action, down, answer.get("points", 0))
        events = game.apply(seat, action)
        actions.append(action)
        if action["type"] in ENDS_A_STEP or _stops(events, seat) or game.turn != seat:
            parts += _after(events, seat)
            break
        view = game.view(seat)
    return {"actions": actions, "parts": parts}


def describe(action: Action, down: bool, points: int) -> list[Part]:
    """The parts of one action as the table's buttons do it."""
    kind = action["type"]
    if kind == "draw":
        return [{"do": "draw"}]
    if kind == "discard":
        return [{"do": "discard", "card": action["card"]}]
    if kind == "take_pile":
        groups = [{"do": "set_aside", "cards": list(g["cards"])} for g in action.get("groups", [])]
        return groups + [{"do": "take_pile", "cards": list(action["cards"]), "points": points if not down else None}]
    groups = action["groups"]
    if not down and len(groups) > 1 and all(g.get("to") is None for g in groups):
        # the first lay-down of several melds: Set aside each, then Lay down (R42)
        return [{"do": "set_aside", "cards": list(g["cards"])} for g in groups] + [{"do": "lay_down", "points": points}]
    found: list[Part] = []
    for group in groups:
        if group.get("to") is not None:
            found.append({"do": "add", "cards": list(group["cards"]), "to": group["to"]})
        else:
            found.append({"do": "meld", "cards": list(group["cards"])})
    if not down:
        found[-1]["points"] = points  # the first meld: the points it lays (R37)
    return found


def _stops(events: list[Event], seat: str) -> bool:
    return any(e["type"] in STOPS_AFTER and e.get("seat", seat) == seat for e in events)


def _after(events: list[Event], seat: str) -> list[Part]:
    """What happens by itself at the end of the step that the player should know of."""
    for event in events:
        if event["type"] == "go_out":
            return [{"do": "go_out"}]
        if event["type"] == "foot" and event["seat"] == seat:
            return [{"do": "foot"}]
    return []
