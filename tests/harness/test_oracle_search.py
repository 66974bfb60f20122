"""bench_oracle's informed worlds (testsupport/oracle_search.py): the pile memory never claims a
card a seat does not hold, the remembered and the true worlds are positions the engine accepts and
that the seat cannot tell from its own view, and a seat-swapped pair plays to the end."""

import random
from collections import Counter

from games.bots import make_bot
from games.bots.cards import SEATS
from games.engine import Game
from testsupport.oracle_search import PileMemory, known_world, play_pair, true_world


def normal_game_with_memory(seed: int):
    """Every (game, view, memory) along a whole deal-1 of normal against normal, before each action."""
    game = Game.new(seed=seed)
    bots = {seat: make_bot("normal", seed * 4 + i) for i, seat in enumerate(SEATS)}
    memory = PileMemory()
    while game.turn is not None and game.deal == 1:
        seat = game.turn
        view = game.view(seat)
        yield game, view, memory
        memory.observe(game.apply(seat, bots[seat].act(view)))


def test_the_pile_memory_holds_only_cards_the_seat_still_has():
    remembered = 0
    for game, _view, memory in normal_game_with_memory(3):
        for seat in SEATS:
            held = Counter(game.hands[seat])
            assert not memory.held[seat] - held, (seat, memory.held[seat], held)
            remembered += sum(memory.held[seat].values())
    assert remembered > 0  # the deal had takes whose cards stayed in a hand for a while


def test_a_remembered_world_deals_the_taken_cards_back_and_shows_the_same_view():
    checked = 0
    for game, view, memory in normal_game_with_memory(3):
        seat = view["seat"]
        others = [s for s in SEATS if s != seat and memory.held[s]]
        if not others or game.ply % 3:
            continue
        world = Game.from_position(known_world(view, random.Random(game.ply), memory))
        assert world.view(seat) == view
        for other in others:
            assert not memory.held[other] - Counter(world.hands[other])
        checked += 1
    assert checked >= 5


def test_the_true_world_is_the_table_with_the_stock_shuffled():
    game, view, _memory = next(g for g in normal_game_with_memory(5) if g[0].ply == 40)
    world = Game.from_position(true_world(game, random.Random(1)))
    assert world.hands == game.hands and world.feet == game.feet and world.melds == game.melds
    assert Counter(world.stock) == Counter(game.stock) and world.stock != game.stock
    assert world.view(view["seat"]) == view


def test_a_pair_of_each_informed_variant_plays_to_the_end_seat_swapped():
    for variant in ("oracle", "known"):
        first, second = play_pair((11, variant, 4))
        assert first.levels == {"NS": variant, "EW": "normal"}
        assert second.levels == {"NS": "normal", "EW": variant}
        assert first.winner in ("NS", "EW", "draw") and first.actions > 100
