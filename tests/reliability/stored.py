"""Read a game's stored rows straight from a server's database (SQLite file or PostgreSQL URL).

The tests look at what is really written, not at what the server says, to prove that no move is
lost or half-applied: Move rows 1..v, Game.version v, and the log replaying to Game.position.
"""

import json
import sqlite3

from games.engine import Game as EngineGame


def _rows(database_url: str, query: str, game_id: str) -> list:
    if database_url.startswith("sqlite:///"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=20) as db:
            return db.execute(query.replace("%s", "?"), (game_id.replace("-", ""),)).fetchall()
    import psycopg

    with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1)) as db:
        return db.execute(query, (game_id,)).fetchall()


def _json(value):
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def stored_moves(database_url: str, game_id: str) -> tuple[dict, list[tuple[int, str, dict]]]:
    """(initial position, [(seq, seat, action)] in seq order)."""
    ((initial,),) = _rows(database_url, "select initial_position from games_game where id = %s", game_id)
    moves = _rows(database_url, "select seq, seat, action from games_move where game_id = %s order by seq", game_id)
    return _json(initial), [(seq, seat, _json(action)) for seq, seat, action in moves]


def stored_game(database_url: str, game_id: str) -> tuple[int, dict]:
    """(Game.version, Game.position)."""
    ((version, position),) = _rows(database_url, "select version, position from games_game where id = %s", game_id)
    return version, _json(position)


def assert_log_is_whole(database_url: str, game_id: str) -> int:
    """Moves are exactly 1..version and replay to the stored position (nothing half-applied); returns v."""
    initial, moves = stored_moves(database_url, game_id)
    version, position = stored_game(database_url, game_id)
    assert [seq for seq, _, _ in moves] == list(range(1, version + 1)), "Move rows and Game.version disagree"
    replayed = EngineGame.from_position(initial)
    for _seq, seat, action in moves:
        replayed.apply(seat, action)
    assert replayed.to_position() == position, "the stored position is not the replay of the stored moves"
    return version
