"""How far the hard search could get with more information than a seat has (bench_oracle).

Benchmarks only: these bots read the real game, which no product bot may do. They answer one
question about issue 27 — is the hard level held back by what it cannot see, or by the search
itself? — by giving the same search (`HardBot`: its candidates, budget, horizon and override bar)
better worlds than `determinize` can deal:

- `oracle`: every world is the real table, the hands and unpicked feet of all seats included;
  only the stock's order is shuffled (a search that knew it would replay the future).
- `known`: what a seat could know and the view does not carry: the cards each seat took from the
  discard pile are face up when taken (R29–R31), so every world deals them back to that seat
  (`PileMemory`) and the rest at random, as `determinize` does.

Results and why: docs/journal/BOTS-2026.md, session 14.
"""

from __future__ import annotations

import multiprocessing
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from games.bots import hard, make_bot
from games.bots.base import Bot
from games.bots.cards import OTHER_TEAM, SEATS, TEAM_OF, is_red_three
from games.bots.determinize import determinize, laid_red_threes, unseen_cards
from games.bots.tournament import GameResult
from games.engine import Game
from games.engine.records import Action, Position, View

VARIANTS = ("oracle", "known", "hard")


class PileMemory:
    """Per seat, the cards it took from the discard pile and has not played since (R31: all but
    the top card join its active cards, face up for the whole table to see)."""

    def __init__(self) -> None:
        self.held: dict[str, Counter[str]] = {seat: Counter() for seat in SEATS}

    def observe(self, events: Iterable[dict]) -> None:
        for event in events:
            kind, seat = event["type"], str(event.get("seat"))
            if kind == "take_pile":
                self.held[seat].update(event["cards"][:-1])  # the top card (last) goes to the pickup meld
            elif kind == "meld":
                self._played(seat, [card for group in event["groups"] for card in group["cards"]])
            elif kind == "discard":
                self._played(seat, [event["card"]])
            elif kind == "undo":  # V7: the cards come back from the melds, face up
                self.held[seat].update(event["cards"])
            elif kind == "deal_start":
                self.held = {s: Counter() for s in SEATS}

    def _played(self, seat: str, cards: list[str]) -> None:
        # a copy played may be the remembered one or another of the same code: forget one either
        # way, so the memory never claims more than the seat holds
        held = self.held[seat]
        held.subtract(card for card in cards if held[card] > 0)
        self.held[seat] = +held


def known_world(view: View, rng: random.Random, memory: PileMemory) -> Position:
    """A determinization (`determinize`) in which every other seat holds the cards it is known to
    have taken from the pile; the rest of the unseen cards dealt at random."""
    seat = view["seat"]
    pool = Counter(unseen_cards(view, laid_red_threes(view)))
    fixed: dict[str, list[str]] = {}
    for other in SEATS:
        if other != seat:
            mine = Counter({card: min(count, pool[card]) for card, count in memory.held[other].items()})
            pool.subtract(mine)
            fixed[other] = sorted(mine.elements())
    loose = sorted((+pool).elements())
    rng.shuffle(loose)
    held = [card for card in loose if not is_red_three(card)]
    rest = [card for card in loose if is_red_three(card)]
    position = determinize(view, None)  # the public parts and the seat's own hand
    for other in SEATS:
        if other != seat:
            count = view["seats"][other]["cards"] - len(fixed[other])
            position["hands"][other] = " ".join(fixed[other] + held[:count])
            held = held[count:]
    rest = held + rest
    rng.shuffle(rest)
    for other in SEATS:
        if not view["seats"][other]["in_foot"]:
            size = view["seats"][other]["foot"]
            position["feet"][other], rest = " ".join(rest[:size]), rest[size:]
    position["stock"] = " ".join(rest)
    return position


def true_world(game: Game, rng: random.Random) -> Position:
    """The real table with only the stock's order shuffled."""
    position = game.to_position()
    stock = position["stock"].split()
    rng.shuffle(stock)
    position["stock"] = " ".join(stock)
    return position


class InformedHardBot(hard.HardBot):
    """The hard search playing its rollouts in worlds made by `world(view, rng)`."""

    def __init__(
        self, seed: int, world: Callable[[View, random.Random], Position], iterations: int = hard.LIVE_ITERATIONS
    ) -> None:
        super().__init__(seed, iterations=iterations)
        self.world = world

    def deal_world(self, view: View, rng: random.Random) -> Position:
        return self.world(view, rng)


def play_game(seed: int, variant: str, variant_team: str, iterations: int = hard.LIVE_ITERATIONS) -> GameResult:
    """One game: `variant` ("oracle", "known" or plain "hard") for `variant_team`, normal for the
    other team; seeded as `games.bots.tournament.play_game` seeds its bots."""
    game = Game.new(seed=seed)
    memory = PileMemory()
    bots: dict[str, Bot] = {}
    for index, seat in enumerate(SEATS):
        bot_seed = seed * 4 + index
        if TEAM_OF[seat] != variant_team:
            bots[seat] = make_bot("normal", bot_seed)
        elif variant == "oracle":
            bots[seat] = InformedHardBot(bot_seed, lambda view, rng: true_world(game, rng), iterations)
        elif variant == "known":
            bots[seat] = InformedHardBot(bot_seed, lambda view, rng: known_world(view, rng, memory), iterations)
        else:
            bots[seat] = make_bot("hard", bot_seed, iterations=iterations)
    actions = 0
    while game.turn is not None:
        seat = game.turn
        action: Action = bots[seat].act(game.view(seat))
        memory.observe(game.apply(seat, action))
        actions += 1
    totals = game.scores()["totals"]
    levels = {variant_team: variant, OTHER_TEAM[variant_team]: "normal"}
    return GameResult(seed, levels, dict(totals), game.view("S")["winner"], actions)


def play_pair(task: tuple[int, str, int]) -> list[GameResult]:
    seed, variant, iterations = task
    return [play_game(seed, variant, "NS", iterations), play_game(seed, variant, "EW", iterations)]


def play_pairs(variant: str, first_seed: int, pairs: int, iterations: int, workers: int) -> Iterator[list[GameResult]]:
    """Seat-swapped pairs of `variant` against normal, `workers` processes, in seed order."""
    tasks = [(first_seed + i, variant, iterations) for i in range(pairs)]
    if workers <= 1:
        yield from map(play_pair, tasks)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(play_pair, tasks)
