"""What a seat's view says, digested for the bots: the seat's cards by rank, both teams' melds,
what the team still needs to go out (R49b), and which cards are still unseen.

Pure functions of the view (docs/VIEW.md): nothing here knows a hidden card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.bots.cards import (
    NEXT_SEAT,
    OTHER_TEAM,
    PARTNER,
    TEAM_OF,
    full_deck,
    is_black_three,
    is_natural,
    is_wild,
)
from games.engine.records import View

if TYPE_CHECKING:
    from games.bots.plan import MeldPlan


@dataclass
class Situation:
    view: View
    seat: str
    team: str
    opponents: str
    partner: str
    next_seat: str
    hand: Counter[str]
    naturals: dict[str, list[str]]  # rank -> the seat's naturals of that rank
    wilds: list[str]  # jokers first (they cost most when left over, R4)
    black_threes: list[str]
    incomplete: dict[str, list[str]]  # the team's incomplete melds, by rank or "wild"
    opponent_incomplete: dict[str, list[str]]
    piles: dict[str, int]
    opponent_piles: dict[str, int]
    needs: dict[str, int]  # piles still missing for R49b
    opponent_needs: dict[str, int]
    down: bool
    opponents_down: bool
    in_foot: bool
    partner_in_foot: bool
    minimum: int
    discard: list[str]
    _unseen: tuple[Counter[str], int] | None = field(default=None, repr=False)
    plans: dict[int, MeldPlan] = field(default_factory=dict, repr=False)  # memo of normal's plan prefixes

    @property
    def unseen_by_rank(self) -> Counter[str]:
        """Copies of each match key (R29b) not visible to the seat (computed when first asked)."""
        return self._unseen_counts()[0]

    @property
    def unseen_total(self) -> int:
        return self._unseen_counts()[1]

    def _unseen_counts(self) -> tuple[Counter[str], int]:
        if self._unseen is None:
            self._unseen = _count_unseen(self.view)
        return self._unseen

    @property
    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = self.view.get("options") or {}
        return options

    @property
    def card_count(self) -> int:
        return sum(self.hand.values())

    @property
    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None

    def seat_info(self, seat: str) -> dict[str, Any]:
        info: dict[str, Any] = self.view["seats"][seat]
        return info


def melds_by_key(view: View, team: str) -> list[dict[str, Any]]:
    """A team's melds in the order they were started."""
    table = view["melds"].get(team) or {}
    return [table[key] for key in sorted(table, key=int)]


def _incomplete(view: View, team: str) -> dict[str, list[str]]:
    return {m["rank"]: list(m["cards"]) for m in melds_by_key(view, team) if m["status"] == "incomplete"}


def _needs(view: View, piles: dict[str, int]) -> dict[str, int]:
    wanted = view.get("going_out_needs") or {"clean": 2, "dirty": 2, "wild": 1}
    return {kind: max(0, wanted[kind] - piles.get(kind, 0)) for kind in ("clean", "dirty", "wild")}


def analyse(view: View) -> Situation:
    seat = view["seat"]
    team = TEAM_OF[seat]
    opponents = OTHER_TEAM[team]
    hand = Counter({card: n for card, n in view["hand"].items() if n > 0})
    naturals: dict[str, list[str]] = {}
    wilds: list[str] = []
    black_threes: list[str] = []
    for card in sorted(hand):
        copies = [card] * hand[card]
        if is_wild(card):
            wilds.extend(copies)
        elif is_black_three(card):
            black_threes.extend(copies)
        elif is_natural(card):
            naturals.setdefault(card[0], []).extend(copies)
    wilds.sort(key=lambda c: c != "JK")
    options: dict[str, Any] = view.get("options") or {}
    minimum: int = options["minimum"] if "minimum" in options else view.get("first_meld_minimum", 0)
    piles = dict(view["piles"][team])
    opponent_piles = dict(view["piles"][opponents])
    situation = Situation(
        view=view,
        seat=seat,
        team=team,
        opponents=opponents,
        partner=PARTNER[seat],
        next_seat=NEXT_SEAT[seat],
        hand=hand,
        naturals=naturals,
        wilds=wilds,
        black_threes=black_threes,
        incomplete=_incomplete(view, team),
        opponent_incomplete=_incomplete(view, opponents),
        piles=piles,
        opponent_piles=opponent_piles,
        needs=_needs(view, piles),
        opponent_needs=_needs(view, opponent_piles),
        down=bool(view["down"][team]),
        opponents_down=bool(view["down"][opponents]),
        in_foot=bool(view["seats"][seat]["in_foot"]),
        partner_in_foot=bool(view["seats"][PARTNER[seat]]["in_foot"]),
        minimum=int(minimum) if not view["down"][team] else 0,
        discard=list(view["discard"]),
    )
    return situation


def visible_cards(view: View) -> Counter[str]:
    """Every card the seat can see: its own, the discard pile and both teams' melds."""
    seen = Counter({card: n for card, n in view["hand"].items() if n > 0})
    seen.update(view["discard"])
    for team in ("NS", "EW"):
        for meld in melds_by_key(view, team):
            seen.update(meld["cards"])
    return seen


def _count_unseen(view: View) -> tuple[Counter[str], int]:
    """(copies not visible to the seat by match key, threes left out; how many cards unseen)."""
    seen: dict[str, int] = {}
    total_seen = 0
    for card, n in view["hand"].items():
        if n > 0:
            key = match_key(card)
            seen[key] = seen.get(key, 0) + n
            total_seen += n
    piles = [view["discard"]]
    for team in ("NS", "EW"):
        piles.extend(m["cards"] for m in (view["melds"].get(team) or {}).values())
    for cards in piles:
        total_seen += len(cards)
        for card in cards:
            key = match_key(card)
            seen[key] = seen.get(key, 0) + 1
    by_rank: Counter[str] = Counter()
    for key, copies in _DECK_BY_KEY.items():
        left = copies - seen.get(key, 0)
        if left > 0:
            by_rank[key] = left
    # red threes laid are public too; they never matter for pairs, only for the total
    laid = sum(view["red_threes"].values())
    return by_rank, max(1, 270 - total_seen - laid)


def match_key(card: str) -> str:
    """What a card must match to take the discard pile with it (R29b): its rank, "2" or "JK"."""
    return "JK" if card == "JK" else card[0]


# copies of each match key in the 270 cards (R1, R2; threes never take the pile): 20 a rank, 10 jokers
_DECK_BY_KEY: Counter[str] = Counter()
for _card, _copies in full_deck().items():
    if _card[0] != "3":
        _DECK_BY_KEY[match_key(_card)] += _copies


def needs_after(needs: dict[str, int], completed: Counter[str]) -> dict[str, int]:
    return {kind: max(0, needs[kind] - completed.get(kind, 0)) for kind in needs}


__all__ = ["Situation", "analyse", "match_key", "melds_by_key", "needs_after", "visible_cards"]
