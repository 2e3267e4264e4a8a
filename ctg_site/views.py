import asyncio
import logging
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from accounts import limits
from games.forms import games_offered
from games.models import Table
from history.queries import with_rows
from infra import liveness
from infra.celery import app as celery_app
from leagues.models import League, PlayedGame
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

RECENT_GAMES = 5
OPEN_PADS = 10


def home(request: HttpRequest) -> HttpResponse:
    """For a visitor, what the site is; for a player, what is going on for them."""
    games = {"games": games_offered()}
    if not request.user.is_authenticated:
        return render(request, "home.html", games)
    return render(request, "home.html", games | _dashboard(request.user))


def _dashboard(user) -> dict:
    clubs = list(user.clubs.all())
    leagues = [
        {
            "league": league,
            "row": next((r for r in league.table if r.get("user_id") == user.pk), None),
            "players": len(league.table),
        }
        for league in League.objects.filter(participants=user, is_open=True).select_related("club")
    ]
    tournaments = Tournament.objects.filter(
        club__in=clubs, status__in=[Tournament.REGISTRATION, Tournament.RUNNING]
    ).select_related("club")
    entries = user.tournament_entries.filter(dropped=False)
    entered = set(entries.values_list("tournament", flat=True))
    games = PlayedGame.objects.confirmed().filter(seats__user=user).order_by("-played_at")
    recent = []
    for game in with_rows(games)[:RECENT_GAMES]:
        seats = list(game.seats.all())
        recent.append(
            {"game": game, "me": next(s for s in seats if s.user_id == user.pk), "of": len(seats)}
        )
    # Score pads the player can act on: confirm another's entry, or finish entering one.
    pads = PlayedGame.objects.filter(source=PlayedGame.PAD, club__in=clubs).filter(
        Q(status=PlayedGame.AWAITING, seats__user=user) & ~Q(created_by=user)
        | Q(status=PlayedGame.DRAFT) & (Q(created_by=user) | Q(seats__user=user))
    )
    return {
        "clubs": clubs,
        "pads": pads.select_related("club", "league").distinct().order_by("-played_at")[:OPEN_PADS],
        "my_tables": Table.objects.playing(user),
        "leagues": leagues,
        "tournaments": [(t, t.pk in entered) for t in tournaments],
        "recent": recent,
    }


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


async def _round_trip(layer) -> None:
    # A channel of its own rather than one of this process's: its answer does not queue
    # behind the sockets' deliveries, and it checks Redis, not the load on this process.
    channel = f"healthz.{uuid.uuid4().hex}"
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz.ping", "token": token})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    if message.get("token") != token:
        raise RuntimeError("the channel layer returned another message")


def _check_channel_layer() -> str:
    async_to_sync(_round_trip)(get_channel_layer())
    return "ok"


def _check_broker() -> str:
    if not settings.CELERY_BROKER_URL:
        return "in-process"
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return "ok"


def healthz(request: HttpRequest) -> JsonResponse:
    """State of the parts the site needs: 200 when all are healthy, else 503 naming them."""
    checks = {
        "database": _check_database,
        "channel_layer": _check_channel_layer,
        "broker": _check_broker,
    }
    state, failing = {}, []
    for name, check in checks.items():
        try:
            state[name] = check()
        except Exception:  # any failure of a part is reported, not raised
            # Its text may name hosts and credentials: for the log, not for visitors.
            logger.exception("healthz: the %s check failed", name)
            state[name] = "error"
            failing.append(name)
    body: dict[str, object] = {
        "status": "fail" if failing else "ok",
        "failing": failing,
        "checks": state,
        # Requests this process let through uncounted while Redis was away: shown, not judged.
        "rate_limits": limits.failed_open.metric(),
    }
    if settings.CELERY_BROKER_URL:
        # Shown, not judged: a load balancer asks this page whether to send visitors to this
        # web process, which serves them as well with the workers down.
        try:
            body["processes"] = liveness.heartbeats()
        except Exception:
            logger.exception("healthz: the heartbeats could not be read")
            body["processes"] = "error"
    return JsonResponse(body, status=503 if failing else 200)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused form: an htmx request gets a notice for its page, a form post a styled page."""
    message = _("This page is out of date (you may have logged in or out elsewhere): reload it.")
    if request.headers.get("HX-Request") == "true":
        return render(request, "games/notice.html#refusal", {"message": message}, status=403)
    return render(request, "403.html", {"exception": message}, status=403)


def error_preview(request: HttpRequest, code: int) -> HttpResponse:
    """Lets a developer look at the error pages with DEBUG on."""
    if code == 403:
        raise PermissionDenied
    if code == 404:
        raise Http404
    return render(request, "500.html", status=500)
