"""AI moves on a real prefork worker: past the soft time limit the heuristic moves instead,
and a move whose worker process dies is played by the next one."""

import os
import signal
import time

from games import actions, tasks
from games.ctg import engine
from games.models import Table
from tests.games.test_ai_seats import table_with_bots
from tests.waiting import wait_for


def bot_thinking(alice):
    """A running 2-player quick game where the bot (seat 0) is to make a move it thinks over
    for half a second or more, with no AI move queued. Moves before it are played here."""
    table = table_with_bots(alice, ["search-strong"], seats=2)  # thinks up to 2 s
    actions.move_seat(table.pk, alice, 0, 1)
    actions.start(table.pk, alice)
    while True:
        table.refresh_from_db()
        assert table.status == Table.RUNNING, "no long thought in the whole game"
        state = table.state()
        text = engine.view(state, state.decider)["legal_texts"][0]
        if state.decider == 0:
            t0 = time.perf_counter()
            _, text = actions.ai_decision(table.pk, table.version)
            if time.perf_counter() - t0 >= 0.5:
                break
        actions.play(table.pk, state.decider, text, table.version)
    tasks.ai_move.app.control.purge()
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
    table = bot_thinking(alice)
    prefork_worker()
    version, played = table.version, len(bot_moves(table))
    _, expected = actions.ai_decision(table.pk, version, level=table.plugin.stand_in_level)
    tasks.ai_move.apply_async((table.pk, version), soft_time_limit=0.3)

    table = wait_for_version(table, version + 1)
    assert bot_moves(table)[played].endswith(f": {expected}")


def test_it_plays_a_bot_s_move_once_when_its_worker_process_dies(prefork_worker, alice):
    table = bot_thinking(alice)
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
