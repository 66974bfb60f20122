"""Game.host points to players.Player, which moved from leaderboards (players/migrations/0001_initial.py).
State only: the table is still `leaderboards_player`, so the foreign key in the database is unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_stand_ins"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="game",
                    name="host",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="hosted_games",
                        to="players.player",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
