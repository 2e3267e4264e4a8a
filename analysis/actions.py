"""The one door for analyses: ask for them, run them once, set going again those lost."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from analysis.models import Analysis
from games.models import Table
from infra import background, claims

logger = logging.getLogger(__name__)

# A job queued this long ago that no task has taken may have lost its task (never sent while
# Redis was away, or held by a worker that died): it is sent again, at most once in
# RESEND_EVERY. A queue of analyses may rightly be long, so not sooner; a task sent twice runs
# once (`run` takes the job with a conditional UPDATE).
QUEUED_PATIENCE = timedelta(seconds=60)
RESEND_EVERY = 600


class Interrupted(Exception):
    """The process is stopping: the job is left to the sweep that runs when it is back."""


def claim(analysis_id: int) -> str:
    return f"analysis:{analysis_id}"


def analyser(table: Table) -> Any:
    """The game's analyser (`Game.analysis`), or None for a game without one."""
    return getattr(table.plugin, "analysis", None)


def request(table: Table, seats: Iterable[int], user) -> list[Analysis]:
    """Ask for the analysis of `seats` of a finished `table`: a seat analysed or under way
    already is left as it is, a failed one is tried again. The jobs are queued once the
    transaction commits."""
    from analysis import tasks

    now = timezone.now()
    wanted = []
    for seat in seats:
        with transaction.atomic():
            # Asked for at the same moment by another request: get_or_create finds its row.
            analysis, made = Analysis.objects.get_or_create(
                table=table, seat=seat, defaults={"queued": now, "requested_by": user}
            )
            if not made:
                again = Analysis.objects.filter(pk=analysis.pk, status=Analysis.FAILED).update(
                    status=Analysis.QUEUED, queued=now, done=0, error="", requested_by=user
                )
                if not again:
                    wanted.append(analysis)
                    continue
                analysis.refresh_from_db()
            tasks.queue(analysis.pk)
        wanted.append(analysis)
    return wanted


def run(analysis_id: int) -> bool:
    """Make one analysis, once: False when another task took it first, it failed or the
    process is stopping. Safe to run twice."""
    taken = Analysis.objects.filter(pk=analysis_id, status=Analysis.QUEUED).update(
        status=Analysis.RUNNING, started=timezone.now(), done=0, total=0
    )
    if not taken:
        return False
    analysis = Analysis.objects.select_related("table").get(pk=analysis_id)
    table = analysis.table
    record = table.record or {}
    running = Analysis.objects.filter(pk=analysis_id, status=Analysis.RUNNING)

    def progress(done: int, total: int) -> None:
        running.update(done=min(done, total), total=total)
        if background.closing():
            raise Interrupted

    try:
        name = record["players"][analysis.seat]
        result = analyser(table).analyse(
            record,
            name,
            seed=analysis.seed,
            progress=progress,
            samples=settings.ANALYSIS_SAMPLES,
        )
    except Interrupted:
        logger.info("analysis %s left to the sweep: the process stops", analysis_id)
        return False
    except Exception as exc:
        logger.exception("analysis %s failed", analysis_id)
        running.update(status=Analysis.FAILED, error=repr(exc)[:1000], finished=timezone.now())
        return False
    data = result.as_json()
    total = len(data["decisions"])
    running.update(
        status=Analysis.DONE,
        result=data,
        accuracy=data["accuracy"],
        done=total,
        total=total,
        finished=timezone.now(),
    )
    return True


def requeue_lost(patience: timedelta = QUEUED_PATIENCE) -> int:
    """Set going again the jobs whose task was lost; returns how many.

    A job under way is claimed by its task (infra.claims), which a living process renews
    four times a second: one marked running and unclaimed lost its process, and is queued
    again. A job queued `patience` ago is sent again (at most once in RESEND_EVERY)."""
    from analysis import tasks

    under_way = {
        claim(pk): pk
        for pk in Analysis.objects.filter(status=Analysis.RUNNING).values_list("pk", flat=True)
    }
    lost = [under_way[key] for key in claims.unclaimed(list(under_way))]
    revived = 0
    for pk in lost:
        with transaction.atomic():
            if Analysis.objects.filter(pk=pk, status=Analysis.RUNNING).update(
                status=Analysis.QUEUED, started=None, done=0, total=0
            ):
                logger.warning("analysis %s set going again", pk)
                tasks.queue(pk)
                revived += 1
    before = timezone.now() - patience
    waiting = Analysis.objects.filter(status=Analysis.QUEUED, queued__lte=before)
    resent = 0
    for pk in waiting.values_list("pk", flat=True):
        if patience and not background.once_in(claim(pk), RESEND_EVERY):
            continue
        tasks.queue(pk)
        resent += 1
    return revived + resent
