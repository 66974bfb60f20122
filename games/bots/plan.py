"""Building one meld action (docs/PROTOCOL.md: `{"type": "meld", "groups": [...]}`) group by group.

A `MeldPlan` keeps the seat's cards and the team's incomplete melds as they will be once the
groups so far are laid, so that each further group is chosen against that state, exactly as the
engine applies groups in order (R20–R22). It only plans: legality is confirmed by `game.check`.
"""

from __future__ import annotations

from collections import Counter

from games.bots.cards import NATURAL_RANKS, PILE_SIZE, WILD, is_natural, is_wild, pile_kind, points
from games.engine.records import Action


def legal_meld(cards: list[str]) -> bool:
    """R15/R16/R19: 3..7 cards of one natural rank with naturals >= 2 x wild, or all wild."""
    if not 3 <= len(cards) <= PILE_SIZE:
        return False
    return ratio_ok(cards)


def ratio_ok(cards: list[str]) -> bool:
    naturals = [c for c in cards if not is_wild(c)]
    if any(not is_natural(c) for c in naturals):
        return False  # R17: threes never meld
    if len({c[0] for c in naturals}) > 1:
        return False
    wild = len(cards) - len(naturals)
    return not naturals or len(naturals) >= 2 * wild


class MeldPlan:
    def __init__(self, hand: Counter[str], incomplete: dict[str, list[str]], min_keep: int = 0) -> None:
        self.hand = +Counter(hand)  # positive counts only (as elements() would give)
        self.incomplete = {rank: list(cards) for rank, cards in incomplete.items()}
        self.completed: Counter[str] = Counter()  # pile kinds completed by this plan (R49b counts them)
        self.groups: list[dict[str, object]] = []
        self.min_keep = min_keep  # R47: cards that must stay in a foot
        self.points = 0
        self._keys: list[str] | None = None  # sorted distinct cards of `hand`, while unchanged
        self._remaining: int | None = None

    # --- the seat's cards as they will be -------------------------------------------------
    @property
    def remaining(self) -> int:
        if self._remaining is None:
            self._remaining = sum(self.hand.values())
        return self._remaining

    def _sorted_keys(self) -> list[str]:
        if self._keys is None:
            self._keys = sorted(self.hand)
        return self._keys

    def naturals(self, rank: str) -> list[str]:
        if rank not in NATURAL_RANKS:
            return []
        hand = self.hand
        return [card for card in self._sorted_keys() if card[0] == rank and card != "JK" for _ in range(hand[card])]

    def wilds(self) -> list[str]:
        hand = self.hand
        jokers = ["JK"] * hand["JK"] if "JK" in hand else []
        return jokers + [card for card in hand if card[0] == "2" for _ in range(hand[card])]

    def budget(self) -> int:
        """How many more cards may be melded without breaking R47."""
        return max(0, self.remaining - self.min_keep)

    def natural_ranks(self) -> list[str]:
        return sorted({card[0] for card, n in self.hand.items() if n > 0 and is_natural(card)})

    def copy(self) -> MeldPlan:
        twin = MeldPlan.__new__(MeldPlan)
        twin.hand = Counter(self.hand)
        twin.incomplete = {rank: list(cards) for rank, cards in self.incomplete.items()}
        twin.completed = Counter(self.completed)
        twin.groups = [
            {key: list(value) if isinstance(value, list) else value for key, value in group.items()}
            for group in self.groups
        ]
        twin.min_keep = self.min_keep
        twin.points = self.points
        twin._keys = self._keys
        twin._remaining = self._remaining
        return twin

    # --- adding groups --------------------------------------------------------------------
    def add(self, rank: str, cards: list[str]) -> bool:
        """Add `cards` to the team's incomplete meld of `rank`, if legal and within budget."""
        meld = self.incomplete.get(rank)
        if not cards or meld is None or len(cards) > self.budget():
            return False
        result = meld + cards
        if len(result) > PILE_SIZE or not ratio_ok(result):
            return False
        if rank == WILD and any(not is_wild(c) for c in cards):
            return False
        self._lay(cards, {"cards": list(cards), "to": rank})
        self._settle(rank, result)
        return True

    def start(self, rank: str, cards: list[str]) -> bool:
        """A new meld (R20: only when the team has no incomplete meld of that rank)."""
        if rank in self.incomplete or len(cards) > self.budget() or not legal_meld(cards):
            return False
        self._lay(cards, {"cards": list(cards)})
        self._settle(rank, list(cards))
        return True

    def _lay(self, cards: list[str], group: dict[str, object]) -> None:
        self.hand.subtract(cards)
        self.hand = +self.hand
        self._keys = self._remaining = None
        self.groups.append(group)
        self.points += sum(points(c) for c in cards)

    def _settle(self, rank: str, cards: list[str]) -> None:
        if len(cards) == PILE_SIZE:
            self.completed[pile_kind(cards)] += 1
            self.incomplete.pop(rank, None)
        else:
            self.incomplete[rank] = cards

    def action(self) -> Action | None:
        return {"type": "meld", "groups": self.groups} if self.groups else None

    def room(self, rank: str) -> int:
        return PILE_SIZE - len(self.incomplete.get(rank, []))

    def wild_room(self, rank: str) -> int:
        """How many wild cards the incomplete natural meld of `rank` can still take (R15)."""
        meld = self.incomplete.get(rank)
        if meld is None:
            return 0
        naturals = sum(1 for c in meld if not is_wild(c))
        wild = len(meld) - naturals
        extra = 0
        while len(meld) + extra < PILE_SIZE and naturals >= 2 * (wild + extra + 1):
            extra += 1
        return extra
