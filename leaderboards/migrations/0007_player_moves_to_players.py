"""Player now lives in the players app (players/migrations/0001_initial.py says how): the entries
and records point there, and the model leaves this app's state. Nothing changes in the database:
the table is still `leaderboards_player`, and the foreign keys already point at it."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0006_dailydeal_commitment"),
        ("players", "0001_initial"),
        # Game.host points to players.Player first, so that no model refers to the one removed here.
        ("games", "0005_host_is_a_players_player"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="entry",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="entries", to="players.player"
                    ),
                ),
                migrations.AlterField(
                    model_name="playerrecord",
                    name="player",
                    field=models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="record",
                        serialize=False,
                        to="players.player",
                    ),
                ),
                migrations.DeleteModel(name="Player"),
            ],
            database_operations=[],
        ),
    ]
