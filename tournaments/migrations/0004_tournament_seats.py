"""A tournament table's players become seats (a relation with a seat position) instead of a
JSON list of user ids; the order of the list is the order of the seats."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def to_seats(apps, schema_editor):
    TournamentTable = apps.get_model("tournaments", "TournamentTable")
    TournamentSeat = apps.get_model("tournaments", "TournamentSeat")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    tables = list(TournamentTable.objects.order_by("pk").values_list("pk", "players"))
    known = set(
        User.objects.filter(pk__in={p for _pk, ids in tables for p in ids}).values_list(
            "pk", flat=True
        )
    )
    # An id whose account was deleted names nobody any more and cannot be seated.
    TournamentSeat.objects.bulk_create(
        (
            TournamentSeat(table_id=pk, position=i, user_id=user_id)
            for pk, ids in tables
            for i, user_id in enumerate(ids)
            if user_id in known
        ),
        batch_size=2000,
    )


def to_list(apps, schema_editor):
    TournamentTable = apps.get_model("tournaments", "TournamentTable")
    TournamentSeat = apps.get_model("tournaments", "TournamentSeat")
    players: dict[int, list[int]] = {}
    for table_id, user_id in TournamentSeat.objects.order_by("table_id", "position").values_list(
        "table_id", "user_id"
    ):
        players.setdefault(table_id, []).append(user_id)
    for table in TournamentTable.objects.filter(pk__in=players):
        table.players = players[table.pk]
        table.save(update_fields=["players"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_tournament_projector_token"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="TournamentSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField()),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="tournaments.tournamenttable",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournament_seats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["table_id", "position"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("table", "position"), name="tournament_seat_position_unique"
                    ),
                    models.UniqueConstraint(
                        fields=("table", "user"), name="tournament_seat_user_unique"
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="tournamenttable",
            name="users",
            field=models.ManyToManyField(
                related_name="tournament_tables",
                through="tournaments.TournamentSeat",
                to=settings.AUTH_USER_MODEL,
                verbose_name="players",
            ),
        ),
        migrations.RunPython(to_seats, to_list),
        migrations.RemoveField(model_name="tournamenttable", name="players"),
    ]
