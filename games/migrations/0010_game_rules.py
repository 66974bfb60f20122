from django.db import migrations, models


class Migration(migrations.Migration):
    """A game's house rules (docs/RULES.md §17): {} for the standard rules, so every game made
    before is a standard game."""

    dependencies = [
        ("games", "0009_look_back"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rules",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
