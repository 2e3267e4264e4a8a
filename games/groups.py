"""The one place that names channel-layer groups for games."""


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def player_group(user_id: int) -> str:
    """One person's lobby sockets: told when a table of his moves on."""
    return f"player.{user_id}"
