"""A league's options move from Call to Glory's columns into the game's own JSON.

A Call to Glory league keeps its length and variants as {"game_length", "imperial_tasks",
"ninja"}; a league of another game had them at their defaults, unused, and keeps {}.
"""

from django.db import migrations, models

COLUMNS = ("game_length", "imperial_tasks", "ninja")


def to_options(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    leagues = list(League.objects.filter(game="ctg"))
    for league in leagues:
        league.options = {name: getattr(league, name) for name in COLUMNS}
    League.objects.bulk_update(leagues, ["options"])


def from_options(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    leagues = list(League.objects.filter(game="ctg"))
    defaults = {"game_length": "standard", "imperial_tasks": False, "ninja": False}
    for league in leagues:
        for name, default in defaults.items():
            setattr(league, name, league.options.get(name, default))
    League.objects.bulk_update(leagues, COLUMNS)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0013_orc_pad_entries")]

    operations = [
        migrations.AddField(
            model_name="league",
            name="options",
            field=models.JSONField(blank=True, default=dict, verbose_name="options"),
        ),
        migrations.RunPython(to_options, from_options),
        migrations.RemoveConstraint(model_name="league", name="league_length_valid"),
        migrations.RemoveField(model_name="league", name="game_length"),
        migrations.RemoveField(model_name="league", name="imperial_tasks"),
        migrations.RemoveField(model_name="league", name="ninja"),
    ]
