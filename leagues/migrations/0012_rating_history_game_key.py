"""A rating history row names its game, as its played game does, so that a recompute reads
and replaces one game's rows through the index."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_game_key(apps, schema_editor):
    RatingHistory = apps.get_model("leagues", "RatingHistory")
    PlayedGame = apps.get_model("leagues", "PlayedGame")
    played = PlayedGame.objects.filter(pk=OuterRef("game_id")).values("game")[:1]
    RatingHistory.objects.exclude(game__game="ctg").update(game_key=Subquery(played))


class Migration(migrations.Migration):
    dependencies = [("leagues", "0011_league_projector_token")]

    operations = [
        migrations.AddField(
            model_name="ratinghistory",
            name="game_key",
            field=models.CharField(default="ctg", max_length=16),
        ),
        migrations.RunPython(fill_game_key, migrations.RunPython.noop),
        migrations.RemoveIndex(model_name="ratinghistory", name="history_order"),
        migrations.AddIndex(
            model_name="ratinghistory",
            index=models.Index(
                fields=["user", "game_key", "played_at", "game"], name="history_order"
            ),
        ),
    ]
