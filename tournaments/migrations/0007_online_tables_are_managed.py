from django.db import migrations


def managed(apps, schema_editor):
    """The online tables tournaments opened so far are theirs to seat, start and cancel."""
    Table = apps.get_model("games", "Table")
    TournamentTable = apps.get_model("tournaments", "TournamentTable")
    opened = TournamentTable.objects.exclude(online_table=None).values("online_table")
    Table.objects.filter(pk__in=opened).update(managed=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_table_managed"),
        ("tournaments", "0006_table_size_of_any_game"),
    ]

    operations = [migrations.RunPython(managed, migrations.RunPython.noop)]
