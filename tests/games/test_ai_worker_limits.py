"""AI moves on a real prefork worker: past the soft time limit the heuristic moves instead,
and a move whose worker process dies is played by the next one."""

import os
import signal

import pytest

from games import actions, tasks
from games.models import Table
from tests.games.test_ai_seats import table_with_bots
from tests.waiting import wait_for

# Seconds each move of the bot lasts, here and in the worker: long enough to kill it in.
MOVE_LASTS = 2.0


@pytest.fixture
def bot_thinking(prefork_worker, alice, settings, monkeypatch):
    """A running 2-player quick game where the bot (seat 0), of a level that thinks, is to
    move, with no AI move queued (they go to the worker's broker); each of its moves lasts
    MOVE_LASTS."""
    settings.AI_MOVE_AT_LEAST_SECONDS = MOVE_LASTS
    monkeypatch.setenv("CTG_TEST_AI_MOVE_SECONDS", str(MOVE_LASTS))  # the worker's settings
    table = table_with_bots(alice, ["search"], seats=2)
    actions.move_seat(table.pk, alice, 0, 1)
    actions.start(table.pk, alice)
    tasks.ai_move.app.control.purge()
    table.refresh_from_db()
    assert table.state().decider == 0
    return table


def wait_for_version(table, version, seconds=60):
    def reached():
        table.refresh_from_db()
        return table.version >= version

    assert wait_for(reached, seconds), f"the table stayed at version {table.version}"
    return table


def bot_moves(table):
    return [a for a in table.record["rounds"][0]["actions"] if not a.startswith("alice")]


def test_it_falls_back_to_the_heuristic_past_the_soft_time_limit(prefork_worker, bot_thinking):
    table = bot_thinking
    prefork_worker()
    version, played = table.version, len(bot_moves(table))
    _, expected = actions.ai_decision(table.pk, version, level=table.plugin.stand_in_level)
    tasks.ai_move.apply_async((table.pk, version), soft_time_limit=0.3)

    table = wait_for_version(table, version + 1)
    assert bot_moves(table)[played].endswith(f": {expected}")


def test_it_plays_a_bot_s_move_once_when_its_worker_process_dies(prefork_worker, bot_thinking):
    table = bot_thinking
    worker = prefork_worker()
    version = table.version
    tasks.ai_move.delay(table.pk, version)

    pid = None
    while pid is None:
        active = tasks.ai_move.app.control.inspect(timeout=0.5, limit=1).active() or {}
        running = [t for ts in active.values() for t in ts if t["name"] == tasks.ai_move.name]
        if running:
            pid = running[0]["worker_pid"]
        assert Table.objects.get(pk=table.pk).version == version, "moved before the kill"
    assert pid != worker.pid
    os.kill(pid, signal.SIGKILL)

    # The task goes back to the queue and the worker's next process plays the move.
    wait_for_version(table, version + 1)
