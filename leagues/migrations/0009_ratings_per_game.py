"""Ratings per player and game. Every rating kept so far is a Call to Glory rating.

PlayerRating was keyed by its user; it now has its own key and one row per (user, game).
The new table is made under another name, the rows copied with their times, the old table
dropped and the new one renamed.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def copy_ratings(apps, schema_editor, source, target, where=""):
    q = schema_editor.quote_name
    old = apps.get_model("leagues", source)._meta.db_table
    new = apps.get_model("leagues", target)._meta.db_table
    columns = ", ".join(q(c) for c in ["user_id", "mu", "sigma", "games", "display", "updated"])
    game = ", " + q("game") if target == "PlayerRatingPerGame" else ""
    value = ", 'ctg'" if target == "PlayerRatingPerGame" else ""
    schema_editor.execute(
        f"INSERT INTO {q(new)} ({columns}{game}) SELECT {columns}{value} FROM {q(old)} {where}"
    )


def forwards(apps, schema_editor):
    copy_ratings(apps, schema_editor, "PlayerRating", "PlayerRatingPerGame")


def backwards(apps, schema_editor):
    copy_ratings(apps, schema_editor, "PlayerRatingPerGame", "PlayerRating", "WHERE game = 'ctg'")


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0008_seats_and_rounds_of_any_game"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(model_name="playerrating", name="rating_display_order"),
        migrations.RemoveConstraint(model_name="playerrating", name="rating_sigma_positive"),
        migrations.CreateModel(
            name="PlayerRatingPerGame",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game", models.CharField(default="ctg", max_length=16, verbose_name="game")),
                ("mu", models.FloatField(default=25.0)),
                ("sigma", models.FloatField(default=8.333333333333334)),
                ("games", models.PositiveIntegerField(default=0)),
                ("display", models.IntegerField(default=1000)),
                ("updated", models.DateTimeField(auto_now=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["game", "-display"], name="rating_display_order")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "game"), name="rating_once_per_game"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("sigma__gt", 0)), name="rating_sigma_positive"
                    ),
                ],
            },
        ),
        migrations.RunPython(forwards, backwards),
        migrations.DeleteModel(name="PlayerRating"),
        migrations.RenameModel(old_name="PlayerRatingPerGame", new_name="PlayerRating"),
        migrations.AddField(
            model_name="ratingledger",
            name="game",
            field=models.CharField(default="ctg", max_length=16, unique=True),
        ),
        migrations.AddField(
            model_name="recomputejob",
            name="game",
            field=models.CharField(default="ctg", max_length=16),
        ),
    ]
