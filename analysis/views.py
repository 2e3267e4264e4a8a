"""Asking for an analysis, and its progress on the page.

Who may ask: a player of a finished game for his own seat, and anyone signed in who may see
the game for all its seats at once, or for a seat asked for before (a failed one tried
again). Anyone who may see the game sees what was analysed.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from accounts.http import HtmxHttpRequest, MemberRequest
from analysis import actions, shown
from games.access import not_found, viewer_of
from games.models import Table


def _visible_table(request: HtmxHttpRequest, table_id: int) -> Table:
    table = Table.objects.select_related("club").filter(pk=table_id).first()
    if table is None or not viewer_of(table, request.user)[0]:
        raise not_found()
    return table


def _back(request: HtmxHttpRequest, table: Table) -> str:
    back = request.POST.get("next") or request.GET.get("next") or ""
    if back and url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        return back
    return reverse("history_replay", args=[table.pk])


def _panel(request: HtmxHttpRequest, table: Table, error: str = "", status: int = 200):
    context = shown.panel(table, request.user, error) | {"analysis_next": _back(request, table)}
    if request.htmx:
        return render(request, "analysis/panel.html#panel", context, status=status)
    return render(request, "analysis/refused.html", context, status=status)


@require_POST
@login_required
def analyse(request: MemberRequest, table_id: int) -> HttpResponse:
    """Ask for the analysis of one seat (`seat`: its position) or of every seat (`all`)."""
    table = _visible_table(request, table_id)
    if table.status != Table.FINISHED:
        return _panel(request, table, _("Only a finished game can be analysed."), 409)
    if not shown.analysable(table):
        return _panel(request, table, _("This game has no analysis."), 400)
    seats = [seat.position for seat in table.seats.all()]
    given = request.POST.get("seat", "")
    if given == "all":
        wanted = seats
    else:
        try:
            seat = int(given)
        except ValueError:
            return _panel(request, table, _("Say which seat to analyse."), 400)
        if seat not in seats:
            return _panel(request, table, _("This game has no such seat."), 400)
        # One's own seat, or one asked for before (a failed one tried again).
        mine = table.seats.filter(position=seat, user=request.user).exists()
        if not mine and not table.analyses.filter(seat=seat).exists():
            message = _("You may ask for the analysis of your own seat, or of all seats.")
            return _panel(request, table, message, 403)
        wanted = [seat]
    actions.request(table, wanted, request.user)
    if request.htmx:
        return _panel(request, table)
    return redirect(_back(request, table))


@require_GET
def progress(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The panel while analyses are under way; once none is, the page is drawn afresh with
    them (the replay with its marks)."""
    table = _visible_table(request, table_id)
    context = shown.panel(table, request.user)
    if not request.htmx:
        return redirect(_back(request, table))
    if not context["analysis_pending"]:
        return HttpResponseClientRefresh()
    return render(
        request,
        "analysis/panel.html#panel",
        context | {"analysis_next": _back(request, table)},
    )
