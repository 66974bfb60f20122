"""A computer move's reason on its way through the room: taken from the bot's decision, stored
with the Move, told to every listener as a "reason" event after the move's events, and told
again in the `state`'s recent events after a reload (docs/PROTOCOL.md)."""

import pytest

from games import bots
from games.bots.reasons import valid
from games.engine import Game as EngineGame
from games.models import Game, Move
from games.recent_events import recent_events
from games.rooms.bot_plans import plan_bot_move
from games.rooms.computer_turns import play_computer_turn
from games.rooms.creation import create_game, start
from games.rooms.moves import apply_move
from games.rooms.seat_views import PUBLIC
from games.rooms.stored import load
from games.rooms.turns import decide_here
from players.models import Player

from .simple_player import simple_action

pytestmark = pytest.mark.django_db


def loaded(game_id) -> Game:
    """The game as the room holds it (live or stored): it exists in every test here."""
    found = load(game_id)
    assert found is not None
    return found


def test_a_bot_move_carries_its_reason_to_every_listener_and_into_the_recent_events():
    game, _ = create_game(Player.objects.create(), "solo", "normal")
    game.seed = 3
    start(game)
    for version in (0, 1):  # South (the person) draws and discards (R25, R26)
        view = EngineGame.from_position(loaded(game.id).position).view("S")
        apply_move(game.id, "S", simple_action(view), version)
    plan = plan_bot_move(game.id)
    assert plan is not None and plan.seat == "W" and plan.level == "normal"

    result = play_computer_turn(game.id, plan, decide_here)[0]

    stored = Move.objects.get(game_id=game.id, seq=result.version)
    assert stored.seat == "W" and stored.reason is not None and valid(stored.reason)
    told = {"type": "reason", "seat": "W", "code": stored.reason["code"], "params": stored.reason["params"]}
    for part in result.parts.values():  # the same for South and for spectators: it names nothing hidden
        assert part["events"][-1] == told
    assert result.parts[PUBLIC]["events"][-1] == told
    recent = recent_events(loaded(game.id), "S")
    assert recent[-1]["v"] == result.version and recent[-1]["events"][-1] == told


def test_a_persons_move_has_no_reason():
    game, _ = create_game(Player.objects.create(), "solo", "normal")
    start(game)
    view = EngineGame.from_position(loaded(game.id).position).view("S")
    result = apply_move(game.id, "S", simple_action(view), 0)
    assert Move.objects.get(game_id=game.id, seq=1).reason is None
    assert all(event["type"] != "reason" for part in result.parts.values() for event in part["events"])


def public_ranks(position: dict) -> set[str]:
    """The ranks of the cards every seat sees in a stored position: the discard pile and the melds."""
    cards = (position["discard"] or "").split()
    for team in ("NS", "EW"):
        for meld in position["melds"][team]:
            cards += meld.split()
    return {"wild" if card == "JK" or card[0] == "2" else card[0] for card in cards}


def test_over_a_whole_game_every_reason_sent_names_only_public_ranks_and_counts():
    """The normal bots play all four seats through apply_move with their reasons; every reason
    event every listener is sent names only counts, pile kinds and ranks on the table after the
    move (never a card code: games.bots.reasons)."""
    game, _ = create_game(Player.objects.create(), "solo", "normal")
    game.seed = 4
    start(game)
    players = {seat: bots.make_bot("normal", index) for index, seat in enumerate("SWNE")}
    version, told = 0, 0
    while (seat := EngineGame.from_position(loaded(game.id).position).turn) is not None:
        view = EngineGame.from_position(loaded(game.id).position).view(seat)
        action, why = players[seat].act_explained(view)
        result = apply_move(game.id, seat, action, version, why)
        after = loaded(game.id).position
        assert after is not None
        for part in result.parts.values():
            for event in (e for e in part["events"] if e["type"] == "reason"):
                told += 1
                assert event["seat"] == seat and valid({"code": event["code"], "params": event["params"]})
                for name, value in event["params"].items():
                    if name == "rank":
                        assert value in public_ranks(after), (event, action)
                    else:
                        assert isinstance(value, int) or value in ("clean", "dirty", "wild"), event
        version = result.version
    assert loaded(game.id).status == "finished" and told > 300
