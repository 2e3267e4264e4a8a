"""A seat an AI player took keeps its player, marked replaced, instead of losing him."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_online_tables_are_managed")]

    operations = [
        migrations.AddField(
            model_name="tournamentseat",
            name="replaced",
            field=models.BooleanField(default=False),
        ),
    ]
