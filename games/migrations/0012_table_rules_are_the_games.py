"""A table's seats and options are checked by its game where tables are opened
(games.actions.create_table): the check constraints that held Call to Glory's go."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0011_table_round_pause")]

    operations = [
        migrations.RemoveConstraint(model_name="table", name="table_2_to_4_seats"),
        migrations.RemoveConstraint(model_name="table", name="table_rounds_fit_variants"),
    ]
