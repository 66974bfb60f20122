"""When each deal's commitment was made: now for the deals older than the scheme (0006 made their
commitments, just before this), so none claims a commitment from before it existed."""

from django.db import migrations, models
from django.utils import timezone


def committed_now(apps, schema_editor):
    apps.get_model("leaderboards", "DailyDeal").objects.filter(committed_at__isnull=True).update(
        committed_at=timezone.now()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0008_dailydeal_par"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailydeal",
            name="committed_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(committed_now, migrations.RunPython.noop),
    ]
