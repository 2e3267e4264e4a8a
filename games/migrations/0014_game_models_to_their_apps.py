"""Call to Glory's TaskCards and De l'Orc's Deal move to their games' apps (ctg 0001, orc
0001). Their tables and rows stay where they are; so do their admin permissions, whose
content types follow them to the new app labels."""

from django.db import migrations

MOVED = {"taskcards": "ctg", "deal": "orc"}


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model, label in MOVED.items():
        if not ContentType.objects.filter(app_label=label, model=model).exists():
            ContentType.objects.filter(app_label="games", model=model).update(app_label=label)


def content_types_return(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model, label in MOVED.items():
        if not ContentType.objects.filter(app_label="games", model=model).exists():
            ContentType.objects.filter(app_label=label, model=model).update(app_label="games")


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0013_table_managed"),
        ("ctg", "0001_initial"),
        ("orc", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="TaskCards"),
                migrations.DeleteModel(name="Deal"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_return),
    ]
