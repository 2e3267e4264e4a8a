"""A played game's options move from Call to Glory's columns into the game's own JSON.

Every existing played game is a Call to Glory game: Imperial Tasks and Ninja become
{"imperial_tasks", "ninja"}; its rounds stay a column, as every game's score pad has them.
"""

from django.db import migrations, models

BATCH = 1000


def to_options(apps, schema_editor):
    PlayedGame = apps.get_model("leagues", "PlayedGame")
    changed = []
    for game in PlayedGame.objects.filter(game="ctg").order_by("pk").iterator(chunk_size=BATCH):
        game.options = {"imperial_tasks": game.imperial_tasks, "ninja": game.ninja}
        changed.append(game)
        if len(changed) == BATCH:
            PlayedGame.objects.bulk_update(changed, ["options"])
            changed = []
    PlayedGame.objects.bulk_update(changed, ["options"])


def from_options(apps, schema_editor):
    PlayedGame = apps.get_model("leagues", "PlayedGame")
    changed = []
    for game in PlayedGame.objects.filter(game="ctg").order_by("pk").iterator(chunk_size=BATCH):
        game.imperial_tasks = game.options.get("imperial_tasks", False)
        game.ninja = game.options.get("ninja", False)
        changed.append(game)
        if len(changed) == BATCH:
            PlayedGame.objects.bulk_update(changed, ["imperial_tasks", "ninja"])
            changed = []
    PlayedGame.objects.bulk_update(changed, ["imperial_tasks", "ninja"])


class Migration(migrations.Migration):
    dependencies = [("leagues", "0009_ratings_per_game")]

    operations = [
        migrations.AddField(
            model_name="playedgame",
            name="options",
            field=models.JSONField(blank=True, default=dict, verbose_name="options"),
        ),
        migrations.RunPython(to_options, from_options),
        migrations.RemoveField(model_name="playedgame", name="imperial_tasks"),
        migrations.RemoveField(model_name="playedgame", name="ninja"),
    ]
