"""TaskCards comes over from the shared games app, keeping its table (games_taskcards) and
rows: only Django's idea of where the model lives changes."""

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0013_table_managed"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TaskCards",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("a", models.CharField(default="6, 7, 8, 9", max_length=40, verbose_name="deck A (5 points per card)")),
                        ("b", models.CharField(default="9, 12, 14, 16", max_length=40, verbose_name="deck B (4 points per card)")),
                        ("c", models.CharField(default="14, 16, 18, 20", max_length=40, verbose_name="deck C (3 points per card)")),
                    ],
                    options={
                        "verbose_name": "Imperial Tasks cards",
                        "verbose_name_plural": "Imperial Tasks cards",
                        "db_table": "games_taskcards",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
