"""A tournament's game length moves from Call to Glory's column into the game's own JSON:
{"game_length"} for a Call to Glory event; an event of another game had it at its default,
unused, and keeps {}."""

from django.db import migrations, models


def to_options(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    events = list(Tournament.objects.filter(game="ctg"))
    for event in events:
        event.options = {"game_length": event.game_length}
    Tournament.objects.bulk_update(events, ["options"])


def from_options(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    events = list(Tournament.objects.filter(game="ctg"))
    for event in events:
        event.game_length = event.options.get("game_length", "standard")
    Tournament.objects.bulk_update(events, ["game_length"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_tournament_seats")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="options",
            field=models.JSONField(blank=True, default=dict, verbose_name="options"),
        ),
        migrations.RunPython(to_options, from_options),
        migrations.RemoveField(model_name="tournament", name="game_length"),
    ]
