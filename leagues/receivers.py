"""Leagues keep the results that play announces (games.signals)."""

from leagues.results import record_result


def record_online_result(sender, table, result, **kwargs) -> None:
    """A finished online table becomes a played game, in the transaction of its final move.

    AI players and forfeits: the game still counts, people's ratings move, bots' do not.
    """
    seats = list(table.seats.select_related("user").order_by("position"))
    record_result(
        result,
        players=[seat.user if seat.user else seat.name for seat in seats],
        played_at=table.finished,
        club=table.club,
        options=table.options,
        rated=table.rated,
        external_ref=f"online:{table.pk}",
        game=table.game,
        table=table,
    )
