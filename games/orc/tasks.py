"""De l'Orc's real-time deal as tasks (games.orc.dealer): thin, taking ids.

The dealer's loop runs in a thread of whichever process takes the table's lease, never in a
worker's task slot; these tasks only set it, and the AI seats' reactions, going. They keep
the names they had in the shared `games.tasks`: tasks queued before an upgrade still run.
"""

from celery import shared_task

from games.orc import dealer


@shared_task(name="games.tasks.orc_deal")
def orc_deal(table_id: int) -> bool:
    return dealer.take(table_id)


@shared_task(name="games.tasks.orc_react", soft_time_limit=8, time_limit=15)
def orc_react(table_id: int) -> int:
    return dealer.react(table_id)


@shared_task(name="games.tasks.orc_ai_slap", soft_time_limit=8, time_limit=15)
def orc_ai_slap(
    table_id: int, seat: int, level: str, verb: str, pile: int, seen: int, not_before: float
) -> bool:
    return dealer.ai_slap(table_id, seat, level, verb, pile, seen, not_before)
