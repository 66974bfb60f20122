"""Take pile pressed with nothing selected (issue 14): the engine's `take_choice` finds a take that
works from the same candidates as its options, or says why none does (R28–R31, R37, R40, R47)."""

from games.bots import make_bot
from games.engine import Game

from .helpers import game_at

NOT_DOWN = {"NS": False, "EW": False}


def test_a_team_that_is_down_takes_with_the_pair():  # R29 (b), R30
    game = game_at(hands={"S": "9C 9S 4H 5H"}, discard="5D 9D", melds={"NS": ["AC AD AH"]}, turn="S")
    choice = game.take_choice("S")
    assert choice == {"ok": True, "action": {"type": "take_pile", "cards": ["9C", "9S"]}, "points": 30}
    assert game.check("S", choice["action"])["ok"]


def test_before_the_team_is_down_the_choice_brings_the_groups_that_reach_the_minimum():  # R40, E8
    game = game_at(hands={"S": "9C 9S AC AD AH 4H 5H 6C 7D"}, discard="5D AS AH 9D", turn="S", down=NOT_DOWN)
    choice = game.take_choice("S")
    assert choice["ok"] and choice["points"] >= 50  # R37: deal 1's minimum
    action = choice["action"]
    assert sorted(action["cards"])[:2] == ["9C", "9S"]
    assert {"cards": ["AC", "AD", "AH"]} in action["groups"]  # the taken AS AH never count (R40)
    before = game.to_position()
    game.apply("S", action)
    assert game.down["NS"] and before != game.to_position()


def test_no_first_meld_within_reach_says_so():  # R37, R40
    game = game_at(hands={"S": "9C 9S 4H 5H 6C 7D"}, discard="5D 9D", turn="S", down=NOT_DOWN, deal=2)
    choice = game.take_choice(game.turn)
    assert choice["ok"] is False and choice["code"] == "take_cannot_reach_minimum" and choice["rule"] == "R40"
    assert choice["params"] == {"top": "9D", "minimum": 90}
    assert "90" in choice["message"]


def test_why_the_pile_cannot_be_taken_at_all():  # R28, R29 (a), (b), R26, R24
    no_pair = game_at(hands={"S": "9C 4H 5H"}, discard="5D 9D", melds={"NS": ["AC AD AH"]}, turn="S")
    assert no_pair.take_choice("S")["code"] == "no_matching_pair"
    three = game_at(hands={"S": "9C 9S 4H"}, discard="9D 3S", melds={"NS": ["AC AD AH"]}, turn="S")
    assert three.take_choice("S")["code"] == "pile_top_is_three"
    empty = game_at(hands={"S": "9C 9S 4H"}, discard="", melds={"NS": ["AC AD AH"]}, turn="S")
    assert empty.take_choice("S")["code"] == "pile_empty"
    played = game_at(hands={"S": "9C 9S 4H"}, discard="9D", melds={"NS": ["AC AD AH"]}, turn="S", phase="play")
    assert played.take_choice("S")["code"] == "already_drew"
    assert no_pair.take_choice("W")["code"] == "not_your_turn"


def test_in_the_foot_a_take_that_leaves_one_card_is_refused_with_its_reason():  # R47
    game = game_at(hands={"S": "9C 9S 4H"}, feet={"S": None}, discard="9D", melds={"NS": ["AC AD AH"]}, turn="S")
    choice = game.take_choice("S")
    assert choice["ok"] is False and choice["code"] == "must_keep_cards"


def test_the_choice_agrees_with_the_options_over_whole_games():  # options.take_pile is the same question
    for seed in (11, 12):
        game = Game.new(seed=seed)
        bots = {seat: make_bot("normal", seed) for seat in "SWNE"}
        compared = 0
        while game.phase != "over":
            seat = game.turn
            assert seat is not None
            if game.phase == "draw":
                choice = game.take_choice(seat)
                assert choice["ok"] is game.options(seat)["take_pile"], (seed, game.ply)
                if choice["ok"]:
                    assert game.check(seat, choice["action"])["ok"]
                compared += 1
            game.apply(seat, bots[seat].act(game.view(seat)))
        assert compared > 100
