"""Run by test_player_migration.py in a subprocess whose DATABASE_URL is an empty PostgreSQL
database: the schema as it was before Player moved to the players app, with data in it, then the
move (players 0001, games 0003, leaderboards 0006) forward, back and forward again.

Each check prints one line `ok <name>`; any failure raises (a non-zero exit fails the test).
"""

import datetime
import os
import sys
import uuid

import django

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
django.setup()

from django.apps import apps as current_apps  # noqa: E402
from django.contrib.auth.models import Group, User  # noqa: E402
from django.contrib.contenttypes.models import ContentType  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.migrations.autodetector import MigrationAutodetector  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402
from django.db.migrations.state import ProjectState  # noqa: E402

from games.models import Game  # noqa: E402
from leaderboards.models import Entry, PlayerRecord  # noqa: E402
from players.models import Player  # noqa: E402

MOVE = {
    ("players", "0001_initial"),
    ("games", "0005_host_is_a_players_player"),
    ("leaderboards", "0007_player_moves_to_players"),
}
PLAYER_ID, GAME_ID = uuid.uuid4(), uuid.uuid4()


def executor() -> MigrationExecutor:
    """A fresh executor: its loader reads what is applied now."""
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection)


def before_the_move(graph) -> list:
    """The targets of the schema before the move: each app at the migration before the move's own
    (read from the graph, so that a migration landed since the move changes nothing here), and
    every other app at its last."""
    targets = [("players", None)]
    for app, name in sorted(MOVE - {("players", "0001_initial")}):
        (parent,) = [node for node in graph.node_map[(app, name)].parents if node.key[0] == app]
        targets.append(parent.key)
    moved_apps = {app for app, _ in targets}
    return targets + [node for node in graph.leaf_nodes() if node[0] not in moved_apps]


def state_at(targets):
    """The apps' historical models at those targets (a state cannot be made at "no migration")."""
    return executor().loader.project_state([node for node in targets if node[1] is not None]).apps


def fill_the_old_schema(old_apps) -> None:
    """A player with a nickname and a personal link, the friends game they host, their ranked
    entry and record, and a moderator who may ban them (the moderators group of leaderboards 0003)."""
    OldPlayer = old_apps.get_model("leaderboards", "Player")
    player = OldPlayer.objects.create(
        id=PLAYER_ID, nickname="Anna", nickname_key="anna", link_token="d" * 64, last_network="n" * 64
    )
    old_apps.get_model("games", "Game").objects.create(
        id=GAME_ID, mode="friends", seats={"S": {"player": str(PLAYER_ID)}}, host=player, status="finished"
    )
    old_apps.get_model("leaderboards", "Entry").objects.create(
        player=player,
        date=datetime.date(2026, 12, 1),
        game_id=uuid.uuid4(),
        score=5000,
        opponents_score=3000,
        result="won",
        finished_at=datetime.datetime(2026, 12, 1, 12, tzinfo=datetime.UTC),
    )
    old_apps.get_model("leaderboards", "PlayerRecord").objects.create(player=player, listed=True, games=1, best=5000)
    moderator = old_apps.get_model("auth", "User").objects.create(username="mod", is_staff=True)
    moderator.groups.add(old_apps.get_model("auth", "Group").objects.get(name="moderators"))


def assert_the_data_survived() -> None:
    player = Player.objects.get(pk=PLAYER_ID)
    assert (player.nickname, player.nickname_key, player.link_token) == ("Anna", "anna", "d" * 64)
    game = Game.objects.get(pk=GAME_ID)
    assert game.host == player and list(player.hosted_games.all()) == [game]
    assert Entry.objects.get().player == player and PlayerRecord.objects.get(pk=PLAYER_ID).best == 5000


def table_of(model_name: str, app_label: str) -> str:
    return executor().loader.project_state().apps.get_model(app_label, model_name)._meta.db_table


assert connection.vendor == "postgresql"
start = executor()
before = before_the_move(start.loader.graph)
start.migrate(before)
fill_the_old_schema(state_at(before))
old_type = ContentType.objects.get(app_label="leaderboards", model="player")
print("ok the old schema holds a player, their game, entry and record")

forward = executor()
forward.migrate(forward.loader.graph.leaf_nodes())
assert_the_data_survived()
print("ok the player, their hosted game, entry and record survive the move")

assert table_of("player", "players") == "leaderboards_player"
with connection.cursor() as cursor:
    constraints = connection.introspection.get_constraints(cursor, "games_game")
assert ("leaderboards_player", "id") in [c["foreign_key"] for c in constraints.values() if c["foreign_key"]]
print("ok the table keeps its name and Game.host's foreign key in the database")

moved_type = ContentType.objects.get(app_label="players", model="player")
assert moved_type.pk == old_type.pk and not ContentType.objects.filter(app_label="leaderboards", model="player")
assert User.objects.get(username="mod").has_perm("players.ban_player")
assert Group.objects.get(name="moderators").permissions.filter(content_type=moved_type, codename="ban_player")
print("ok the content type is renamed and moderators may still ban")

changes = MigrationAutodetector(executor().loader.project_state(), ProjectState.from_apps(current_apps)).changes(
    graph=executor().loader.graph
)
assert changes == {}, changes
print("ok the models match the migrations")

late = Player.objects.create(nickname="Bo")
hosted = Game.objects.create(mode="friends", seats={"S": {"player": str(late.pk)}}, host=late)
late.delete()
hosted.refresh_from_db()
assert hosted.host is None
print("ok a new player hosts a game, which keeps its row when the player goes")

executor().migrate(before)
assert ContentType.objects.get(pk=old_type.pk).app_label == "leaderboards"
assert state_at(before).get_model("leaderboards", "Player").objects.filter(pk=PLAYER_ID)
again = executor()
again.migrate(again.loader.graph.leaf_nodes())
assert_the_data_survived()
assert ContentType.objects.get(pk=old_type.pk).app_label == "players"
print("ok the move goes back and forward again")
assert not MOVE - set(executor().loader.applied_migrations)
