"""Live league tables: the one place that names channel groups and sends to them."""

from infra.background import group_send


def league_group(league_id: int) -> str:
    return f"league.{league_id}"


def broadcast_table(league_id: int) -> None:
    """Tell every open page of the league to re-render its table, each for its own viewer.

    Called after commit only; the message carries no content, so nothing leaks.
    """
    group_send((league_group(league_id), {"type": "league.table"}))
