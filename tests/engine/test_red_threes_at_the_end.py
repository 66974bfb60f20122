"""R45 + R53 (iii): a foot picked up on an empty stock with several red threes in it."""

from games.engine import Game
from tests.engine.helpers import exhaust_stock, position


def test_every_red_three_of_a_foot_is_laid_when_the_stock_is_empty():  # R45, R53
    # Deal 4: West discards, North (empty hand) picks up a foot with two red threes, the stock is
    # empty: both are laid (+200), the deal ends, and the last table is a valid position.
    earlier = [{"NS": {"total": 0}, "EW": {"total": 0}}] * 3  # deals 1-3 already scored
    pos = exhaust_stock(
        position(
            deal=4,
            turn="W",
            phase="play",
            hands={"W": "9C 9S", "N": ""},
            scores=earlier,
            feet={"N": "3H 3D 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D"},
        )
    )
    game = Game.from_position(pos)
    events = game.apply("W", {"type": "discard", "card": "9C"})
    assert [e for e in events if e["type"] == "red_three"] == [
        {"type": "red_three", "seat": "N", "card": "3H"},
        {"type": "red_three", "seat": "N", "card": "3D"},
    ]
    assert game.phase == "over"
    last = game.scores()["deals"][-1]["NS"]
    assert last["red_threes"] == 100 * len(pos["red_threes"]["NS"].split()) + 200
    final = game.to_position()
    assert "3H" not in final["hands"]["N"] and "3D" not in final["hands"]["N"]
    assert Game.from_position(final).to_position() == final
