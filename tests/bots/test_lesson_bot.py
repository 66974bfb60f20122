"""The lesson's quiet computer seats (games.bots.lesson): they draw, discard their lowest natural,
and never meld or take the pile, legally, turn after turn (R25, R27, R47)."""

from games import engine
from games.bots import make_bot
from games.bots.lesson import discard_order
from games.rooms.lesson import BASICS, FOOT, lesson_position


def test_lesson_bots_only_draw_and_discard_legally_for_many_turns():  # R25, R27
    for part in (BASICS, FOOT):
        game = engine.Game.from_position(lesson_position(part))
        bots = {seat: make_bot("lesson", index) for index, seat in enumerate("SWNE")}
        for _ply in range(240):
            seat = game.turn
            if seat is None:  # the game is over
                break
            action = bots[seat].act(game.view(seat))
            assert action["type"] in ("draw", "discard"), action
            assert game.check(seat, action)["ok"], (seat, action)
            game.apply(seat, action)
        assert all(not game.melds[team] or part == FOOT for team in ("NS", "EW"))


def test_a_lesson_bot_throws_its_lowest_natural_and_keeps_wild_cards_and_threes():
    assert sorted(["JK", "3S", "KD", "4H", "2C", "4C"], key=discard_order)[:3] == ["4C", "4H", "KD"]
    game = engine.Game.from_position(lesson_position(BASICS))
    game.apply("S", {"type": "draw"})
    game.apply("S", {"type": "discard", "card": "5C"})
    west = make_bot("lesson", 1)
    game.apply("W", west.act(game.view("W")))  # the draw
    assert west.act(game.view("W")) == {"type": "discard", "card": "4C"}  # West's lowest
