"""Run by test_pg_moves.py in a subprocess whose DATABASE_URL is PostgreSQL: the room service's
one-statement moves (games.rooms._apply_from_memory) against what can happen between two moves.

Each check prints one line `ok <name>`; any failure raises (a non-zero exit fails the test).
"""

import os
import sys

import django

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
django.setup()

from django.db import connection  # noqa: E402
from django.test import override_settings  # noqa: E402

from games.engine import Game as EngineGame  # noqa: E402
from games.engine import RuleError  # noqa: E402
from games.models import Game, Move  # noqa: E402
from games.replay import replay  # noqa: E402
from games.rooms.computer_turns import play_computer_turn  # noqa: E402
from games.rooms.creation import create_game  # noqa: E402
from games.rooms.errors import RoomError  # noqa: E402
from games.rooms.live_games import LIVE  # noqa: E402
from games.rooms.moves import MoveResult, apply_move, next_deal  # noqa: E402
from games.rooms.turns import decide_here  # noqa: E402
from players.models import Player  # noqa: E402
from tests.rooms.simple_player import simple_action  # noqa: E402


def next_move(game_id) -> tuple:
    """(seat, action, version) of the player to move, chosen from the stored game."""
    stored = Game.objects.get(pk=game_id)
    engine_game = EngineGame.from_position(stored.position)
    seat = engine_game.turn
    assert seat is not None, "the game is over"
    return seat, simple_action(engine_game.view(seat)), stored.version


def play_one(game_id) -> MoveResult:
    seat, action, version = next_move(game_id)
    return apply_move(game_id, seat, action, version)


def count_statements(game_id):
    """Play the next move; (its result, the statements the move itself sent: DEBUG=1 logs them)."""
    seat, action, version = next_move(game_id)
    connection.queries_log.clear()
    result = apply_move(game_id, seat, action, version)
    return result, [query["sql"] for query in connection.queries]


def assert_replays(game_id) -> None:
    stored = Game.objects.get(pk=game_id)
    assert stored.position == replay(stored).to_position(), "the stored position is not the replay"
    assert list(stored.moves.values_list("seq", flat=True)) == list(range(1, stored.version + 1))


assert connection.vendor == "postgresql"
player = Player.objects.create()
game, _ = create_game(player, "solo", "easy")
apply_move(game.id, "S", {"type": "draw"}, 0)  # the locked path: nothing in memory yet

# A move from memory is one statement (no locked read, no BEGIN/COMMIT of its own).
result, statements = count_statements(game.id)
assert result.version == 2 and len(statements) == 1 and statements[0].lstrip().upper().startswith("WITH"), statements
print("ok one statement per move from memory")

# Another process's next_deal changed `awaiting` without a new version: the statement finds the
# row changed, writes nothing, and the locked path (which reads awaiting afresh) applies the move.
Game.objects.filter(pk=game.id).update(awaiting=["S"])
result, statements = count_statements(game.id)
stored = Game.objects.get(pk=game.id)
assert result.version == stored.version == 3 and len(statements) > 1, statements
assert stored.awaiting == [] or stored.awaiting == ["S"]
assert_replays(game.id)
print("ok a changed awaiting falls back to the locked path")

# Another process made the next move: the memory is one version behind; the action the caller
# made for that old version is refused as stale and nothing is written.
behind = LIVE.take(game.id, 3)
assert behind is not None
play_one(game.id)  # rebuilt from the database, now at version 4
LIVE.put(game.id, behind)
try:
    apply_move(game.id, "S", {"type": "draw"}, 3)
except RoomError as refusal:
    refused_with = refusal.code
else:
    refused_with = "nothing: an action for version 3 was applied at version 4"
assert refused_with == "stale_version", refused_with
assert Game.objects.get(pk=game.id).version == 4 == Move.objects.filter(game=game).count()
assert_replays(game.id)
print("ok a stale action is refused")

# A refused action (a rule) writes nothing and leaves the memory usable.
stored = Game.objects.get(pk=game.id)
to_move = EngineGame.from_position(stored.position).turn
assert to_move is not None
try:
    apply_move(game.id, to_move, {"type": "discard", "card": "XX"}, 4)
except RuleError:
    pass
else:
    raise AssertionError("a discard of no card was applied")
result, statements = count_statements(game.id)
assert result.version == 5 and len(statements) == 1, statements
print("ok a refused action changes nothing")


# A move rewrites version, position, awaiting and updated: with none of them indexed and room on
# the page (migration 0002), PostgreSQL writes each as a HOT update, touching no index.
#
# What is checked is what load cannot change. An update is HOT exactly when no indexed column
# changes and the new row version fits on the row's page. Whether it fits depends on page pruning
# (dead versions removed as the page is read), which PostgreSQL skips when another backend pins the
# page (checkpointer, autovacuum) or a snapshot in the database is older than the dead versions, as
# happens on a loaded machine: the row then moves to another page, not HOT. So: the table keeps
# half of each page free (fillfactor 50, set by the migration); every update that kept its page was
# HOT (none changed an indexed column); and, since the row (at most about 2 kB, TOAST's target)
# always lands on a page with half of it free, at least the next update after any page change
# finds room without pruning: at least half the moves stay on their page, whatever the load.
def game_updates() -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")  # this session's counts, shared now
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = %s", [Game._meta.db_table]
        )
        return cursor.fetchone()


def page_of(game_id) -> int:
    """The heap page holding the game's current row version (the block of its ctid)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT (ctid::text::point)[0]::int FROM {Game._meta.db_table} WHERE id = %s", [game_id])
        return cursor.fetchone()[0]


with connection.cursor() as cursor:
    cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [Game._meta.db_table])
    assert "fillfactor=50" in (cursor.fetchone()[0] or []), "migration 0002 leaves half of each page free"
    indexed = {
        column
        for index in connection.introspection.get_constraints(cursor, Game._meta.db_table).values()
        if index["index"] or index["unique"]
        for column in index["columns"]
    }
assert not indexed & {"version", "position", "awaiting", "awaiting_since", "updated"}, indexed
MOVES = 20
updates_before, hot_before = game_updates()
kept_the_page = 0
for _move in range(MOVES):
    page = page_of(game.id)
    play_one(game.id)
    kept_the_page += int(page_of(game.id) == page)
updates, hot = game_updates()
updates, hot = updates - updates_before, hot - hot_before
assert updates == MOVES, f"{updates} updates of the game for {MOVES} moves from memory"
assert hot == kept_the_page, f"{hot} HOT updates, but {kept_the_page} of {MOVES} moves kept their page"
assert kept_the_page >= MOVES // 2, f"only {kept_the_page} of {MOVES} moves found room on their page"
print("ok moves are HOT updates")

# A ranked daily whose move from memory comes after its date's deadline lapses on that move
# (games.rooms.daily_play, issue 18): the moment judged is the one the statement stored.
daily_game, _ = create_game(Player.objects.create(), "daily")
assert daily_game.ranked
apply_move(daily_game.id, "S", {"type": "draw"}, 0)  # the locked path, in time
with override_settings(FOOT_DAILY_GRACE_SECONDS=-86400):  # a grace of minus a day: the date's start
    result, statements = count_statements(daily_game.id)
    stored = Game.objects.get(pk=daily_game.id)
    assert result.lapsed and not stored.ranked and stored.lapsed, (result, stored.ranked)
    assert statements[0].lstrip().upper().startswith("WITH"), statements  # the move was one from memory
    later = play_one(daily_game.id)
    assert not later.lapsed and not Game.objects.get(pk=daily_game.id).ranked  # lapsed once, for good
print("ok a daily moved from memory past its deadline lapses")

# The computers' turns from memory are one statement: West's, North's and East's moves, each its
# own version, and the game's row at the last of them (games.rooms.computer_turns).
turn_game, _ = create_game(Player.objects.create(), "solo", "easy")


def south_turn(game_id, version: int):
    """South draws and discards (the first move of a new game takes the locked path)."""
    apply_move(game_id, "S", {"type": "draw"}, version)
    south_view = EngineGame.from_position(Game.objects.get(pk=game_id).position).view("S")
    return apply_move(game_id, "S", simple_action(south_view), version + 1)


plan = south_turn(turn_game.id, 0).next_plan
assert plan is not None and plan.seat == "W", plan
connection.queries_log.clear()
results = play_computer_turn(turn_game.id, plan, decide_here)
statements = [query["sql"] for query in connection.queries]
assert len(statements) == 1 and statements[0].lstrip().upper().startswith("WITH"), statements
assert [r.version for r in results] == list(range(3, 3 + len(results))), results
seats = [r.seat for r in results]
assert seats == sorted(seats, key="WNE".index) and set(seats) == {"W", "N", "E"}, seats
assert results[-1].next_plan is None and results[-1].settled  # South, a person, is to play
stored_moves = list(Move.objects.filter(game=turn_game).order_by("seq").values_list("seq", "seat"))
assert stored_moves == [(1, "S"), (2, "S"), *((r.version, r.seat) for r in results)], stored_moves
assert Game.objects.get(pk=turn_game.id).version == results[-1].version
assert_replays(turn_game.id)
print("ok the computers' turns are one statement")

# The row moved on under memory (another process's next_deal set `awaiting`): nothing of the run
# is written, and its first move alone takes the locked path, which decides from the row.
plan = south_turn(turn_game.id, results[-1].version).next_plan
assert plan is not None and plan.seat == "W", plan
Game.objects.filter(pk=turn_game.id).update(awaiting=["S"])
fallback = play_computer_turn(turn_game.id, plan, decide_here)
stored = Game.objects.get(pk=turn_game.id)
assert len(fallback) == 1 and fallback[0].version == stored.version == plan.version + 1, fallback
assert_replays(turn_game.id)
print("ok the computers' turns on a changed row play one move the locked way")

# A lesson's bots play one move at a time: its prompt is read from the stored game after every
# frame, which must not run ahead of them.
lesson, _ = create_game(Player.objects.create(), "lesson")
plan = south_turn(lesson.id, 0).next_plan
assert plan is not None and plan.level == "lesson", plan
assert len(play_computer_turn(lesson.id, plan, decide_here)) == 1
print("ok a lesson's bots play one move at a time")

# A whole game through both paths ends as its replay, the computers' turns written at once.
for _move in range(3000):
    result = play_one(game.id)
    while result.next_plan is not None and result.status == Game.PLAYING:
        result = play_computer_turn(game.id, result.next_plan, decide_here)[-1]
    if result.status == Game.FINISHED:
        break
    if result.awaiting:
        next_deal(game.id, "S")
assert Game.objects.get(pk=game.id).status == Game.FINISHED
assert_replays(game.id)
print("ok a whole game equals its replay")
