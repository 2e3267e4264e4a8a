"""Background tallies. Thin: take ids, call actions; each is safe to run twice."""

from celery import shared_task

from leagues import actions


@shared_task
def tally_league(league_id: int) -> bool:
    return actions.tally_league(league_id)


@shared_task
def recompute_ratings(job_id: int) -> bool:
    return actions.recompute_ratings(job_id)


@shared_task
def sweep_recomputes() -> int:
    """Revive recomputes whose worker or task was lost; every worker runs it every few
    seconds (infra.liveness)."""
    return actions.requeue_stuck_jobs()
