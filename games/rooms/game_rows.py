"""The statements of every move, as plain SQL: lock and read the Game row, then write the new
version and append the Move (on PostgreSQL in one statement, one round trip). Only
games.rooms.moves calls them, inside the move's transaction (and games.rooms.bot_plans reads the
row to plan a computer move). Calls games.models only.

Why not the ORM here: building and compiling these three queries through the ORM cost more CPU
per move than the engine, the views and the patches together (docs/PERFORMANCE.md, "What a move
costs"); on PostgreSQL every round trip also waits on the network. The SQL is built
once from the models' own table and column names, values go through each field's own conversion
to and from the database (`get_db_prep_save`, the field's converters), and the rows come back as
ordinary `Game` instances (`Game.from_db`), so the rest of the room service cannot tell. The
positions are not read: a move uses the in-memory game (games.rooms.live_games), and a cache miss
reads them through the instance's deferred fields.
"""

import datetime
from functools import cache
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from games.engine.records import Action
from games.models import Game, GameId, Move

# What a move needs of the row; `initial_position` and `position` stay deferred.
GAME_FIELDS = (
    "id",
    "seed",
    "mode",
    "daily_date",
    "ranked",
    "lapsed",
    "level",
    "seats",
    "host",
    "invite_code",
    "status",
    "version",
    "awaiting",
    "awaiting_since",
    "created",
    "updated",
)
WRITTEN_FIELDS = ("version", "position", "status", "awaiting", "awaiting_since", "updated")
MOVE_FIELDS = ("game", "seq", "seat", "action", "reason", "created")

StoredMove = tuple[str, Action, dict[str, Any] | None]  # seat, action, a computer move's reason


def _quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def _field(model: type[models.Model], name: str) -> "models.Field[Any, Any]":
    """The field `name` of `model`, which must be a column (get_field also finds reverse relations)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or field.column is None:
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def _column(model: type[models.Model], name: str) -> str:
    """The quoted column name of the field `name` of `model`."""
    return _quoted(str(_field(model, name).column))


@cache
def _statements(vendor: str) -> dict[str, Any]:
    """The SQL of the move's statements for this database (`vendor` keys the cache)."""
    game_table, move_table = _quoted(Game._meta.db_table), _quoted(Move._meta.db_table)
    game_columns = [_column(Game, name) for name in GAME_FIELDS]
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    pk, version, status, awaiting = (_column(Game, name) for name in ("id", "version", "status", "awaiting"))
    written = ", ".join(f"{_column(Game, name)} = %s" for name in WRITTEN_FIELDS)
    move_columns = ", ".join(_column(Move, name) for name in MOVE_FIELDS)
    select = f"SELECT {', '.join(game_columns)} FROM {game_table} WHERE {pk} = %s"
    update = f"UPDATE {game_table} SET {written} WHERE {pk} = %s AND {version} = %s"
    placeholders = ", ".join(["%s"] * len(MOVE_FIELDS))
    return {
        "read": select,
        "read_many": f"SELECT {', '.join(game_columns)} FROM {game_table} WHERE {pk} IN ",
        "select": select + lock,
        "update": update,
        "insert": f"INSERT INTO {move_table} ({move_columns}) VALUES ({placeholders})",
        # PostgreSQL only (a data-modifying WITH): both writes in one round trip; the Move is
        # inserted only if the conditional UPDATE found the row at the expected version.
        "update_and_insert": f"WITH moved AS ({update} RETURNING {pk}) "
        f"INSERT INTO {move_table} ({move_columns}) SELECT {placeholders} FROM moved",
        # The same, also only if the row's status and awaiting are still those the caller knows
        # (run on its own, in autocommit: one statement is one transaction).
        "update_and_insert_if_unchanged": f"WITH moved AS ({update} AND {status} = %s AND {awaiting} = %s "
        f"RETURNING {pk}) INSERT INTO {move_table} ({move_columns}) SELECT {placeholders} FROM moved",
    }


@cache
def _turn_statement(vendor: str, moves: int) -> str:
    """PostgreSQL: the game's row and `moves` Move rows in one statement, written only if the row
    is still at the version, status and awaiting the caller knows (one CTE per Move but the last;
    each is an INSERT … SELECT, so its values take their columns' types as a single move's do)."""
    statements = _statements(vendor)
    single = statements["update_and_insert_if_unchanged"]
    head, _, insert = single.partition(" INSERT INTO ")
    inserts = [f"inserted_{number} AS (INSERT INTO {insert})" for number in range(moves - 1)]
    return ", ".join([head, *inserts]) + f" INSERT INTO {insert}"


@cache
def _converters(vendor: str) -> tuple[tuple[tuple[Any, ...], Any], ...]:
    """For each selected column: the (converter, column expression) pairs the ORM would apply."""
    table = Game._meta.db_table
    pairs = []
    for name in GAME_FIELDS:
        column = _field(Game, name).get_col(table)
        pairs.append((tuple(connection.ops.get_db_converters(column) + column.get_db_converters(connection)), column))
    return tuple(pairs)


def _db() -> BaseDatabaseWrapper:
    """The thread's default connection itself. `django.db.connection` is a proxy that looks the
    connection up again on every attribute (a few µs each, dozens per move): the statements below
    resolve it once and hand it on. The cached SQL builders above use the proxy once per vendor."""
    return connections[DEFAULT_DB_ALIAS]


def _pk(game_id: GameId, db: BaseDatabaseWrapper) -> Any:  # the driver's own value of the UUID (text on SQLite)
    pk = _field(Game, "id")
    return pk.get_db_prep_value(pk.to_python(game_id), db)


def lock_game(game_id: GameId) -> Game | None:
    """The Game row locked until the transaction ends (SQLite: the IMMEDIATE transaction's write
    lock), without its positions; None when there is no such game (or `game_id` is not an id)."""
    return _game_row("select", game_id)


def read_game(game_id: GameId) -> Game | None:
    """The Game row as it is now, without its positions (read on access); None when missing."""
    return _game_row("read", game_id)


def read_games(game_ids: list[GameId]) -> list[Game]:
    """The rows of these games as they are now, without their positions, in one statement (the
    heartbeats' watchdog); a missing game or a malformed id has none."""
    db = _db()
    pks = []
    for game_id in game_ids:
        try:
            pks.append(_pk(game_id, db))
        except ValidationError:
            continue
    if not pks:
        return []
    with db.cursor() as cursor:
        cursor.execute(_statements(db.vendor)["read_many"] + f"({', '.join(['%s'] * len(pks))})", pks)
        rows = cursor.fetchall()
    return [_game_of(row, db) for row in rows]


def _game_row(statement: str, game_id: GameId) -> Game | None:
    db = _db()
    try:
        pk = _pk(game_id, db)
    except ValidationError:  # not a game id at all (a malformed UUID): no such game
        return None
    with db.cursor() as cursor:
        cursor.execute(_statements(db.vendor)[statement], [pk])
        row = cursor.fetchone()
    return None if row is None else _game_of(row, db)


def _game_of(row: tuple[Any, ...], db: BaseDatabaseWrapper) -> Game:
    """A selected row as the `Game` the ORM would make of it (each column through its converters)."""
    values = []
    for stored, (converters, column) in zip(row, _converters(db.vendor), strict=True):
        value = stored
        for converter in converters:
            value = converter(value, column, db)
        values.append(value)
    attnames = [_field(Game, name).attname for name in GAME_FIELDS]
    return Game.from_db(db.alias, attnames, values)


def _write_params(
    game: Game,
    new_version: int,
    seat: str,
    action: dict[str, Any],
    reason: dict[str, Any] | None,
    db: BaseDatabaseWrapper,
) -> tuple[list[Any], list[Any]]:
    now = timezone.now()
    return _game_params(game, new_version, now, db), _move_params(game, new_version, seat, action, reason, now, db)


def _game_params(game: Game, new_version: int, now: datetime.datetime, db: BaseDatabaseWrapper) -> list[Any]:
    """The row's new values, then its id and the version it must still be at."""
    # The copy says when the move was stored, as the row and the Move do: the daily deadline is
    # judged on this moment (games.rooms.daily_play), the one the leaderboards read back.
    game.updated = now
    game_values = {
        "version": new_version,
        "position": game.position,
        "status": game.status,
        "awaiting": game.awaiting,
        "awaiting_since": game.awaiting_since,
        "updated": now,
    }
    return [
        *(_field(Game, name).get_db_prep_save(game_values[name], db) for name in WRITTEN_FIELDS),
        _pk(game.pk, db),
        game.version,
    ]


def _move_params(
    game: Game,
    version: int,
    seat: str,
    action: Action,
    reason: dict[str, Any] | None,
    now: datetime.datetime,
    db: BaseDatabaseWrapper,
) -> list[Any]:
    move_values = {
        "game": game.pk,
        "seq": version,
        "seat": seat,
        "action": action,
        "reason": reason,
        "created": now,
    }
    return [_field(Move, name).get_db_prep_save(move_values[name], db) for name in MOVE_FIELDS]


def supports_one_statement_moves() -> bool:
    """PostgreSQL can write a move in one statement (a data-modifying WITH); SQLite cannot."""
    return _db().vendor == "postgresql"


def write_move_if_unchanged(
    game: Game,
    new_version: int,
    seat: str,
    action: Action,
    status: str,
    awaiting: list[str],
    reason: dict[str, Any] | None = None,
) -> bool:
    """PostgreSQL, outside a transaction: the whole move in one statement, applied only if the row
    is still at `game.version` with this `status` and `awaiting` (what the caller's copy of the
    row says). False when it is not: nothing is written, and the caller takes the locked path."""
    db = _db()
    game_params, move_params = _write_params(game, new_version, seat, action, reason, db)
    condition = [
        _field(Game, "status").get_db_prep_save(status, db),
        _field(Game, "awaiting").get_db_prep_save(awaiting, db),
    ]
    with db.cursor() as cursor:
        cursor.execute(
            _statements(db.vendor)["update_and_insert_if_unchanged"], [*game_params, *condition, *move_params]
        )
        written: bool = cursor.rowcount == 1
        return written


def write_turn_if_unchanged(
    game: Game, new_version: int, moves: list[StoredMove], status: str, awaiting: list[str]
) -> bool:
    """PostgreSQL, outside a transaction: several moves (versions `game.version` + 1 …
    `new_version`, in order) and the game's row at the last of them, in one statement: one round
    trip, one commit, all or nothing. Written only if the row is still at `game.version` with this
    `status` and `awaiting`; False when it is not (nothing is written)."""
    assert len(moves) == new_version - game.version, "one Move row per version"
    db, now = _db(), timezone.now()
    params = [
        *_game_params(game, new_version, now, db),
        _field(Game, "status").get_db_prep_save(status, db),
        _field(Game, "awaiting").get_db_prep_save(awaiting, db),
    ]
    for version, (seat, action, reason) in enumerate(moves, start=game.version + 1):
        params.extend(_move_params(game, version, seat, action, reason, now, db))
    with db.cursor() as cursor:
        cursor.execute(_turn_statement(db.vendor, len(moves)), params)
        written: bool = cursor.rowcount == 1
        return written


def write_move(
    game: Game, new_version: int, seat: str, action: dict[str, Any], reason: dict[str, Any] | None = None
) -> bool:
    """Append the Move and store the game's new state, if the row is still at `game.version`.

    False when another writer got there first (nothing is written then). The unique (game, seq)
    constraint backs this up: a second writer of the same version fails on the insert.
    """
    db = _db()
    game_params, move_params = _write_params(game, new_version, seat, action, reason, db)
    statements = _statements(db.vendor)
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            cursor.execute(statements["update_and_insert"], [*game_params, *move_params])
            written: bool = cursor.rowcount == 1
            return written
        cursor.execute(statements["update"], game_params)
        if cursor.rowcount != 1:
            return False
        cursor.execute(statements["insert"], move_params)
        return True
