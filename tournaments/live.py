"""Live tournament pages: the one place that names their channel group and sends to it."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def broadcast_tournament(tournament_id: int) -> None:
    """Tell every open page of a tournament to re-render; content-free like the table's."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            tournament_group(tournament_id), {"type": "tournament.changed"}
        )
