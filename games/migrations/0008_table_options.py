"""A table's game options move from Call to Glory's columns into the game's own JSON.

Every existing table is a Call to Glory table: its rounds, Imperial Tasks, Ninja and dealt
task cards become {"rounds", "imperial_tasks", "ninja"[, "task_distribution"]}.
"""

from django.db import migrations, models

BATCH = 1000
FIELDS = ["rounds", "imperial_tasks", "ninja", "task_distribution"]


def to_options(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    changed = []
    for table in Table.objects.filter(game="ctg").order_by("pk").iterator(chunk_size=BATCH):
        table.options = {
            "rounds": table.rounds,
            "imperial_tasks": table.imperial_tasks,
            "ninja": table.ninja,
        }
        if table.task_distribution is not None:
            table.options["task_distribution"] = table.task_distribution
        changed.append(table)
        if len(changed) == BATCH:
            Table.objects.bulk_update(changed, ["options"])
            changed = []
    Table.objects.bulk_update(changed, ["options"])


def from_options(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    changed = []
    for table in Table.objects.filter(game="ctg").order_by("pk").iterator(chunk_size=BATCH):
        table.rounds = table.options.get("rounds", 4)
        table.imperial_tasks = table.options.get("imperial_tasks", False)
        table.ninja = table.options.get("ninja", False)
        table.task_distribution = table.options.get("task_distribution")
        changed.append(table)
        if len(changed) == BATCH:
            Table.objects.bulk_update(changed, FIELDS)
            changed = []
    Table.objects.bulk_update(changed, FIELDS)


class Migration(migrations.Migration):
    dependencies = [("games", "0007_table_game")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="options",
            field=models.JSONField(blank=True, default=dict, verbose_name="options"),
        ),
        migrations.RunPython(to_options, from_options),
        migrations.RemoveConstraint(model_name="table", name="table_rounds_fit_variants"),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("game", "ctg"), _negated=True),
                    models.Q(("options__imperial_tasks", True), ("options__rounds", 3)),
                    models.Q(("options__imperial_tasks", False), ("options__rounds__in", [1, 4])),
                    _connector="OR",
                ),
                name="table_rounds_fit_variants",
            ),
        ),
        migrations.RemoveField(model_name="table", name="imperial_tasks"),
        migrations.RemoveField(model_name="table", name="ninja"),
        migrations.RemoveField(model_name="table", name="rounds"),
        migrations.RemoveField(model_name="table", name="task_distribution"),
    ]
