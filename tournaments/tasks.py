"""Thin tasks: take ids, call actions. Each is safe to run twice, or in two workers at once
(the actions claim their work with a conditional UPDATE)."""

from celery import shared_task
from django.db import OperationalError

from tournaments import actions


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def advance_event(tournament_id: int) -> bool:
    return actions.advance(tournament_id)


@shared_task
def sweep_events() -> int:
    """Every event whose next round is due: lost timers and a process that restarted."""
    return sum(actions.advance(pk) for pk in actions.due_events())


@shared_task
def sweep_absentees() -> int:
    """Every player away from his running table past the event's wait: an AI player plays
    for him and he is marked absent."""
    return sum(actions.mark_absent(table, player) for table, player in actions.absentees())
