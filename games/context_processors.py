"""What every page's header shows of the games: how many wait for the visitor's move."""

from games.models import Table


def moves_waiting(request) -> dict:
    """Counted only where a template asks (the header), not for partials."""
    user = request.user

    def count() -> int:
        return sum(table.my_move for table in Table.objects.playing(user))

    return {"moves_waiting": count}
