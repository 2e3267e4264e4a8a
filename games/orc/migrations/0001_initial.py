"""Deal comes over from the shared games app, keeping its table (games_deal) and rows: only
Django's idea of where the model lives changes."""

import django.db.models.deletion
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
                    name="Deal",
                    fields=[
                        ("table", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, serialize=False, to="games.table")),
                        ("pace", models.FloatField(default=1.2, verbose_name="seconds per card")),
                        ("round", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("started", models.DateTimeField(blank=True, null=True)),
                        ("ended", models.BooleanField(default=False)),
                        ("holder", models.CharField(blank=True, max_length=64)),
                        ("held_until", models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        "db_table": "games_deal",
                        "constraints": [models.CheckConstraint(condition=models.Q(("pace__in", [0.8, 1.2, 2.0])), name="deal_pace")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
