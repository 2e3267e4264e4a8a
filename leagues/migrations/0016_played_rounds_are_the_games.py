"""A played game's round count is checked by its game where results come in
(leagues.actions.record_result) and in the admin: the check constraint that held Call to
Glory's goes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("leagues", "0015_round_score_limit_is_the_games")]

    operations = [
        migrations.RemoveConstraint(model_name="playedgame", name="game_rounds_valid"),
    ]
