"""Games with undos (docs/RULES.md V7) for the bots' readers: the look back never judges a meld
that was taken back (nor the undo), the hint after an undo is legal, and bots stay legal at a
table that allows undo."""

import random

from games.bots import make_bot
from games.bots.hint import hint_step
from games.bots.lookback import look_back, seat_decisions, taken_back
from games.engine import Game, Rules

UNDO = {"type": "undo"}


def deal_with_undos(seed: int) -> tuple[dict, list[tuple[str, dict]], set[int]]:
    """Deal 1 under undo played by normal bots, South taking back its first meld action of most
    turns and playing on: the start, the moves, and the indices of the moves taken back."""
    game = Game.new(seed=seed, rules=Rules(undo=True))
    bots = {seat: make_bot("normal", seed=seed) for seat in "SWNE"}
    rng = random.Random(seed)
    start, moves, undone = game.to_position(), list[tuple[str, dict]](), set[int]()
    undone_this_turn = False
    while game.deal == 1 and game.turn is not None:
        seat = game.turn
        if seat == "S" and game.options("S")["undo"] and not undone_this_turn and rng.random() < 0.8:
            undone |= {len(moves) - 1, len(moves)}
            action, undone_this_turn = UNDO, True
        else:
            action = bots[seat].act(game.view(seat))
        assert game.check(seat, action)["ok"], action  # the bots stay legal at a table with undo
        game.apply(seat, action)
        moves.append((seat, action))
        if game.turn != seat:
            undone_this_turn = False
    return start, moves, undone


def test_the_look_back_skips_melds_taken_back_and_the_undos():  # V7, issue #14 item 6
    start, moves, undone = deal_with_undos(4)
    assert undone, "South took something back"
    assert taken_back(start, moves) == undone
    numbers = {d.number for d in seat_decisions(start, moves, "S", 4, ())}
    assert numbers and not numbers & undone
    result = look_back(start, moves, "S", seed=4, rollouts=60)
    assert all(item["move"] not in undone for item in result["items"])
    assert result["decisions"] == len(numbers)


def test_the_hint_after_an_undo_is_legal():  # V7, R22
    game = Game.new(seed=9, rules=Rules(undo=True))
    bot = make_bot("normal", seed=9)
    hinted = 0
    while game.deal == 1 and game.turn is not None:
        seat = game.turn
        game.apply(seat, bot.act(game.view(seat)))
        if game.turn == seat and game.options(seat)["undo"]:
            game.apply(seat, UNDO)
            step = hint_step(bot, game.view(seat))
            assert step["actions"]
            for action in step["actions"]:
                assert game.check(seat, action)["ok"], action
                game.apply(seat, action)
                if game.turn != seat:
                    break
            hinted += 1
    assert hinted > 0
