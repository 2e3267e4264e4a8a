from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from accounts.http import HtmxHttpRequest
from analysis import shown as analysis_shown
from games import registry
from games.access import not_found as table_not_found
from games.access import viewer_of
from games.models import Seat as TableSeat
from games.models import Table
from history import queries, records, replay
from leagues.forms import posted_number
from leagues.models import PlayedGame, PlayedSeat, RatingHistory, RoundScore
from tournaments.models import TournamentTable

PAGE_SIZE = 25


def _page(request: HtmxHttpRequest, games, size: int):
    paginator = Paginator(games, size)
    return paginator.get_page(request.GET.get("page"))


def history_list(request: HtmxHttpRequest) -> HttpResponse:
    form = queries.HistoryFilter(request.GET, request.user)
    games = queries.with_rows(form.filter(queries.visible_games(request.user)))
    page = _page(request, games, PAGE_SIZE)
    query = request.GET.copy()
    query.pop("page", None)
    shown = _ai_names(page.object_list)
    context = {
        "form": form,
        "page": page,
        "rows": [_row(game, shown) for game in page.object_list],
        "query": query.urlencode(),
        "active_filters": sum(1 for name in form.fields if request.GET.get(name)),
    }
    if not request.htmx:
        return render(request, "history/list.html", context)
    results = render_to_string("history/list.html#results", context, request=request)
    if request.htmx.trigger_name == "game":
        # Another game chosen: its own filters replace the last one's.
        context["oob"] = True
        results += render_to_string("history/list.html#game_filters", context, request=request)
    return HttpResponse(results)


def _ai_names(games) -> dict[tuple[int, int], str]:
    """The names of the AI players of these games, in the viewer's language, by (game, seat)."""
    tables = {game.table_id: game.pk for game in games if game.table_id}
    seats = TableSeat.objects.filter(table_id__in=tables).exclude(ai_level="")
    return {
        (tables[seat.table_id], seat.position): seat.display_name
        for seat in seats.select_related("table")
    }


def _named(seats, shown: dict[tuple[int, int], str]) -> list[tuple[PlayedSeat, str]]:
    return [(seat, shown.get((seat.game_id, seat.seat), seat.name)) for seat in seats]


def _row(game: PlayedGame, shown: dict[tuple[int, int], str]) -> dict:
    seats = sorted(game.seats.all(), key=lambda s: (s.place or 9, s.seat))
    return {
        "game": game,
        # The site's own game goes without saying; any other is named.
        "named": game.game != registry.first().key,
        "seats": _named(seats, shown),
        "table_id": game.table_id,
        "replays": registry.get(game.game).replay is not None,
        "imported": records.is_imported(game),
    }


def _visible_game(request: HtmxHttpRequest, game_id: int) -> PlayedGame:
    games = queries.visible_games(request.user).select_related("club", "league")
    return get_object_or_404(games, pk=game_id)


def game_detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    seats = list(
        game.seats.select_related("user").prefetch_related(
            Prefetch("round_scores", queryset=RoundScore.objects.order_by("round_no"))
        )
    )
    rounds = [
        {
            "round": r,
            "scores": [
                next((s.total for s in seat.round_scores.all() if s.round_no == r), "")
                for seat in seats
            ],
        }
        for r in range(1, game.rounds + 1)
    ]
    pad = registry.get(game.game).pad
    changes = _rating_changes(game, seats)
    shown = _ai_names([game])
    table_id = game.table_id
    table = Table.objects.filter(pk=table_id).first() if table_id else None
    context = {
        "game": game,
        "imported": records.is_imported(game),
        "seats": _named(seats, shown),
        "rounds": rounds,
        "changes": changes,
        "placed": _named(sorted(seats, key=lambda s: (s.place or 9, s.seat)), shown),
        "table": table if table and table.status == Table.FINISHED else None,
        "tournament_table": TournamentTable.objects.filter(game=game)
        .select_related("round__stage__tournament__club")
        .first(),
        # The game's own account of the rounds, if it keeps one (De l'Orc's battles).
        "result": pad.played_rounds(
            queries.game_result(game), {seat.name: name for seat, name in _named(seats, shown)}
        )
        if pad is not None
        else None,
        "played_template": pad.played_template if pad is not None else "",
    }
    if table is not None and table.status == Table.FINISHED:
        context |= analysis_shown.panel(table, request.user) | {
            "analysis_next": request.get_full_path()
        }
    return render(request, "history/game.html", context)


def _rating_changes(game: PlayedGame, seats: list[PlayedSeat]) -> dict[int, dict]:
    """Each member's displayed rating after this game and the change it made."""
    after = {row.user_id: row for row in RatingHistory.objects.filter(game=game)}
    changes = {}
    for seat in seats:
        if seat.user_id is None:
            continue
        row = after.get(seat.user_id)
        if row is None:
            continue
        before = (
            RatingHistory.objects.filter(user_id=seat.user_id, game_key=game.game)
            .filter(
                Q(played_at__lt=row.played_at) | Q(played_at=row.played_at, game_id__lt=row.game_id)
            )
            .order_by("-played_at", "-game_id")
            .values_list("display", flat=True)
            .first()
        )
        delta = None if before is None else row.display - before
        changes[seat.pk] = {"after": row.display, "delta": delta}
    return changes


def _finished_table(request: HttpRequest, table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id, status=Table.FINISHED).first()
    if table is None or not viewer_of(table, request.user)[0]:
        raise table_not_found()
    return table


def record_download(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """Finished games only: a running game's record holds the order of the decks."""
    table = _finished_table(request, table_id)
    # The date travels with the record, so that importing it elsewhere keeps it.
    record = dict(table.record or {})
    if table.finished:
        record["played_at"] = table.finished.isoformat()
    response = HttpResponse(
        json.dumps(record, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{table.game}-table-{table.pk}.json"'
    return response


def replay_view(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """Step through a game. While it runs: its own players only, their own seat's view."""
    table = (
        Table.objects.select_related("club")
        .filter(pk=table_id, status__in=[Table.RUNNING, Table.FINISHED])
        .first()
    )
    allowed, own_seat = viewer_of(table, request.user) if table else (False, None)
    if table is None or not allowed or table.plugin.replay is None:
        raise Http404(_("There is no replay of this game for you."))
    running = table.status == Table.RUNNING
    if running and own_seat is None:
        raise Http404(_("There is no replay of this game for you."))
    seats = list(table.seats.all())
    if running:
        viewer = own_seat
        views = []
    else:
        viewer = posted_number(request.GET, "seat")
        if viewer is not None and viewer >= len(seats):
            viewer = None
        views = [{"seat": None, "name": _("Public view")}] + [
            {"seat": s.position, "name": s.display_name} for s in seats
        ]
    record: dict = table.record or {}
    game = table.plugin
    shows = game.replay
    assert shows is not None
    steps = shows.steps(record)
    total = len(steps)
    try:
        step = int(request.GET.get("step", total))
    except ValueError:
        step = total
    if "decision" in request.GET and viewer is not None and not running:
        # A link to one decision of an analysis: the step at which it was taken.
        found = analysis_shown.step_of_decision(
            table, record, steps, viewer, request.GET["decision"]
        )
        step = total if found is None else found
    step = max(0, min(step, total))
    state = replay.position(shows, record, steps, step)
    if running and step == total:
        state = shows.present(table, state)
    # A replay only shows: no clock, no pause between rounds (nor its button and countdown),
    # whatever the live table is at now; no decisions to take, no cards to put down, no
    # rematch to ask for, no game to leave. The table is drawn, never saved.
    table.deadline = table.pause_until = None
    table.continued = []
    board = shows.board(game.board_context(table, state, viewer))
    current = steps[step - 1] if step else None
    context = {
        "table": table,
        "board_html": render_to_string(game.board_template, board, request=request),
        "step": step,
        "total": total,
        "viewer": viewer,
        "views": views,
        "running": running,
        "last_action": shows.shown_action(
            state, current.actions - 1, current.text, viewer, [s.display_name for s in seats]
        )
        if current and current.text
        else "",
        "jumps": replay.jumps(steps, step) if replay.skips(steps) else None,
        "seat_query": "" if viewer is None or running else f"&seat={viewer}",
        "played_game": PlayedGame.objects.filter(table=table).first(),
        "replay_template": shows.template,
    }
    context |= shows.context(current, board)
    names = [s.display_name for s in seats]
    context |= analysis_shown.replay_context(request, table, record, steps, step, viewer, names)
    template = "history/replay.html#replay" if request.htmx else "history/replay.html"
    return render(request, template, context)


@login_required
def record_import(request: HtmxHttpRequest) -> HttpResponse:
    error = ""
    text = ""
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is not None:
            text = upload.read(2_000_000).decode("utf-8", errors="replace")
        else:
            text = request.POST.get("record", "")
        try:
            imported = records.import_record(records.parse(text), request.user)
        except registry.RecordRefused as refused:
            error = refused.message
        else:
            if imported.new:
                messages.success(request, _("The game was imported as an unrated game."))
            else:
                messages.info(request, _("This game was imported before: here it is."))
            return redirect("history_game", imported.game.pk)
    status = 400 if error else 200
    return render(request, "history/import.html", {"error": error, "text": text}, status=status)
