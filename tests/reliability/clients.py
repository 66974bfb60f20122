"""What the reliability tests count in positions and frames: the cards; and a game with a deal
played to its end, to post to the test hook. The clients themselves are
testsupport.clients.Browser and testsupport.ws_player.WsPlayer."""

import re

from games import bots
from games.engine import Game as EngineGame

CARD = re.compile(r"^(?:[4-9TJQKA23][CDHS]|JK)$")
TOTAL_CARDS = 270  # R1: five 54-card decks


def cards_in_position(position: dict) -> int:
    """How many cards a stored position holds, wherever they are (must be 270, R1)."""

    def count(text) -> int:
        return len(text.split()) if text else 0

    total = count(position["stock"]) + count(position["discard"])
    total += sum(count(cards) for cards in position["hands"].values())
    total += sum(count(cards) for cards in position["feet"].values() if cards)
    total += sum(count(meld) for melds in position["melds"].values() for meld in melds)
    total += sum(count(cards) for cards in position["red_threes"].values())
    return total


def cards_named(value) -> set[str]:
    """Every card code a JSON value names: in strings, keys and patch paths."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if CARD.match(str(key)):
                found.add(key)
            found |= cards_named(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_named(item)
    elif isinstance(value, str):
        for part in value.replace("/", " ").split():
            if CARD.match(part):
                found.add(part)
    return found


def a_finished_first_deal() -> dict:
    """A new game's position and the moves of its first deal played to its end by easy bots."""
    game = EngineGame.new(seed=24)
    start = game.to_position()
    players = {seat: bots.make_bot("easy", seed=1) for seat in "SWNE"}
    moves = []
    while game.deal == 1:
        seat = game.turn
        assert seat is not None
        action = players[seat].act(game.view(seat))
        game.apply(seat, action)
        moves.append([seat, action])
    return {"position": start, "moves": moves, "level": "easy"}
