"""Tables of De l'Orc for tests: people and AI players seated, the deal placed in time."""

from datetime import timedelta

from django.utils import timezone

from games import actions
from games.models import Table
from games.orc.models import Deal
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


def finished_orc_table(players, seed=5) -> Table:
    """A public table that played a whole random game of De l'Orc to its end; `players`:
    users, or the names of AI players ("Sergeant 2", written "Sergeant-2" in the record)."""
    from games.models import Seat
    from games.orc import engine

    names = ["-".join(p.split()) if isinstance(p, str) else p.username for p in players]
    game = engine.random_game(len(players), seed=seed, names=names)
    table = Table.objects.create(
        host=players[0],
        game="orc",
        visibility="public",
        seats_count=len(players),
        options={"pace": 1.2},
        status=Table.FINISHED,
        record=engine.to_record(game),
        result=engine.result(game),
        finished=timezone.now(),
    )
    for position, player in enumerate(players):
        ai = isinstance(player, str)
        Seat.objects.create(
            table=table,
            position=position,
            user=None if ai else player,
            ai_level="heuristic" if ai else "",
            name=player if ai else player.username,
        )
    return table


def random_positions(names):
    """(record, its lines, n, the position after n lines) of random games of `names`, seed
    by seed: for finding a position where something happens."""
    from games.orc import engine
    from games.orc.replay import position
    from games.records import action_lines

    for seed in range(1, 200):
        record = engine.to_record(engine.random_game(len(names), seed=seed, names=names))
        lines = action_lines(record)
        for n in range(1, len(lines) + 1):
            yield record, lines, n, position(record, n)


def table_at(users, record, dealt=None):
    """A started table of `users` (the first hosts) moved to the position of `record`, its
    deal's clock at `dealt` cards (plus half a card); with that position, as dealt."""
    from games.orc import engine
    from games.orc.game import DE_L_ORC

    table = orc_table(users[0], users[1:], pace=2.0)
    state = engine.from_record(record)
    if dealt is not None:
        set_deal(table, dealt + 0.5)
        state.deal(dealt)
    Table.objects.filter(pk=table.pk).update(record=record, version=DE_L_ORC.version(state))
    table.refresh_from_db()
    return table, state


def said(line: str, names: list[str]) -> str:
    """A record's line as the log and the replay say it, in the active language."""
    from games.orc import engine
    from games.orc.board import sentence

    name, text = line.split(": ", 1)
    return sentence(engine.parse_action(text, names, names.index(name)), names)
