"""Who may see and do what at a table: the one place these checks live."""

from django.http import Http404
from django.utils.translation import gettext as _

from accounts.access import is_member
from games.models import Seat, Table


def viewer_of(table: Table, user) -> tuple[bool, int | None]:
    """(may watch, own seat position or None). Players see their seat; others the public view.

    A player who left a running game has given his seat to a stand-in: he watches it like
    anybody else. Seats move while pages stay open, so ask again for every render.
    """
    if user.is_authenticated:
        seat = next((s for s in table.seats.all() if s.user_id == user.pk and not s.left), None)
        if seat is not None:
            return True, seat.position
    if table.visibility == Table.PUBLIC:
        return True, None
    return is_member(user, table.club_id) if table.club_id else False, None


def seated(table_id: int) -> list[tuple[int, int, str]]:
    """(user id, position, his chosen language or "") of who sits where now: the seats of
    viewer_of."""
    seats = Seat.objects.filter(table_id=table_id, user__isnull=False, left=False)
    return list(seats.values_list("user_id", "position", "user__preferred_language"))


def seat_positions(table_id: int) -> dict[str, int]:
    """Who sits where now, by user id (as text, to travel in a push)."""
    return {str(user): position for user, position, _ in seated(table_id)}


def not_found() -> Http404:
    """One answer for a table that does not exist and one the visitor may not see, so that
    nobody learns which ids are taken by club-only tables."""
    return Http404(_("There is no such table, or it is for members of its club only."))


def get_table_for_viewer(request, table_id: int) -> tuple[Table, int | None]:
    table = Table.objects.select_related("club", "host").filter(pk=table_id).first()
    if table is None:
        raise not_found()
    allowed, viewer = viewer_of(table, request.user)
    if not allowed:
        raise not_found()
    return table, viewer
