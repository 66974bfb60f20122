"""A watcher's Presence row has the seat "" (games.models.SPECTATOR), not NULL: one empty value.

AlterField fills the NULL seats with the default before it makes the column NOT NULL."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_host_is_a_players_player"),
    ]

    operations = [
        migrations.AlterField(
            model_name="presence",
            name="seat",
            field=models.CharField(blank=True, default="", max_length=1),
        ),
    ]
