"""Tables of De l'Orc for tests: people and AI players seated, the deal placed in time."""

from datetime import timedelta

from django.utils import timezone

from games import actions
from games.models import Deal, Table
from tests.conftest import persona


def orc_table(host, people=(), ai=(), pace=0.8, **options) -> Table:
    """An orc table hosted by `host`, with `people` then AI players of `ai` levels, started."""
    defaults = {"game": "orc", "seats_count": 1 + len(people) + len(ai), "visibility": "public"}
    table = actions.create_table(
        host, options={"pace": pace}, **(defaults | {"seat_order": "host"} | options)
    )
    for user in people:
        actions.take_seat(table.pk, user)
    for level in ai:
        actions.add_ai(table.pk, host, level)
    actions.start(table.pk, host)
    table.refresh_from_db()
    return table


def people(*names):
    return [persona(name) for name in names]


def set_deal(table: Table, dealt: float) -> Deal:
    """Move the current deal's start so that `dealt` cards are down now (fractions: between)."""
    deal = Deal.objects.get(table=table)
    deal.started = timezone.now() - timedelta(seconds=dealt * deal.pace)
    deal.save(update_fields=["started"])
    return deal
