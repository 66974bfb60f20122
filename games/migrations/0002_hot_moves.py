"""Moves as HOT updates on PostgreSQL (docs/ROOMS.md): no index on a column a move changes, room
on each page for a row's next version (fillfactor), and no index on Move.game beside the unique
(game, seq) one. SQLite ignores fillfactor."""

import django.db.models.deletion
from django.db import migrations, models


def leave_room_on_each_page(apps, schema_editor):
    # A HOT update writes the new row version on the same page; half of each page is kept free
    # for that. It applies to pages written from now on (a VACUUM FULL would rewrite the old ones).
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_game SET (fillfactor = 50)")


def fill_pages(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_game RESET (fillfactor)")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        ('leaderboards', '0003_moderators_group'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='game',
            name='game_status_updated',
        ),
        migrations.AlterField(
            model_name='game',
            name='updated',
            field=models.DateTimeField(auto_now=True),
        ),
        migrations.AlterField(
            model_name='move',
            name='game',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='games.game'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['status'], name='game_status'),
        ),
        migrations.RunPython(leave_room_on_each_page, fill_pages),
    ]
