"""A tournament's table size is bounded for every game (2 to 8, the seats any hosted game
has); its own game's sizes are checked where events are set up and in the admin."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_tournament_options")]

    operations = [
        migrations.RemoveConstraint(model_name="tournament", name="tournament_table_size"),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(max_table__gte=2, max_table__lte=8),
                name="tournament_table_size",
            ),
        ),
    ]
