"""Hidden information over a whole game: what the room sends a seat never names a card that seat
cannot see (another seat's cards, an unpicked foot, the stock).

The real bots play all four seats through `apply_move` (melds, takes, feet, going out);
every seat's part of every move (the patch and the events the consumer forwards) and the seat's
whole state every few versions are checked against the positions before and after the move.
tests/rooms/test_live_solo.py checks the frames a real socket received the same way.
"""

import pytest

from games import bots
from games.engine import Game as EngineGame
from games.models import SEATS, Game
from games.rooms.creation import create_game, start
from games.rooms.moves import apply_move
from games.rooms.seat_views import PUBLIC, state_message
from players.models import Player

from .live import cards_in

pytestmark = pytest.mark.django_db
SEED = 0
RED_THREES = {"3H", "3D"}  # laid face up the moment they are drawn (R34)


def visible_cards(position: dict, seat: str | None) -> set[str]:
    seen = set((position["discard"] or "").split())
    if seat is not None:
        seen |= set((position["hands"][seat] or "").split())
    for team in ("NS", "EW"):
        for meld in position["melds"][team]:
            seen |= set(meld.split())
        seen |= set((position["red_threes"][team] or "").split())
    return seen


def own_drawn_cards(events: list, seat: str | None) -> set[str]:
    """Cards the seat drew itself: it sees them even when the deal ended in the same action."""
    return {
        card for event in events if event["type"] == "draw" and event["seat"] == seat for card in event.get("cards", [])
    }


def test_no_seat_is_ever_sent_a_card_it_cannot_see():
    player = Player.objects.create()
    game, _ = create_game(player, "solo", "easy")
    # A fixed deal: some seeds end the game with a foot pickup whose red three finds the stock empty,
    # and the engine then refuses its own final position (reported to the engine's owner).
    game.seed = SEED
    # Every seat a person's, so that every seat's part of every update is sent and checked.
    game.mode = Game.FRIENDS
    game.seats = {seat: {"player": str(Player.objects.create().id)} for seat in SEATS}
    start(game)
    players = {seat: bots.make_bot("easy", index) for index, seat in enumerate(SEATS)}
    position = game.position
    assert position is not None  # start() dealt
    checked = 0
    while True:
        engine_game = EngineGame.from_position(position)
        seat = engine_game.turn
        if seat is None:
            break
        action = players[seat].act(engine_game.view(seat))
        result = apply_move(game.id, seat, action, checked)
        after = Game.objects.get(pk=game.id).position
        assert after is not None
        for viewer in (*SEATS, None):
            part = result.parts[viewer or PUBLIC]
            allowed = visible_cards(position, viewer) | visible_cards(after, viewer) | cards_in(action) | RED_THREES
            allowed |= own_drawn_cards(part["events"], viewer)
            leaked = cards_in(part) - allowed
            assert not leaked, f"v{result.version}: {viewer or 'spectator'} was sent {leaked} ({action})"
        checked = result.version
        if checked % 25 == 0:
            stored = Game.objects.get(pk=game.id)
            for viewer in (*SEATS, None):
                state = state_message(stored, viewer)
                assert not cards_in(state) - visible_cards(after, viewer) - RED_THREES
                assert state["view"] is not None and state["view"].get("seat") == viewer
        position = after
    assert Game.objects.get(pk=game.id).status == Game.FINISHED and checked > 300
