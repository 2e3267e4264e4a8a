"""Background tallies. Thin: take ids, call actions; each is safe to run twice."""

from celery import shared_task

from leagues import rating_jobs, tallies


@shared_task
def tally_league(league_id: int) -> bool:
    return tallies.tally_league(league_id)


@shared_task
def recompute_ratings(job_id: int) -> bool:
    return rating_jobs.recompute_ratings(job_id)


@shared_task
def sweep_recomputes() -> int:
    """Revive recomputes whose worker or task was lost; every worker runs it every few
    seconds (infra.liveness)."""
    return rating_jobs.requeue_stuck_jobs()
