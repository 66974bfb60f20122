"""The game's recent events for the `state` message: the moves of the current deal (at most the
last RECENT_VERSIONS versions), each with its version, so that a page that reloads can tell the
game so far again. Redacted for the reader exactly as live events are (engine.redact_events):
never a card hidden from that seat.

Worked out by replaying the stored move log from the initial position, and kept in memory per
game with the replayed engine game (games.rooms.live_games.REPLAYED: an LRU, dropped when the
game ends; a cache, never the truth), so that the next `state` only replays the moves made
since. The events of version 0 are those of dealing deal 1 (its red threes laid from the dealt
hands), recomputed from the seed when the game began with the deal its seed gives. A computer
move's stored reason follows its events, as it did live.
"""

from typing import Any

from games import engine
from games.engine.records import Event
from games.models import Game
from games.rooms.live_games import REPLAYED, Replayed
from games.rooms.moves import with_reason

RECENT_VERSIONS = 60


def trimmed(entries: list[tuple[int, list[Event]]]) -> list[tuple[int, list[Event]]]:
    """From the version that started the current deal on (a deal's start rides on the move that
    ended the one before), and at most the last RECENT_VERSIONS versions."""
    start = 0
    for index, (_version, events) in enumerate(entries):
        if any(event["type"] == "deal_start" for event in events):
            start = index
    return entries[start:][-RECENT_VERSIONS:]


def dealing_events(game: Game) -> list[Event]:
    """The events of dealing deal 1 if the game began with the deal its seed gives; none for a
    game set up from another position (the test hook's prepared positions)."""
    position = game.initial_position
    if not position or position.get("deal") != 1 or position.get("ply"):
        return []
    events: list[Event] = []
    dealt = engine.Game.new(game.seed, events=events, rules=game.engine_rules())
    return events if dealt.to_position() == position else []


def replayed_to(game: Game, entry: Replayed | None) -> Replayed:
    """The entry brought to the row's version: the moves since the entry's version applied to its
    engine game, or the whole log replayed when there is no usable entry."""
    if entry is None or entry.version > game.version:
        entry = Replayed(0, engine.Game.from_position(game.initial_position), [(0, dealing_events(game))])
    moves = game.moves.filter(seq__gt=entry.version, seq__lte=game.version).order_by("seq")
    for seq, seat, action, reason in moves.values_list("seq", "seat", "action", "reason"):
        entry.entries.append((seq, with_reason(entry.engine_game.apply(seat, action), seat, reason)))
        entry.version = seq
        if len(entry.entries) > 2 * RECENT_VERSIONS:
            entry.entries = trimmed(entry.entries)
    entry.entries = trimmed(entry.entries)
    return entry


def recent_events(game: Game, seat: str | None) -> list[dict[str, Any]]:
    """[{"v": version, "events": [...]}, ...] of the current deal up to the row's version, redacted
    for `seat` (None: a spectator); empty for a lobby."""
    if game.status == Game.LOBBY or game.initial_position is None:
        return []
    entry = replayed_to(game, REPLAYED.take(game.id))
    if entry.version != game.version:  # the move log is behind the row: never guess
        return []
    if game.status != Game.FINISHED:  # a finished game has no next move to replay
        REPLAYED.put(game.id, entry)
    return [{"v": version, "events": engine.redact_events(events, seat)} for version, events in entry.entries]
