# De l'Orc's score pad keeps its round entries; a game goes on until someone wins.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leagues", "0012_rating_history_game_key")]

    operations = [
        migrations.AddField(
            model_name="playedgame",
            name="result",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RemoveConstraint(model_name="roundscore", name="round_no_valid"),
        migrations.AddConstraint(
            model_name="roundscore",
            constraint=models.CheckConstraint(
                condition=models.Q(round_no__gte=1), name="round_no_valid"
            ),
        ),
    ]
