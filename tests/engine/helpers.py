"""Builders for engine test positions.

`position(**overrides)` turns the few cards a test case names into a complete, valid position
dict (docs/NOTATION.md, "Position"): every one of the 270 cards exactly once. Cards the case
does not name go to the bottom of the stock, after `stock_top`; seats whose hand or foot the
case does not name get 13 filler cards. Filler never holds a red three (R34: a red three is
never among a player's cards), so red threes the case does not name stay in the stock.

This module is pure: it builds plain dicts and needs no engine, except `game_at`, which hands
the dict to `Game.from_position`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

SEATS = ("S", "W", "N", "E")  # clockwise, R6
TEAM_OF = {"S": "NS", "N": "NS", "W": "EW", "E": "EW"}  # R5
PARTNER = {"S": "N", "N": "S", "W": "E", "E": "W"}
DEALER_OF_DEAL = {1: "E", 2: "S", 3: "W", 4: "N"}  # R8
FIRST_PLAYER_OF_DEAL = {1: "S", 2: "W", 3: "N", 4: "E"}  # R8
MINIMUM_OF_DEAL = {1: 50, 2: 90, 3: 120, 4: 150}  # R37
RED_THREES = ("3D", "3H")
RANKS = "456789TJQKA23"
SUITS = "CDHS"


def canonical_deck() -> list[str]:
    """The 270 cards in the canonical order of R57."""
    return [r + s for _ in range(5) for r in RANKS for s in SUITS] + ["JK"] * 10


DECK = Counter(canonical_deck())


def cards(text: str | list[str] | None) -> list[str]:
    """A space-separated card string (or list) as a list of card codes."""
    if text is None:
        return []
    if isinstance(text, str):
        return text.split()
    return list(text)


def joined(card_list: list[str]) -> str:
    return " ".join(card_list)


def next_seat(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


class _Remainder:
    """The cards not yet placed: a multiset, handed out deterministically."""

    def __init__(self) -> None:
        self.left = Counter(DECK)

    def take(self, named: list[str], where: str) -> None:
        for card in named:
            if self.left[card] <= 0:
                raise ValueError(f"{where}: no copy of {card} left (all {DECK[card]} are named)")
            self.left[card] -= 1

    def filler(self, count: int) -> list[str]:
        """`count` cards, never a red three, spread over the deck like a real hand."""
        pool = sorted((c for c in self.left.elements() if c not in RED_THREES), key=_deck_order)
        random.Random(f"filler:{len(pool)}").shuffle(pool)
        chosen = pool[:count]
        if len(chosen) < count:
            raise ValueError("not enough cards left for filler")
        self.take(chosen, "filler")
        return chosen

    def in_deck_order(self) -> list[str]:
        return sorted(self.left.elements(), key=_deck_order)


def _deck_order(card: str) -> tuple[int, int]:
    if card == "JK":
        return (len(RANKS), 0)
    return (RANKS.index(card[0]), SUITS.index(card[1]))


def position(
    *,
    seed: int = 1,
    deal: int = 1,
    dealer: str | None = None,
    turn: str | None = "",
    phase: str = "draw",
    hands: dict | None = None,
    feet: dict | None = None,
    discard: str = "",
    melds: dict | None = None,
    red_threes: dict | None = None,
    down: dict | None = None,
    scores: list | None = None,
    ply: int = 0,
    stock_top: str = "",
    stock: str | None = None,
    spare_red_threes: str = "alternate",
    **extra,
) -> dict:
    """A complete position from the cards a case names.

    hands / feet: {seat: "cards"} for the seats the case cares about; a foot given as None has
    been picked up (the hand is then the foot). Unnamed hands and feet get 13 filler cards.
    stock_top: cards on top of the stock; the rest of the deck follows in canonical order.
    stock: the whole stock, exactly; cards left over then go to the bottom of the discard pile,
    and left-over red threes to the laid red threes (alternately NS, EW, or all to the team
    `spare_red_threes`).
    turn: defaults to the deal's first player (R8); phase "over" defaults turn to None.
    down: defaults to "the team has a meld".
    """
    hands = dict(hands or {})
    feet = dict(feet or {})
    melds = {"NS": list((melds or {}).get("NS", [])), "EW": list((melds or {}).get("EW", []))}
    red_threes = {"NS": "", "EW": "", **(red_threes or {})}
    remainder = _Remainder()

    for seat, text in hands.items():
        remainder.take(cards(text), f"hand {seat}")
    for seat, text in feet.items():
        remainder.take(cards(text), f"foot {seat}")
    remainder.take(cards(discard), "discard")
    for team in ("NS", "EW"):
        for meld in melds[team]:
            remainder.take(cards(meld), f"meld {team}")
        remainder.take(cards(red_threes[team]), f"red threes {team}")
    top = cards(stock if stock is not None else stock_top)
    remainder.take(top, "stock")

    for seat in SEATS:
        if seat not in hands:
            hands[seat] = joined(remainder.filler(13))
        if seat not in feet:
            feet[seat] = joined(remainder.filler(13))

    rest = remainder.in_deck_order()
    discard_cards = cards(discard)
    if stock is None:
        stock_cards = top + rest
    else:
        stock_cards = top
        laid = [c for c in rest if c in RED_THREES]
        discard_cards = [c for c in rest if c not in RED_THREES] + discard_cards
        for i, card in enumerate(laid):
            team = ("NS", "EW")[i % 2] if spare_red_threes == "alternate" else spare_red_threes
            red_threes[team] = joined(cards(red_threes[team]) + [card])

    if phase == "over" and turn == "":
        turn = None
    elif turn == "":
        turn = FIRST_PLAYER_OF_DEAL[deal]
    pos = {
        "seed": seed,
        "deal": deal,
        "dealer": dealer or DEALER_OF_DEAL[deal],
        "turn": turn,
        "phase": phase,
        "hands": {seat: joined(cards(hands[seat])) for seat in SEATS},
        "feet": {seat: (None if feet[seat] is None else joined(cards(feet[seat]))) for seat in SEATS},
        "stock": joined(stock_cards),
        "discard": joined(discard_cards),
        "melds": {team: [joined(cards(m)) for m in melds[team]] for team in ("NS", "EW")},
        "red_threes": {team: joined(cards(red_threes[team])) for team in ("NS", "EW")},
        "down": down if down is not None else {t: bool(melds[t]) for t in ("NS", "EW")},
        "scores": list(scores or []),
        "ply": ply,
    }
    pos.update(extra)
    count_all_cards(pos)
    return pos


def all_cards(pos: dict) -> Counter:
    """Every card of a position, wherever it lies."""
    found: Counter = Counter()
    for seat in SEATS:
        found.update(cards(pos["hands"][seat]))
        found.update(cards(pos["feet"][seat]))
    found.update(cards(pos["stock"]))
    found.update(cards(pos["discard"]))
    for team in ("NS", "EW"):
        for meld in pos["melds"][team]:
            found.update(cards(meld))
        found.update(cards(pos["red_threes"][team]))
    return found


def count_all_cards(pos: dict) -> None:
    """Assert that the position holds the 270 cards of R1/R2, each exactly once."""
    found = all_cards(pos)
    missing = DECK - found
    surplus = found - DECK
    assert not missing and not surplus, f"cards missing {dict(missing)}, surplus {dict(surplus)}"


def game_at(**overrides):
    """The engine's Game at `position(**overrides)`."""
    from games.engine import Game

    return Game.from_position(position(**overrides))


def hand_of(game, seat: str) -> Counter:
    """A seat's active cards, from the position, as a multiset."""
    return Counter(cards(game.to_position()["hands"][seat]))


def melds_of(game, team: str) -> list[Counter]:
    return [Counter(cards(m)) for m in game.to_position()["melds"][team]]


def assert_refused(game, seat: str, action, *, rule=None, code=None):
    """Apply must raise RuleError (with the given rule / code, if any) and change nothing.

    `rule` and `code` may be a string or a tuple of acceptable values. check() must agree.
    Returns the error for further assertions.
    """
    from games.engine import RuleError

    before = game.to_position()
    try:
        game.apply(seat, action)
    except RuleError as error:
        caught = error
    else:
        raise AssertionError(f"{action!r} by {seat} was accepted; expected a RuleError")
    assert game.to_position() == before, "a refused action changed the game"
    assert isinstance(caught.code, str) and caught.code, "RuleError.code must be a non-empty string"
    assert caught.code == caught.code.lower() and " " not in caught.code, "code must be snake_case"
    assert isinstance(caught.message, str) and caught.message
    if rule is not None:
        rules = (rule,) if isinstance(rule, str) else tuple(rule)
        assert caught.rule in rules, f"rule {caught.rule!r} (code {caught.code}) not in {rules}"
    if code is not None:
        codes = (code,) if isinstance(code, str) else tuple(code)
        assert caught.code in codes, f"code {caught.code!r} (rule {caught.rule}) not in {codes}"
    dry = game.check(seat, action)
    assert dry["ok"] is False and dry["code"] == caught.code, (dry, caught.code)
    assert game.to_position() == before, "check() changed the game"
    return caught


def assert_accepted(game, seat: str, action):
    """check() says ok, then apply succeeds; returns the events."""
    before = game.to_position()
    dry = game.check(seat, action)
    assert game.to_position() == before, "check() changed the game"
    assert dry["ok"] is True, dry
    return game.apply(seat, action)


def meld(*groups, to=None) -> dict:
    """A meld action: meld("9C 9S 9H") or meld("JK", to="Q") or several groups as tuples."""
    built = []
    for group in groups:
        if isinstance(group, tuple):
            text, target = group
            built.append({"cards": cards(text), "to": target})
        else:
            entry = {"cards": cards(group)}
            if to is not None:
                entry["to"] = to
            built.append(entry)
    return {"type": "meld", "groups": built}


def take(pair: str, *groups: str) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "take_pile", "cards": cards(pair)}
    if groups:
        action["groups"] = [{"cards": cards(g)} for g in groups]
    return action


def discard(card: str) -> dict:
    return {"type": "discard", "card": card}


DRAW = {"type": "draw"}


# Two clean, two dirty and one wild pile: what a team needs to go out (R49b).
GOING_OUT_PILES = [
    "KC KD KH KS KC KD KH",
    "5C 5D 5H 5S 5C 5D 5H",
    "QC QD QH QS QC 2H 2S",
    "8C 8D 8H 8S 8C 8D JK",
    "2C 2D 2H 2S JK JK JK",
]

# Three earlier deals' scores, North–South ahead (R55): a fourth deal's end ends the game (R7, R56).
EARLIER_DEALS = [
    {
        "NS": {"melded": 300, "cards_left": -20, "red_threes": 100, "piles": 800, "going_out": 100, "total": 1280},
        "EW": {"melded": 200, "cards_left": -50, "red_threes": 0, "piles": 500, "going_out": 0, "total": 650},
    }
] * 3

# South goes out with these two actions from last_deal_position(): the game is over, NS win.
GOING_OUT_ACTIONS: list[dict[str, Any]] = [
    {"type": "meld", "groups": [{"cards": ["QC", "QD"], "to": "Q"}]},
    {"type": "discard", "card": "9S"},
]


def last_deal_position() -> dict:
    """The fourth deal, South about to go out (GOING_OUT_ACTIONS): the game ends (R49, R56)."""
    return position(
        deal=4,
        hands={"S": "QC QD 9S"},
        feet={"S": None, "N": None},
        melds={"NS": [*GOING_OUT_PILES, "QH QS QC QD"]},
        turn="S",
        phase="play",
        scores=EARLIER_DEALS,
    )


def exhaust_stock(pos: dict) -> dict:
    """The same position with an empty stock: its cards go under the discard pile, its red
    threes to North–South's laid red threes (so that all 270 cards stay accounted for)."""
    stock = cards(pos["stock"])
    pos = {**pos, "red_threes": dict(pos["red_threes"])}
    pos["discard"] = joined([c for c in stock if c not in RED_THREES] + cards(pos["discard"]))
    pos["red_threes"]["NS"] = joined(cards(pos["red_threes"]["NS"]) + [c for c in stock if c in RED_THREES])
    pos["stock"] = ""
    count_all_cards(pos)
    return pos


def random_rules(draw: random.Random):
    """House rules drawn over every key's whole range (docs/RULES.md §17; unplayable draws are
    drawn again), for property tests under random rules."""
    from games.engine import Rules, RulesError
    from games.engine.rules import RULE_RANGES

    while True:
        chosen: dict[str, object] = {key: draw.randint(*RULE_RANGES[key]) for key in RULE_RANGES if key != "minimums"}
        chosen["pile_take"] = draw.choice([1, 3, 7, 10, 270, draw.randint(1, 270)])
        chosen["minimums"] = [5 * draw.randint(0, 60) for _ in range(4)]
        chosen["undo"] = draw.random() < 0.5  # V7
        try:
            return Rules.from_json(chosen)
        except RulesError:
            continue
