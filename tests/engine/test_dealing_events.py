"""Game.new(seed, events=[...]) tells what dealing deal 1 did (R8, R13): the deal's start, then
each red three of the dealt hands laid and replaced from the stock, in turn order from the first
player — the events a later deal's start carries inside the move that ended the deal before."""

from games.engine import Game


def dealing(seed: int) -> tuple[Game, list]:
    events: list = []
    return Game.new(seed, events=events), events


def test_the_dealing_events_start_with_the_deal_and_lay_the_dealt_red_threes():
    seed = next(seed for seed in range(200) if any(event["type"] == "red_three" for event in dealing(seed)[1]))
    game, events = dealing(seed)
    assert events[0] == {"type": "deal_start", "deal": 1, "dealer": "E", "turn": "S", "upcard": game.discard[0]}
    laid = [event for event in events if event["type"] == "red_three"]
    assert sorted(event["card"] for event in laid) == sorted(game.red_threes["NS"] + game.red_threes["EW"])
    for index, event in enumerate(events):
        if event["type"] == "red_three":  # R13: each replaced at once from the stock
            replacement = next(later for later in events[index + 1 :] if later["type"] == "draw")
            assert replacement["seat"] == event["seat"] and replacement["replacement"] is True


def test_the_events_do_not_change_the_deal():
    seed = 12345
    assert dealing(seed)[0].to_position() == Game.new(seed).to_position()
