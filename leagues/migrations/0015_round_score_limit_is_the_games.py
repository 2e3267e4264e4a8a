"""A round score's limit is its game's (Game.pad_score_max): the score pad's door and the
admin ask the game, so no check constraint holds Call to Glory's 110 for every game's rows."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("leagues", "0014_league_options")]

    operations = [
        migrations.RemoveConstraint(model_name="roundscore", name="round_score_at_most_110"),
    ]
