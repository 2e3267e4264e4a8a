"""An analysis asked for on the page is made in the background, once, and kept: on a Celery
worker of its own queue, or without a broker in a thread of its own; one lost with its
worker is set going again by the sweeps.

alice played seat 0 against three AI players (tests/analysis/site.py).
"""

import contextlib
import os
import signal
import threading

import pytest
import redis
from django.utils import timezone

from analysis import tasks
from analysis.models import Analysis
from games import actions as game_actions
from games.models import Table
from infra import background, claims
from tests.analysis.analyst import analyst_in_thread, start_analyst
from tests.analysis.site import ask, finished_against_ai, signed_in
from tests.conftest import _point_celery_at
from tests.games.conftest import open_table
from tests.waiting import wait_for

pytestmark = pytest.mark.services


def status_of(table: Table, seat: int = 0) -> str:
    analysis = Analysis.objects.filter(table=table, seat=seat).first()
    return analysis.status if analysis else "none"


@pytest.fixture
def broker(transactional_db, settings, redis_url):
    """enqueue() goes to Redis from now on; no worker yet."""
    from infra.celery import app

    settings.CELERY_BROKER_URL = redis_url
    _point_celery_at(app, redis_url)
    yield app
    _point_celery_at(app, None)


def test_it_is_made_on_a_worker_of_the_analysis_queue_and_shown_to_everyone(
    transactional_db, settings, redis_url, alice, bob
):
    table = finished_against_ai(alice)
    from infra.celery import app

    settings.CELERY_BROKER_URL = redis_url
    _point_celery_at(app, redis_url)
    try:
        with analyst_in_thread(app):
            asked = ask(signed_in(alice), table, HTTP_HX_REQUEST="true")
            assert asked.status_code == 200
            assert "<progress" in asked.text  # the panel polls while the job waits or runs
            assert wait_for(lambda: status_of(table) == Analysis.DONE, 120), status_of(table)
    finally:
        _point_celery_at(app, None)

    analysis = Analysis.objects.get(table=table, seat=0)
    decisions = analysis.result["decisions"]
    assert decisions and analysis.done == analysis.total == len(decisions)
    assert analysis.accuracy == analysis.result["accuracy"]
    # Stored once, shown to another viewer, who asks for nothing.
    page = signed_in(bob).get(f"/history/replay/{table.pk}/?seat=0&decision=0")
    assert "Analysis of alice" in page.text
    assert f"<code>{decisions[0]['played']}</code>" in page.text
    assert Analysis.objects.count() == 1


def test_its_jobs_wait_on_their_own_queue_never_on_the_ai_moves_one(broker, redis_url, alice):
    table = Table.objects.get(pk=finished_against_ai(alice).pk)
    waiting = redis.Redis.from_url(redis_url)
    waiting.flushdb()  # the finished game's own AI tasks, queued on its commit and now stale

    assert ask(signed_in(alice), table, seat="all").status_code == 302

    assert waiting.llen(tasks.QUEUE) == 4  # one job per seat
    assert waiting.llen("celery") == 0
    assert status_of(table, 3) == Analysis.QUEUED


def test_a_job_whose_worker_was_killed_is_set_going_again_by_the_sweep(broker, redis_url, alice):
    table = finished_against_ai(alice, rounds=1)
    redis.Redis.from_url(redis_url).flushdb()
    # A worker searching with many samples, killed once the job is under way.
    first = start_analyst(redis_url, samples=2000)
    try:
        ask(signed_in(alice), table)
        under_way = Analysis.objects.filter(table=table, seat=0, status=Analysis.RUNNING)
        assert wait_for(lambda: under_way.filter(done__gt=0).exists(), 120)
        # The whole worker at once, its main process first: nobody hands the task back.
        children = _children(first.pid)
        os.kill(first.pid, signal.SIGKILL)
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
    finally:
        first.join(10)
    assert status_of(table) == Analysis.RUNNING  # nobody is at it: its claim lapses

    # The sweep finds it once its claim has lapsed, and a worker makes it from the start.
    assert wait_for(lambda: tasks.sweep_analyses() == 1, 10)
    assert status_of(table) == Analysis.QUEUED
    with analyst_in_thread(broker):
        assert wait_for(lambda: status_of(table) == Analysis.DONE, 120), status_of(table)
    assert tasks.sweep_analyses() == 0


def test_the_sweep_leaves_a_job_whose_task_still_runs(broker, alice):
    table = finished_against_ai(alice)
    ask(signed_in(alice), table)
    analysis = Analysis.objects.get(table=table, seat=0)
    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.RUNNING)
    with claims.running(f"analysis:{analysis.pk}") as mine:
        assert mine
        assert tasks.sweep_analyses(patience_seconds=3600) == 0
        assert status_of(table) == Analysis.RUNNING
    assert tasks.sweep_analyses(patience_seconds=3600) == 1


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listed:
            return [int(child) for child in listed.read().split()]
    except OSError:
        return []


def test_without_a_broker_it_runs_in_a_thread_of_its_own_and_ai_moves_go_on(
    transactional_db, alice, bob
):
    """The embedded default: while the analysis thread is busy, an AI move is played at
    another table; the analysis waits its turn and is made once the thread is free."""
    table = finished_against_ai(alice)
    busy, free = threading.Event(), threading.Event()

    def long_analysis() -> None:
        busy.set()
        free.wait(60)

    background._queues[tasks.QUEUE].submit(long_analysis)
    assert busy.wait(10)
    ask(signed_in(alice), table)
    assert status_of(table) == Analysis.QUEUED

    playing = open_table(bob, seats_count=2)
    game_actions.add_ai(playing.pk, bob, "greedy")
    game_actions.move_seat(playing.pk, bob, 0, 1)  # the AI starts
    game_actions.start(playing.pk, bob)
    moved = Table.objects.filter(pk=playing.pk, version__gt=0)
    try:
        assert wait_for(moved.exists, 30)  # played by the move thread, analysis or not
        assert status_of(table) == Analysis.QUEUED
    finally:
        free.set()
    assert wait_for(lambda: status_of(table) == Analysis.DONE, 120), status_of(table)


def test_a_job_left_by_a_stopped_process_is_taken_up_when_it_starts_again(transactional_db, alice):
    """Without a broker, the sweep that runs at start (alone) sets going the jobs a stopped
    process left: queued and under way, their tasks and claims gone with it."""
    table = finished_against_ai(alice)
    now = timezone.now()
    Analysis.objects.create(table=table, seat=0, status=Analysis.RUNNING, queued=now, total=9)
    Analysis.objects.create(table=table, seat=1, queued=now)

    background.run_sweeps(alone=True, only={"sweep-analyses"})

    def all_done() -> bool:
        return set(table.analyses.values_list("status", flat=True)) == {Analysis.DONE}

    assert wait_for(all_done, 180), list(table.analyses.values_list("status", flat=True))
