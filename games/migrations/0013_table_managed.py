"""A table an event opened (a tournament round) is run by the event, not by a player."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0012_table_rules_are_the_games")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="managed",
            field=models.BooleanField(default=False, verbose_name="run by its event"),
        ),
    ]
