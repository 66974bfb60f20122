"""Player moves from leaderboards to this app: Django's state only, the table stays.

The table keeps its name (`leaderboards_player`, Player.Meta.db_table), so no row moves and no
foreign key changes in the database: this migration creates the model in the state of `players`,
leaderboards' 0007 removes it from its own state, and games' 0005 points Game.host here.

The content type `leaderboards.player` becomes `players.player`: its permissions (view, ban, …)
follow it, so the "moderators" group keeps them and the admin log's rows still name the model.
Without the rename Django would make a second content type with fresh permissions that no group
holds, and moderators could no longer ban.
"""

import uuid

from django.db import migrations, models

OLD_APP, NEW_APP, MODEL = "leaderboards", "players", "player"


def rename_content_type(old_app: str, new_app: str):
    def rename(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        # A fresh database has neither yet (post_migrate makes the new one); one that somehow has
        # both keeps the old one's permissions, which groups hold, and drops the empty new one.
        ContentType.objects.using(db).filter(app_label=new_app, model=MODEL, permission__isnull=True).delete()
        if not ContentType.objects.using(db).filter(app_label=new_app, model=MODEL).exists():
            ContentType.objects.using(db).filter(app_label=old_app, model=MODEL).update(app_label=new_app)

    return rename


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("leaderboards", "0005_player_link_issued_at"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ("nickname", models.CharField(blank=True, max_length=100, null=True)),
                        (
                            "nickname_key",
                            models.CharField(blank=True, editable=False, max_length=200, null=True, unique=True),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("banned", models.BooleanField(default=False)),
                        (
                            "link_token",
                            models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True),
                        ),
                        ("link_issued_at", models.DateTimeField(blank=True, editable=False, null=True)),
                        (
                            "last_network",
                            models.CharField(blank=True, db_index=True, default="", editable=False, max_length=64),
                        ),
                    ],
                    options={
                        "db_table": "leaderboards_player",
                        "permissions": [("ban_player", "Can ban and unban players")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(rename_content_type(OLD_APP, NEW_APP), rename_content_type(NEW_APP, OLD_APP)),
    ]
