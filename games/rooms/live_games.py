"""The games this process played last, kept in memory between moves: a cache, never the truth.

A move used to rebuild the engine game from its stored position and compute every listener's
view twice (before and after) — most of a move's CPU. Here the engine game and the views a move
left behind are kept, keyed by game id, with the version they belong to. The room service uses
an entry only when its version equals the version it read from the locked Game row, so a move
made by another process (or a restart, or a move this process rolled back) is simply a miss and
the game is rebuilt from the database as before.

A move takes its game's entry out (it then owns the engine game while it applies the action) and
puts the new one back only after its transaction committed; a refused action, whose engine game
is unchanged (the engine plans before it commits), is put back as it was. Bounded: the least
recently used games are dropped past FOOT_LIVE_GAMES entries (docs/DEPLOY.md; what the entries
weigh is in docs/PERFORMANCE.md), and a finished game is not kept.

Beside them, REPLAYED keeps per game the engine game that games.recent_events replayed for a
`state` message and the current deal's events (the same bound). It lives here so that the move
that finishes a game drops both entries: a `state` sent when a socket opened used to leave its
entry until a thousand other games pushed it out, about 30 KB a finished game (docs/PERFORMANCE.md,
the soak).

Calls nothing of the room service (it names the engine's and the models' Game, for their types);
games.rooms.moves owns the entries.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.engine import Game as EngineGame
from games.engine.records import Event
from games.models import Game, GameId


@dataclass
class LiveGame:
    version: int
    engine_game: EngineGame  # the game at `version`; owned by whoever took it out
    # listener key (a seat, or games.rooms.seat_views.PUBLIC) -> its view at `version`; read-only
    views: dict[str, Any]
    turn: str | None = None  # whose turn it is at `version` (None: the game is over)
    row: Game | None = None  # the Game row as the move that made `version` stored it (no positions read)


class LiveGames:
    """A thread-safe LRU map of game id -> LiveGame."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._entries: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: GameId, version: int) -> LiveGame | None:
        """Remove and return the game's entry if it is at `version` (a stale entry is dropped)."""
        with self._lock:
            entry = self._entries.pop(str(game_id), None)
        return entry if entry is not None and entry.version == version else None

    def peek(self, game_id: GameId, version: int) -> LiveGame | None:
        """The entry at `version`, left in place: read its `views` and `turn`, never its engine game
        (a move may take it out and change it at any moment)."""
        with self._lock:
            entry = self._entries.get(str(game_id))
            if entry is None or entry.version != version:
                return None
            self._entries.move_to_end(str(game_id))
            return entry

    def views(self, game_id: GameId, version: int) -> dict[str, Any]:
        """The cached views of the game at `version` (empty when there are none)."""
        entry = self.peek(game_id, version)
        return entry.views if entry is not None else {}

    def put(self, game_id: GameId, entry: LiveGame) -> None:
        with self._lock:
            self._entries[str(game_id)] = entry
            self._entries.move_to_end(str(game_id))
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def forget(self, game_id: GameId) -> None:
        with self._lock:
            self._entries.pop(str(game_id), None)

    def __len__(self) -> int:
        return len(self._entries)


LIVE = LiveGames(settings.FOOT_LIVE_GAMES)


@dataclass
class Replayed:
    version: int
    engine_game: EngineGame  # at `version`, owned by whoever took the entry out
    entries: list[tuple[int, list[Event]]]  # [(version, raw events)] of the current deal, oldest first


class ReplayedGames:
    """A thread-safe LRU map: game id -> Replayed. A reader takes an entry out while it works."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._entries: OrderedDict[str, Replayed] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: GameId) -> Replayed | None:
        with self._lock:
            return self._entries.pop(str(game_id), None)

    def put(self, game_id: GameId, entry: Replayed) -> None:
        with self._lock:
            self._entries[str(game_id)] = entry
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


REPLAYED = ReplayedGames(settings.FOOT_LIVE_GAMES)  # as many as the live games they follow


def forget_finished(game_id: GameId) -> None:
    """The game is over: no move follows and a `state` replays it afresh, so neither cache keeps it."""
    LIVE.forget(game_id)
    REPLAYED.take(game_id)
