"""Analyses in the background. Thin: take ids, call actions; each is safe to run twice.

They go to a queue of their own, QUEUE, which the Procfile's `analyst` worker takes: a seat's
analysis searches for up to half a minute, and many of them must never keep a worker from an
AI move. Without a broker they run in a thread of their own (infra.background).
"""

from datetime import timedelta

from celery import shared_task

from analysis import actions
from infra import claims
from infra.background import enqueue

QUEUE = "analysis"


def queue(analysis_id: int) -> None:
    """Set the job going once the current transaction commits."""
    enqueue(analyse, analysis_id)


# Routed to QUEUE by the settings (CELERY_TASK_ROUTES).
@shared_task(acks_late=True, soft_time_limit=240, time_limit=270)
def analyse(analysis_id: int) -> bool:
    """While it runs, its claim tells the sweeps that the job is under way; it lapses within a
    second if this process dies, and the sweep queues the job again."""
    with claims.running(actions.claim(analysis_id)) as mine:
        if not mine:
            return False
        return actions.run(analysis_id)


@shared_task
def sweep_analyses(patience_seconds: float | None = None) -> int:
    """Set going again the analyses whose task was lost; every worker runs it every few
    seconds (infra.liveness)."""
    if patience_seconds is None:
        return actions.requeue_lost()
    return actions.requeue_lost(timedelta(seconds=patience_seconds))
