"""Game.lapsed: a ranked daily played past its date's deadline (issue 18; games.rooms.daily_play)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_hot_moves'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='lapsed',
            field=models.BooleanField(default=False),
        ),
    ]
