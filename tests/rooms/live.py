"""What the live room tests read besides the sockets: the cards a frame names, and a game as a
server stored it in its SQLite file. The players are testsupport.ws_player.WsPlayer."""

import json
import re
import sqlite3

CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK)$")


def cards_in(value) -> set[str]:
    """Every card code a JSON value names: in strings, keys and patch paths."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if CARD.match(str(key)):
                found.add(key)
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    elif isinstance(value, str):
        for part in value.replace("/", " ").split():
            if CARD.match(part):
                found.add(part)
    return found


def stored_game(sqlite_path: str, game_id: str) -> tuple[dict, list[tuple[int, str, dict]]]:
    """(initial position, [(seq, seat, action)]) read straight from a server's SQLite file."""
    with sqlite3.connect(sqlite_path) as db:
        hex_id = game_id.replace("-", "")
        (initial,) = db.execute("select initial_position from games_game where id = ?", (hex_id,)).fetchone()
        moves = db.execute(
            "select seq, seat, action from games_move where game_id = ? order by seq", (hex_id,)
        ).fetchall()
    return json.loads(initial), [(seq, seat, json.loads(action)) for seq, seat, action in moves]


def stored_version(sqlite_path: str, game_id: str) -> tuple[int, dict]:
    with sqlite3.connect(sqlite_path) as db:
        version, position = db.execute(
            "select version, position from games_game where id = ?", (game_id.replace("-", ""),)
        ).fetchone()
    return version, json.loads(position)
