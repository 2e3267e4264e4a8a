"""Live tournament pages: the one place that names their channel group and sends to it."""

from infra.background import group_send


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def broadcast_tournament(tournament_id: int) -> None:
    """Tell every open page of a tournament to re-render; content-free like the table's."""
    group_send((tournament_group(tournament_id), {"type": "tournament.changed"}))
