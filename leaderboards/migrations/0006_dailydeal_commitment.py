"""Each daily deal gets a nonce and its commitment (leaderboards.commitment); existing deals too."""

import hashlib
import secrets

from django.db import migrations, models


def commit_existing_deals(apps, schema_editor):
    # The scheme of leaderboards.commitment, spelled out: a migration keeps working when the
    # module changes.
    DailyDeal = apps.get_model("leaderboards", "DailyDeal")
    for deal in DailyDeal.objects.filter(commitment=""):
        deal.nonce = deal.nonce or secrets.token_hex(16)
        text = f"{deal.date.isoformat()}:{int(deal.seed)}:{deal.nonce}"
        deal.commitment = hashlib.sha256(text.encode("ascii")).hexdigest()
        deal.save(update_fields=["nonce", "commitment"])


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0005_player_link_issued_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailydeal",
            name="nonce",
            field=models.CharField(default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="dailydeal",
            name="commitment",
            field=models.CharField(default="", editable=False, max_length=64),
        ),
        migrations.RunPython(commit_existing_deals, migrations.RunPython.noop),
    ]
