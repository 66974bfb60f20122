"""Create the "moderators" group with exactly the permissions moderation needs.

View players, entries and the moderation log; ban/unban players; hide/unhide entries. No change,
add or delete permission: moderators cannot edit scores, users or groups.
"""
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = {  # codename: (model, name) — the names Django itself gives them after migrate
    "view_player": ("player", "Can view player"),
    "ban_player": ("player", "Can ban and unban players"),
    "view_entry": ("entry", "Can view entry"),
    "hide_entry": ("entry", "Can hide and unhide entries"),
    "view_moderationaction": ("moderationaction", "Can view moderation action"),
}


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate); make these now, with
    # the same content type and codename, so Django later finds them and adds no duplicate.
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for codename, (model, name) in PERMISSIONS.items():
        content_type, _ = ContentType.objects.get_or_create(app_label="leaderboards", model=model)
        permission, _ = Permission.objects.get_or_create(content_type=content_type, codename=codename,
                                                         defaults={"name": name})
        group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0002_player_record"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_group, remove_group)]
