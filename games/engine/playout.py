"""Random legal play: candidate actions of every kind, for benchmarks, property tests and the
'random' bot. It uses only the public surface (options, check) so it can never play an illegal move.
"""

from __future__ import annotations

import random
from collections import defaultdict

from games.engine.cards import is_natural, is_wild
from games.engine.firstmeld import best_new_melds
from games.engine.game import Game
from games.engine.options import take_pile_candidates
from games.engine.records import Action
from games.engine.seats import TEAM_OF


def candidate_actions(game: Game, seat: str, rng: random.Random) -> list[Action]:
    """A varied list of plausible actions for the seat to act (some may be refused by `check`)."""
    options = game.options(seat)
    if game.phase == "draw":
        takes = list(take_pile_candidates(game, seat, options["pile_cards"])) if options["take_pile"] else []
        return takes + [{"type": "draw"}]
    hand = game.hands[seat]
    actions: list[Action] = []
    team = TEAM_OF[seat]
    if not game.down[team]:
        _, groups = best_new_melds(hand)
        if groups:
            actions.append({"type": "meld", "groups": [{"cards": g} for g in groups]})
    else:
        by_rank: defaultdict[str, list[str]] = defaultdict(list)
        for card in hand:
            by_rank["wild" if is_wild(card) else card[0]].append(card)
        for rank, cards in by_rank.items():
            if rank != "wild" and is_natural(cards[0]) and len(cards) >= 3:
                actions.append({"type": "meld", "groups": [{"cards": cards[: rng.randint(3, min(7, len(cards)))]}]})
        for rank, cards in options["add_to"].items():
            actions.append({"type": "meld", "groups": [{"cards": [rng.choice(cards)], "to": rank}]})
        wilds = by_rank.get("wild", [])
        if len(wilds) >= 3:
            actions.append({"type": "meld", "groups": [{"cards": wilds[:3]}]})
    rng.shuffle(actions)
    discards = [{"type": "discard", "card": c} for c in sorted(set(hand))]
    rng.shuffle(discards)
    return actions + discards


def random_legal_action(game: Game, seat: str, rng: random.Random) -> Action:
    """One legal action: a random meld or take when one is legal (often), otherwise a draw or discard."""
    candidates = candidate_actions(game, seat, rng)
    for action in candidates:
        if (action["type"] in ("discard", "draw") or rng.random() < 0.85) and game.check(seat, action)["ok"]:
            return action
    for action in candidates:
        if game.check(seat, action)["ok"]:
            return action
    raise AssertionError("no legal action found")  # never: draw or some discard is always legal


def play_random_game(
    seed: int | str, rng_seed: int = 0, max_actions: int = 20000
) -> tuple[Game, list[tuple[str, Action]]]:
    """Play a whole game with random legal actions; returns (game, log of (seat, action))."""
    game = Game.new(seed)
    rng = random.Random(rng_seed)
    log: list[tuple[str, Action]] = []
    while game.turn is not None and len(log) < max_actions:  # no turn: the game is over
        seat = game.turn
        action = random_legal_action(game, seat, rng)
        game.apply(seat, action)
        log.append((seat, action))
    return game, log
