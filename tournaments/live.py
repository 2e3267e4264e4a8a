"""Live tournament pages: the one place that names their channel group and sends to it; and
the notice each player of a table that starts gets on whatever page he has open."""

from accounts.live import keep, notice, person_group
from infra.background import group_send


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def broadcast_tournament(tournament_id: int) -> None:
    """Tell every open page of a tournament to re-render; content-free like the table's."""
    group_send((tournament_group(tournament_id), {"type": "tournament.changed"}))


def tell_table_ready(
    table_id: int, online_table_id: int, number: int, event: str, players: list[int], seconds: float
) -> None:
    """Each of `players` sees on his open pages that his table (`table_id`, a tournament
    table) has started, with the link to its online table, and on the pages he opens within
    `seconds` (while the seat waits for him). A table restarted replaces its notice."""
    context = {"table_id": online_table_id, "number": number, "event": event}
    message = notice("tournaments/_table_ready.html", context, f"event-table-{table_id}")
    group_send(*[(person_group(p), message) for p in players])
    keep(players, message, seconds)
