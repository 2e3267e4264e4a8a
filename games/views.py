from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import actions, registry, rendering
from games.access import get_table_for_viewer, not_found
from games.forms import TableForm, games_offered
from games.models import Table
from games.rendering import render_board


def lobby_context(user, page: int = 1) -> dict:
    visible = (
        Table.objects.visible_to(user).select_related("club", "host").prefetch_related("seats")
    )
    mine = Table.objects.playing(user)
    return {
        "open_tables": visible.filter(status=Table.OPEN)[:50],
        "running": Paginator(visible.filter(status=Table.RUNNING), 20).get_page(page),
        "my_tables": mine,
        "moves_waiting": sum(table.my_move for table in mine),
        "user": user,
        "games": games_offered(),
    }


def moves_waiting(request):
    """The header's count of games waiting for the visitor, alone: a page whose own game
    moved on draws it afresh."""
    n = sum(table.my_move for table in Table.objects.playing(request.user))
    return render(request, "games/_moves_waiting.html", {"n": n})


def lobby(request):
    context = lobby_context(request.user, request.GET.get("page", 1))
    context["oob"] = bool(request.htmx)
    template = "games/lobby.html#tables" if request.htmx else "games/lobby.html"
    return render(request, template, context)


@login_required
def table_create(request):
    games = {game.key: game for game in registry.playable()}
    game = request.POST.get("game") or request.GET.get("game") or next(iter(games))
    if game not in games:
        raise Http404(_("There is no such game to play here."))
    form = TableForm(request.POST or None, user=request.user, game=game)
    if request.method == "POST" and form.is_valid():
        table = actions.create_table(request.user, **form.table_options())
        messages.success(request, _("Your table is open. Invite players with the link below."))
        return redirect(table)
    context = {"form": form, "game": games[game], "games": games.values()}
    return render(request, "games/table_create.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def table_against_ai(request):
    """A game against AI players in one click, from the home page or the lobby: the table
    opens with AI players in every other seat, starts, and the player goes straight to it.
    Shown by itself after a login, and again with what was wrong."""
    game = request.POST.get("game") if request.method == "POST" else None
    offered = games_offered(request.POST, game)
    chosen = next((o for o in offered if o["game"].key == game and o["against_ai"]), None)
    if game is not None and chosen is None:
        raise Http404(_("There is no such game to play here."))
    if chosen is not None and chosen["against_ai"].is_valid():
        data = chosen["against_ai"].cleaned_data
        table = actions.play_against_ai(
            request.user, game=game, seats_count=data["seats_count"], level=data["level"]
        )
        return redirect(table)
    status = 400 if chosen is not None else 200
    return render(request, "games/against_ai.html", {"games": offered}, status=status)


def table(request, table_id: int):
    table, viewer = get_table_for_viewer(request, table_id)
    if table.status in (Table.OPEN, Table.CANCELLED):
        return render(request, "games/waiting_room.html", _waiting_context(request, table))
    context = table.plugin.board_context(table, table.state(), viewer)
    context |= {"ws": True, **_chat(request, table)}
    return render(request, table.plugin.page_template, context)


def _chat(request, table: Table) -> dict:
    """The table talk's last lines, and whether this visitor may add one."""
    last = table.chat.select_related("seat").order_by("-created", "-pk")[:100]
    return {
        "chat": list(last)[::-1],
        "can_chat": table.seats.filter(user=request.user.pk or 0, left=False).exists(),
    }


def _waiting_context(request, table: Table) -> dict:
    seats = {seat.position: seat for seat in table.seats.select_related("user")}
    return {
        "table": table,
        "seats": [(p, seats.get(p)) for p in range(table.seats_count)],
        # At a managed table (a tournament's) nobody seated hosts: its event does.
        "is_host": not table.managed and request.user.pk == table.host_id,
        "my_seat": next((s for s in seats.values() if s.user_id == request.user.pk), None),
        "invite_url": request.build_absolute_uri(
            redirect("table_invite", token=table.invite_token).url
        ),
        "full": len(seats) == table.seats_count,
        "ai_levels": table.plugin.ai_levels,
        "ai_default": table.plugin.default_ai_level,
        **_chat(request, table),
    }


def _refusal(request, table_id: int, error: actions.Refused) -> HttpResponse:
    if not request.htmx:
        messages.error(request, error.message)
        return redirect("table", table_id=table_id)
    board = ""
    if error.code == "already-played":
        # A stale page: show the message and the fresh board in one answer.
        table, viewer = get_table_for_viewer(request, table_id)
        board = render_board(table, viewer, get_language(), request=request, oob=True)
    context = {"message": error.message, "board": board}
    return render(request, "games/notice.html#refusal", context, status=error.status)


def move_text(post) -> str:
    """A move as a page sends it: whole in `action`, or made of choices (a spy's player and
    card, the mercenaries ticked one by one): `action`'s words, then the player chosen in
    `target`, then each choice in `part`. The game reads and checks the whole as any move."""
    words = [post.get("action", ""), post.get("target", ""), *post.getlist("part")]
    return " ".join(word for word in words if word)


@require_POST
@login_required
def table_play(request, table_id: int):
    # Only a seated player may move; play_for checks that under the table's lock. A refusal
    # is told only to whom may see the table: to others it is the 404 of a missing one.
    try:
        # No version: a real-time move (a slap), if the game has such moves.
        given = request.POST.get("version", "")
        version = int(given) if given else None
    except ValueError:
        get_table_for_viewer(request, table_id)
        return _refusal(request, table_id, actions.Refused(_("The move lacks its position.")))
    try:
        actions.play_for(table_id, request.user, move_text(request.POST), version)
    except Table.DoesNotExist:
        raise not_found() from None
    except actions.Refused as error:
        get_table_for_viewer(request, table_id)
        return _refusal(request, table_id, error)
    if request.htmx:
        # The board reaches this page, like every other, through the table's push.
        return HttpResponse(status=204)
    return redirect("table", table_id=table_id)


@require_POST
@login_required
def table_continue(request, table_id: int):
    get_table_for_viewer(request, table_id)
    try:
        # The position of the pause the page showed; none from an older page: the current one.
        given = request.POST.get("version", "")
        version = int(given) if given else None
    except ValueError:
        return _refusal(request, table_id, actions.Refused(_("The move lacks its position.")))
    try:
        actions.continue_round(table_id, request.user, version)
    except actions.Refused as error:
        return _refusal(request, table_id, error)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("table", table_id=table_id)


SEAT_OPERATIONS = {
    "take": lambda table_id, user, post: actions.take_seat(table_id, user),
    "leave": lambda table_id, user, post: actions.leave_seat(table_id, user),
    "remove": lambda table_id, user, post: actions.leave_seat(
        table_id, user, int(post["position"])
    ),
    "add_ai": lambda table_id, user, post: actions.add_ai(table_id, user, post.get("level")),
    "swap": lambda table_id, user, post: actions.move_seat(
        table_id, user, int(post["position"]), int(post["to"])
    ),
    "start": lambda table_id, user, post: actions.start(table_id, user),
    "cancel": lambda table_id, user, post: actions.cancel(table_id, user),
    "leave_game": lambda table_id, user, post: actions.leave_game(table_id, user),
}


@require_POST
@login_required
def table_seat(request, table_id: int):
    get_table_for_viewer(request, table_id)
    operation = SEAT_OPERATIONS.get(request.POST.get("op", ""))
    if operation is None:
        return _refusal(request, table_id, actions.Refused(_("Unknown request.")))
    try:
        operation(table_id, request.user, request.POST)
    except (KeyError, ValueError):
        return _refusal(request, table_id, actions.Refused(_("The request lacks a seat.")))
    except actions.Refused as error:
        return _refusal(request, table_id, error)
    url = (
        reverse("lobby")
        if request.POST["op"] in ("cancel", "leave")
        else reverse("table", args=[table_id])
    )
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_POST
@login_required
def table_rematch(request, table_id: int):
    get_table_for_viewer(request, table_id)
    try:
        following = actions.rematch(table_id, request.user)
    except actions.Refused as error:
        return _refusal(request, table_id, error)
    url = following.get_absolute_url()
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_POST
@login_required
def table_chat(request, table_id: int):
    get_table_for_viewer(request, table_id)
    try:
        actions.say(table_id, request.user, request.POST.get("text", ""))
    except actions.Refused as error:
        return _refusal(request, table_id, error)
    # The line reaches this page, like every other, through the table's push.
    return HttpResponse("") if request.htmx else redirect("table", table_id=table_id)


def table_invite(request, token: str):
    table = Table.objects.filter(invite_token=token).first()
    if table is None:
        raise Http404(_("This invite link is not valid: the table may have been cancelled."))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{redirect('login').url}?next={request.path}")
        try:
            actions.take_seat(table.pk, request.user)
        except actions.Refused as error:
            messages.error(request, error.message)
        return redirect(table)
    return render(request, "games/invite.html", {"table": table})


def discard_pile(request, table_id: int, pile: str):
    """One of the table's piles, card by card, as its game shows it (Game.pile_page)."""
    table, viewer = get_table_for_viewer(request, table_id)
    page = table.record is not None and table.plugin.pile_page(table, table.state(), viewer, pile)
    if not page:
        raise Http404(_("There is no such pile."))
    template, context = page
    return render(request, template, {"table": table, **context})


def rules(request, game: str):
    """A game's rules at hand, in the page's language: one template per game."""
    try:
        plugin = registry.get(game)
        template = get_template(f"games/rules/{plugin.key}.html")
    except (KeyError, TemplateDoesNotExist):
        raise Http404(_("There are no rules here for this game.")) from None
    return HttpResponse(template.render({"game": plugin, **plugin.rules_context()}, request))


def result(request, table_id: int):
    table, viewer = get_table_for_viewer(request, table_id)
    if table.result is None:
        raise Http404(_("This game has no result yet."))
    state = table.state()
    # The game's result, seat by seat; the seats' names in the viewer's language.
    outcome = table.plugin.result(table, state)
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    names = [seat.display_name for seat in seats]
    order = sorted(range(len(seats)), key=lambda i: (outcome.placings[i], -outcome.scores[i]))
    rows = [
        {
            "name": seats[i].name,
            "shown": names[i],
            "place": outcome.placings[i],
            "total": outcome.scores[i],
            "rounds": outcome.round_scores[i],
            "forfeited": seats[i].forfeited,
            "mine": viewer == i,
        }
        for i in order
    ]
    context = {
        "table": table,
        "rows": rows,
        "rounds": range(1, len(outcome.round_scores[0]) + 1),
        "viewer": viewer,
        "headline": rendering.standing(outcome.placings, viewer, names),
        "summaries": table.plugin.round_summaries(state, names),
    }
    return render(request, "games/result.html", context)
