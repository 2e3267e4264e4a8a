"""AI moves on a real prefork worker: past the soft time limit the heuristic moves instead,
and a move whose worker process dies is played by the next one."""

import os
import signal

from games import actions, tasks
from games.models import Table
from tests.games.test_ai_seats import table_with_bots
from tests.waiting import wait_for


def bot_to_move(alice, level):
    """A 2-player quick game where the bot (seat 0) moves first; not started yet."""
    table = table_with_bots(alice, [level], seats=2)
    actions.move_seat(table.pk, alice, 0, 1)
    return table


def wait_for_version(table, version, seconds=60):
    def reached():
        table.refresh_from_db()
        return table.version >= version

    assert wait_for(reached, seconds), f"the table stayed at version {table.version}"
    return table


def bot_moves(table):
    return [a for a in table.record["rounds"][0]["actions"] if not a.startswith("alice")]


def test_it_falls_back_to_the_heuristic_past_the_soft_time_limit(prefork_worker, alice):
    table = bot_to_move(alice, "search-strong")  # thinks up to 2 s
    actions.start(table.pk, alice)
    tasks.ai_move.app.control.purge()  # instead of the move start() queued, one in a hurry:
    prefork_worker()
    table.refresh_from_db()
    version = table.version
    _, expected = actions.ai_decision(table.pk, version, level=actions.STAND_IN_LEVEL)
    tasks.ai_move.apply_async((table.pk, version), soft_time_limit=0.3)

    table = wait_for_version(table, version + 1)
    assert bot_moves(table)[0].endswith(f": {expected}")


def test_it_plays_a_bot_s_move_once_when_its_worker_process_dies(prefork_worker, alice):
    worker = prefork_worker()
    table = bot_to_move(alice, "search-strong")
    actions.start(table.pk, alice)
    table.refresh_from_db()
    version = table.version

    pid = None
    while pid is None:
        active = tasks.ai_move.app.control.inspect(timeout=0.5).active() or {}
        running = [t for ts in active.values() for t in ts if t["name"] == tasks.ai_move.name]
        if running:
            pid = running[0]["worker_pid"]
        assert Table.objects.get(pk=table.pk).version == version, "moved before the kill"
    assert pid != worker.pid
    os.kill(pid, signal.SIGKILL)

    # The task goes back to the queue and the worker's next process plays the move.
    table = wait_for_version(table, version + 1)
    assert bot_moves(table)
