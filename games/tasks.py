"""Thin tasks: take ids, call actions. Each is safe to run twice (version checks)."""

import logging
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_ready
from django.conf import settings
from django.db import OperationalError
from django.db.models import F, Q
from django.utils import timezone

from games import actions, registry
from games.models import Table
from infra import claims
from infra.background import enqueue

logger = logging.getLogger(__name__)

# A table that waits this long for an AI move that no task waits for or plays (infra.claims)
# has lost its task: a worker died, Redis restarted. The claims tell a lost move from a slow
# one; the wait only lets a move just saved queue its task first.
AI_QUIET = timedelta(seconds=1)


def ai_claim(table_id: int, version: int) -> str:
    return f"ai-move:{table_id}:{version}"


def queue_ai_move(table_id: int, version: int) -> None:
    """Set the AI move at `version` going once the current transaction commits."""
    enqueue(ai_move, table_id, version, claim=ai_claim(table_id, version))


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=8,
    time_limit=15,
)
def ai_move(table_id: int, version: int) -> bool:
    """Keyed by table and version: a move for a position that moved on is dropped, and one
    that another task plays is left to it. While it plays, its claim tells the sweeps that
    the move is under way; it lapses within seconds if this process dies."""
    with claims.running(ai_claim(table_id, version)) as mine:
        if not mine:
            return False
        try:
            return actions.ai_play(table_id, version)
        except SoftTimeLimitExceeded:
            return actions.ai_play(table_id, version, stand_in=True)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def clock_check(table_id: int, version: int) -> bool:
    return actions.time_out(table_id, version)


def queue_clock_check(table: Table) -> None:
    """Set the check of the table's deadline going for the moment it passes, once the current
    transaction commits: for a game's own step with a clock (De l'Orc's placing step)."""
    assert table.deadline is not None
    seconds = (table.deadline - timezone.now()).total_seconds()
    enqueue(clock_check, table.pk, table.version, countdown=max(seconds, 0) + 0.5)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def end_pause(table_id: int, version: int) -> bool:
    return actions.end_pause(table_id, version)


@shared_task
def sweep_pauses() -> int:
    """Begin the rounds whose pause timer was lost (a restart)."""
    due = Table.objects.filter(status=Table.RUNNING, pause_until__lt=timezone.now())
    return sum(actions.end_pause(t.pk, t.version) for t in due.only("pk", "version"))


@shared_task
def sweep_reminders() -> int:
    """Email the people whose move has waited TURN_REMINDER_DELAY in a game without a live
    clock. Every worker runs it every few seconds (infra.liveness): a wait needs no task
    of its own, held for minutes by a worker for each move."""
    since = timezone.now() - timedelta(seconds=settings.TURN_REMINDER_DELAY)
    waiting = Table.objects.filter(status=Table.RUNNING, updated__lte=since)
    # Not under a live clock, and not seen to at this position already.
    waiting = waiting.exclude(clock=Table.LIVE).exclude(seats__reminded_version=F("version"))
    return sum(actions.remind(t.pk, t.version) for t in waiting.only("pk", "version"))


@shared_task
def sweep_ai_moves(quiet_seconds: float | None = None) -> int:
    """Set going again AI moves whose task was lost (a worker killed, a restart, a broker
    down when it was queued): those no task waits for or plays. Every worker runs it every
    half second (infra.liveness)."""
    since = AI_QUIET if quiet_seconds is None else timedelta(seconds=quiet_seconds)
    quiet = Table.objects.filter(status=Table.RUNNING, updated__lt=timezone.now() - since)
    quiet = quiet.filter(Q(seats__ai_level__gt="") | Q(seats__left=True)).distinct()
    waiting = {
        ai_claim(t.pk, t.version): t for t in quiet.prefetch_related("seats") if t.waits_for_ai()
    }
    lost = claims.unclaimed(list(waiting))
    for key in lost:
        table = waiting[key]
        logger.warning(
            "the AI move of table %s at version %s set going again", table.pk, table.version
        )
        queue_ai_move(table.pk, table.version)
    return len(lost)


@shared_task
def sweep_clocks() -> int:
    """Catch deadlines whose timer was lost (a restart); every worker runs it every few
    seconds (infra.liveness)."""
    due = Table.objects.filter(status=Table.RUNNING, deadline__lt=timezone.now())
    return sum(actions.time_out(t.pk, t.version) for t in due.only("pk", "version"))


@worker_ready.connect
def _watch(**kwargs) -> None:
    """Every worker runs what the games keep running (De l'Orc: it watches for deals nobody
    pushes, when a process holding one died)."""
    registry.keep_running()
