"""A player who plays South at the table page by clicking, as a person does (issue #16).

It sees only what the page shows: the hand's card buttons, the enabled buttons (the page enables
them from the server's options: Draw 2, Meld, Set aside, Lay down, Discard), the team's melds
that light up as *can add* for the selected cards (the options' `add_to`), the first-meld minimum
in the top bar, the staging status the server's check writes, the refusals in the message line,
and the deal-end and game-over dialogs. It clicks cards and buttons; it never sends a message of
its own and never reads the page's script state. What a click may do is decided by the server:
a refused click leaves a message, which the player reads, and it tries something else.

The policy is simple on purpose: draw two (R27, never the pile); while the team is not down,
set aside every natural group of three or more and pairs with one wild card (R15), and lay them
down when the server's check says they reach the minimum (R37, R42), else take them back; once
down (R41), add naturals to the team's open melds the page lights up (R21) and meld new natural
groups (R20); then discard (R25) a black three first (R36), else the loneliest, cheapest natural,
wild cards last. The foot, red threes and the end of a deal are the server's (R44, R34, R51):
the player only presses Next deal.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field

from games.engine import card_points

CORNER = {"x": 3, "y": 8}  # a card's index corner: the part that stays visible in an overlapping hand
NATURAL_RANKS = "456789TJQKA"
BLACK_THREES = ("3C", "3S")

# What the page shows, read in one go (DOM only: classes, attributes, texts, open dialogs).
SNAPSHOT = """() => {
  const q = (selector) => document.querySelector(selector);
  const usable = (id) => { const b = q('#' + id); return Boolean(b && !b.hidden && !b.disabled); };
  return {
    v: Number(q('#table').dataset.v || -1),
    over: q('#game-over').open,
    dealEnd: q('#deal-end').open,
    mine: q('#turn-banner').classList.contains('mine'),
    draw: usable('btn-draw'), meld: usable('btn-meld'), layDown: usable('btn-laydown'), discard: usable('btn-discard'),
    notDown: !q('#btn-aside').hidden,
    minimum: q('#minimum-info').textContent,
    hand: [...document.querySelectorAll('#hand button.card')].map((b) => [b.dataset.key, b.dataset.code]),
    melds: [...document.querySelectorAll('#melds-us button.meld')]
      .map((m) => [m.dataset.rank, m.classList.contains('can-add'), m.querySelectorAll('.fan .card').length]),
    staging: q('#staging-status').textContent,
    message: q('#message').textContent,
  };
}"""

# Ready for South: the end of a deal or of the game is open, or it is South's turn and Draw works.
READY = """() => document.querySelector('#game-over').open || document.querySelector('#deal-end').open
  || (document.querySelector('#turn-banner').classList.contains('mine')
      && !document.querySelector('#btn-draw').disabled)"""

# After a click that sends an action: the table shows a newer version, the server refused (the
# message line), or the deal or the game ended (its dialog; the finished deal keeps its version).
ANSWERED = """(v) => Number(document.querySelector('#table').dataset.v) > v
  || document.querySelector('#message').textContent.length > 0
  || document.querySelector('#deal-end').open || document.querySelector('#game-over').open"""

COUNTED = "() => !['', 'Counting…'].includes(document.querySelector('#staging-status').textContent)"


def is_natural(code: str) -> bool:
    return code != "JK" and code[0] in NATURAL_RANKS


def is_wild(code: str) -> bool:
    return code == "JK" or code[0] == "2"


@dataclass
class Tally:
    """What the player did, for the test's report and its assertions."""

    turns: int = 0
    deals_ended: int = 0
    clicks: Counter = field(default_factory=Counter)
    refusals: list = field(default_factory=list)
    laid_down: int = 0  # first melds (lay-downs) the server accepted
    melded: int = 0  # every meld action the server accepted: lay-downs, additions, new melds


class ClickingPlayer:
    def __init__(self, page, timeout_ms: float = 60000):
        self.page, self.timeout_ms, self.tally = page, timeout_ms, Tally()
        self.over, self.seconds = False, 0.0

    # ---------------------------------------------------------------- looking and clicking

    def look(self) -> dict:
        return self.page.evaluate(SNAPSHOT)

    def press(self, button_id: str) -> None:
        self.tally.clicks[button_id] += 1
        self.page.locator(f"#{button_id}").click()

    def pick(self, key: str) -> None:
        self.tally.clicks["card"] += 1
        self.page.locator(f'#hand button[data-key="{key}"]').click(position=CORNER)

    def let_go(self) -> None:
        """Escape lets go of every selected card (the table's keyboard shortcut)."""
        self.page.keyboard.press("Escape")

    def answered(self, before: dict) -> dict:
        """Waits for the server's answer to a click that sent an action; a refusal is recorded."""
        self.page.wait_for_function(ANSWERED, arg=before["v"], timeout=self.timeout_ms)
        after = self.look()
        if after["message"] and after["v"] == before["v"] and not (after["dealEnd"] or after["over"]):
            self.tally.refusals.append(after["message"])
            self.let_go()
        return after

    def select(self, keys: list[str]) -> dict:
        for key in keys:
            self.pick(key)
        return self.look()

    def act(self, keys: list[str], button_id: str) -> dict | None:
        """Selects `keys` and presses the button if the page enables it (else lets go): the answer."""
        seen = self.select(keys)
        if not seen[{"btn-meld": "meld", "btn-discard": "discard"}[button_id]]:
            self.let_go()
            return None
        self.press(button_id)
        return self.answered(seen)

    def add(self, keys: list[str], rank: str) -> dict | None:
        """Selects `keys` and taps the team's meld of that rank if the page lights it up as *can add*."""
        seen = self.select(keys)
        if not {lit_rank: lit for lit_rank, lit, _ in seen["melds"]}.get(rank, False):
            self.let_go()
            return None
        self.tally.clicks["meld-add"] += 1
        self.page.locator(f'#melds-us button.meld[data-rank="{rank}"]').click()
        return self.answered(seen)

    # ---------------------------------------------------------------- the game

    def step(self) -> bool:
        """If the page waits for South: presses Next deal or plays one whole turn (True); else False.

        `over` is set once the game-over dialog is open."""
        if self.over or not self.page.evaluate(READY):
            return False
        seen = self.look()
        if seen["over"]:
            self.over = True
        elif seen["dealEnd"]:
            self.tally.deals_ended += 1
            self.press("btn-next-deal")
            self.page.wait_for_function("() => !document.querySelector('#deal-end').open")
        else:
            self.turn(seen)
        return True

    def turn(self, seen: dict) -> None:
        self.tally.turns += 1
        self.press("btn-draw")
        seen = self.answered(seen)
        if seen["dealEnd"] or seen["over"] or not seen["mine"]:
            return  # the draw ended the deal (R53) or the turn
        seen = self.lay_down(seen) if seen["notDown"] else self.meld_more(seen)
        if not (seen["dealEnd"] or seen["over"]) and seen["mine"]:
            self.discard(seen)

    # ---------------------------------------------------------------- melding

    def lay_down(self, seen: dict) -> dict:
        """The first meld (R37–R42): natural groups, pairs with a wild card; laid down if the check says so."""
        groups = first_meld_groups(seen["hand"])
        minimum = int(re.sub(r"\D", "", seen["minimum"]) or 0)
        if not groups or sum(card_points(code) for group in groups for _, code in group) < minimum:
            return seen
        for group in groups:
            for key, _ in group:
                self.pick(key)
            self.press("btn-aside")
            self.page.wait_for_function(COUNTED, timeout=self.timeout_ms)
        staged = self.look()
        if staged["layDown"]:
            self.press("btn-laydown")
            after = self.answered(staged)
            if after["v"] > staged["v"]:
                self.tally.laid_down += 1
                self.tally.melded += 1
            return after
        self.tally.refusals.append(staged["staging"])
        for _ in groups:  # the check said no: the groups go back to the hand
            self.page.get_by_role("button", name="Take back").first.click()
        return self.look()

    def meld_more(self, seen: dict) -> dict:
        """Once down: naturals onto the open melds the page lights up (R21), then new natural melds (R20)."""
        for rank, _, count in seen["melds"]:
            # A meld shows its cards ("4 of 7"): no more than it has room for (R18).
            keys = [key for key, code in seen["hand"] if is_natural(code) and code[0] == rank][: 7 - count]
            if keys and len(keys) < len(seen["hand"]):  # keep a card to discard
                after = self.add(keys, rank)
                if after is not None:
                    self.tally.melded += after["v"] > seen["v"]
                    seen = after
                    if seen["dealEnd"] or seen["over"]:
                        return seen
        open_ranks = {rank for rank, _, _ in seen["melds"]}
        for rank, keys in natural_groups(seen["hand"]).items():
            if rank not in open_ranks and len(keys) >= 3 and len(keys) < len(seen["hand"]):
                after = self.act(keys[:7], "btn-meld")
                if after is not None:
                    self.tally.melded += after["v"] > seen["v"]
                    seen = after
                    if seen["dealEnd"] or seen["over"]:
                        return seen
        return seen

    # ---------------------------------------------------------------- discarding

    def discard(self, seen: dict) -> None:
        for key in discard_order(seen["hand"]):
            after = self.act([key], "btn-discard")
            if after is not None and (after["v"] > seen["v"] or after["dealEnd"] or after["over"]):
                return
        raise AssertionError(f"no discard was accepted: {seen['hand']} {self.tally.refusals[-3:]}")


def natural_groups(hand: list) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for key, code in hand:
        if is_natural(code):
            groups.setdefault(code[0], []).append(key)
    return groups


def first_meld_groups(hand: list) -> list[list[tuple[str, str]]]:
    """Natural groups of three to seven (R15, R18), then pairs each with one wild card (2:1, R15)."""
    codes = dict(hand)
    by_rank = natural_groups(hand)
    groups = [[(key, codes[key]) for key in keys[:7]] for keys in by_rank.values() if len(keys) >= 3]
    wilds = [(key, code) for key, code in hand if is_wild(code)]
    for keys in sorted((keys for keys in by_rank.values() if len(keys) == 2), key=lambda k: -card_points(codes[k[0]])):
        if not wilds:
            break
        groups.append([(key, codes[key]) for key in keys] + [wilds.pop()])
    return groups


def discard_order(hand: list) -> list[str]:
    """Black threes first (R36), then the loneliest, cheapest naturals, wild cards last."""
    codes = dict(hand)
    counts = Counter(code[0] for _, code in hand)
    threes = [key for key, code in hand if code in BLACK_THREES]
    naturals = sorted(
        (key for key, code in hand if is_natural(code)),
        key=lambda key: (counts[codes[key][0]], card_points(codes[key]), codes[key]),
    )
    wilds = [key for key, code in hand if is_wild(code)]
    return threes + naturals + wilds


def play_together(players: list[ClickingPlayer], seconds: float) -> None:
    """Plays every player's game to its end, taking turns between the pages: while the bots of one
    game play, South's turn of another is clicked. Each player's `seconds` is its game's time."""
    started = time.monotonic()
    while not all(player.over for player in players):
        elapsed = time.monotonic() - started
        assert elapsed < seconds, f"not over after {seconds}s: {[player.tally for player in players]}"
        moved = False
        for player in players:
            if not player.over:
                moved = player.step() or moved
                player.seconds = time.monotonic() - started
        if not moved:
            time.sleep(0.02)
