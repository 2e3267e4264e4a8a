"""The one place that names channel-layer groups for games."""


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"
