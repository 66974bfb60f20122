"""The hint's whole step (games.bots.hint): what it holds, where it stops, and that a player who
plays every step it offers is never refused (docs/BOTS.md "Hints": the refusal rate)."""

from __future__ import annotations

import pytest

from games.bots import make_bot
from games.bots.hint import hint_step
from games.engine import Game

from .support import game_at


def seat_bot(seed: int, seat: str):
    """The hint's bot as the room seeds it (games.rooms.bot_runner.bot_seed)."""
    return make_bot("normal", (seed * 4 + "SWNE".index(seat)) % (2**63))


def play_step(game: Game, seat: str, step: dict) -> int:
    """Send the step's actions in order, as the page's Play the hint does; returns the refusals."""
    refused = 0
    for action in step["actions"]:
        if not game.check(seat, action)["ok"]:
            return refused + 1
        game.apply(seat, action)
    return refused


def test_the_draw_phase_step_is_one_action():  # R25: the draw shows new cards, so the step ends there
    game = game_at(hands={"S": "9C 4H 5H 6C 7D 8S TC JD QS KH 4C 5C KD"}, discard="5D 9D", turn="S", phase="draw")
    step = hint_step(seat_bot(1, "S"), game.view("S"))
    assert step["actions"] == [{"type": "draw"}]
    assert step["parts"] == [{"do": "draw"}]


def test_a_first_lay_down_of_two_melds_is_set_aside_then_laid_down():  # R38, R42
    game = game_at(
        hands={"S": "7S 7D 7C KS KH KD KC 4H 9C 5D"},
        turn="S",
        phase="play",
        down={"NS": False, "EW": False},
    )
    step = hint_step(seat_bot(1, "S"), game.view("S"))
    lay_down = next(part for part in step["parts"] if part["do"] == "lay_down")
    aside = [part["cards"] for part in step["parts"][: step["parts"].index(lay_down)]]
    assert sorted(map(sorted, aside)) == [["7C", "7D", "7S"], ["KC", "KD", "KH", "KS"]]
    assert lay_down["points"] == 55  # R39: 15 + 40, neither alone reaches deal 1's 50 (R37)
    assert step["actions"][-1]["type"] == "discard"  # the step goes on to the end of the turn (R25)
    assert step["parts"][-1] == {"do": "discard", "card": step["actions"][-1]["card"]}
    assert play_step(game, "S", step) == 0


def test_an_addition_then_the_discard():  # R21, R25
    game = game_at(hands={"S": "JD 4C 8H QS"}, melds={"NS": ["JC JH JS"]}, turn="S", phase="play")
    step = hint_step(seat_bot(2, "S"), game.view("S"))
    assert {"do": "add", "cards": ["JD"], "to": "J"} in step["parts"]
    assert step["parts"][-1]["do"] == "discard"
    assert [a["type"] for a in step["actions"]][-1] == "discard"
    assert play_step(game, "S", step) == 0
    assert game.turn == "W"


def test_a_take_for_the_first_meld_names_its_groups_and_points():  # R40
    game = game_at(
        hands={"S": "9C 9S AC AD AH 4H 5H 6C 7D 8S TC JD QS"},
        discard="5D KS KH 9D",
        turn="S",
        phase="draw",
        down={"NS": False, "EW": False},
    )
    step = hint_step(seat_bot(3, "S"), game.view("S"))
    assert [a["type"] for a in step["actions"]] == ["take_pile"]
    take = step["parts"][-1]
    assert take["do"] == "take_pile" and sorted(take["cards"])[:2] == ["9C", "9S"]
    assert take["points"] >= 50  # R37: deal 1's minimum, reached with the groups set aside
    assert all(part["do"] == "set_aside" for part in step["parts"][:-1])
    assert play_step(game, "S", step) == 0 and game.down["NS"]


def test_the_step_stops_when_the_foot_is_picked_up():  # R44: the foot's cards are unseen until then
    game = game_at(hands={"S": "7C 7D"}, melds={"NS": ["7H 7S 7C"]}, turn="S", phase="play")
    step = hint_step(seat_bot(4, "S"), game.view("S"))
    if step["parts"][-1] == {"do": "foot"}:
        assert step["actions"][-1]["type"] == "meld"
    else:  # the bot kept a card to discard: the turn ends with it
        assert step["actions"][-1]["type"] == "discard"
    assert play_step(game, "S", step) == 0


def test_no_step_when_it_is_not_the_seats_turn():
    game = Game.new(seed=3)
    assert hint_step(seat_bot(3, "W"), game.view("W")) == {"actions": [], "parts": []}


def hinted_games(seeds) -> tuple[int, int, int]:
    """(steps, actions, refusals) over whole games where every seat plays only the hints' steps."""
    steps = actions = refused = 0
    for seed in seeds:
        game = Game.new(seed=seed)
        bots = {seat: seat_bot(seed, seat) for seat in "SWNE"}
        while game.phase != "over":
            seat = game.turn
            assert seat is not None  # a game not over has a seat to play
            step = hint_step(bots[seat], game.view(seat))
            assert step["actions"], f"no step for {seat} at ply {game.ply}"
            steps += 1
            actions += len(step["actions"])
            refused += play_step(game, seat, step)
            assert refused == 0, (seed, game.ply, step)
    return steps, actions, refused


def test_whole_games_played_by_the_hints_are_never_refused():  # R22: every hinted action is legal
    steps, actions, refused = hinted_games(range(1, 3))
    assert refused == 0 and steps > 500 and actions > steps


@pytest.mark.slow
def test_many_games_played_by_the_hints_are_never_refused():
    steps, actions, refused = hinted_games(range(100, 150))
    assert refused == 0 and actions > steps > 10000
