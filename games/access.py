"""Who may see and do what at a table: the one place these checks live."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from games.models import Table


def viewer_of(table: Table, user) -> tuple[bool, int | None]:
    """(may watch, own seat position or None). Players see their seat; others the public view."""
    if user.is_authenticated:
        seat = table.seats.filter(user=user).first()
        if seat is not None:
            return True, seat.position
    if table.visibility == Table.PUBLIC:
        return True, None
    return bool(user.is_authenticated and table.club.memberships.filter(user=user).exists()), None


def get_table_for_viewer(request, table_id: int) -> tuple[Table, int | None]:
    table = get_object_or_404(Table.objects.select_related("club", "host"), pk=table_id)
    allowed, viewer = viewer_of(table, request.user)
    if not allowed:
        raise Http404(_("This table is for members of its club only."))
    return table, viewer
