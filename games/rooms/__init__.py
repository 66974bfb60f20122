"""The room service: the only code that changes a stored game, in one module per job.

One move = one transaction (games.rooms.moves): lock the Game row, check the version, apply the
action with the engine, append the Move, save the position and the version. After the commit the
room computes, for every listening seat and for spectators, the RFC 6902 patch from that seat's
previous view to its new one (games.rooms.patches) and the events redacted for it, and sends them
in one channel-layer message to the group `game.<id>` (games.rooms.broadcast); each consumer
forwards its own seat's part. docs/ROOMS.md says how a move is stored and why it is safe.

The parts, from the bottom up. Their order is the import contract `rooms-order` in .importlinter
(checked by `make lint`): a module imports only modules of a lower tier, never one of its own.

- config          the room's numbers (grace, heartbeat, next-deal timeout, bot delay)
- errors          RoomError, the room's refusals with stable codes
- faults          test-only crash injection at named points of a move (FOOT_FAULT)
- machine_idle    a look-back worker's wait while the machine's CPUs are busy (pure, no Django)
- purge           abandoned games, lobbies and idle players deleted (manage.py purge_games)
- metrics         the room's counters for GET /metrics (prometheus_client)
- log_context     which game and seat the running code serves, for the log lines
- live_games      the games this process played last, kept in memory between moves
- game_rows       the move's statements as plain SQL
- bot_runner      the pools where computer players think (importable without Django)
- stored          a stored game read back: the row, the engine game at its position, the replay
- patches         the generic JSON-patch diff between two views
- names           the nickname of each human seat's player
- daily_play      the daily's rules for play: its deadline (lapsed), ranked, no hint, deals kept until over
- seat_views      what each reader sees: a seat's view, the `state` message, the HTTP summary
- presence        who is connected, and who has been away past the grace
- stand_ins       the seats the computer moved for in the current turn, for an absent friend
- lesson          Learn to play's prepared deals and steps, with their done conditions (pure)
- broadcast       sending updates, refreshes and presence to a game's sockets
- bot_plans       which computer move is due now, or right after a move
- moves           the one writer of a move: the transaction, versions, MoveResult, next_deal
- creation        new games (solo, daily, friends lobbies, a test hook's prepared game), joining, starting
- database_threads the threads that serve the rooms' database calls, the bots' gate, retries
- listing         the games a player sits in, for GET /api/games and the home page
- lesson_room     a lesson game for a player, its current step and prompt (GET .../lesson)
- recap           what happened while a friend was away
- reactions       a seat's fixed reactions, one every few seconds, to every socket of the game
- rematch         Play again: the lobby that follows a finished friends game, offered to its players
- turns           the event loop's side of play: a person's move, the computers' turns, hints
- lookback        the look back after a deal: who may ask, the search in its own pool, the answer kept
- away            each process's wake-up at an absent friend's deadline
- heartbeats      every socket's heartbeat, batched: one task, one UPDATE, one Redis pipeline a tick

No module outside this package writes a Game or a Move (tests/rooms/test_only_rooms_write.py).
Callers (games.consumers, games.api, games.pages, the management commands) import each name
from the module that owns it; this package re-exports nothing.
"""
