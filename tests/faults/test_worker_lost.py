"""A worker killed (kill -9, its pool with it) while it plays an AI move: another worker plays
that move at once, not after a timeout, and plays it once.

With Redis as the broker a message taken by a worker that dies without a word stays
unacknowledged until the visibility timeout (ten minutes here, longer than any countdown):
late acknowledgement hands a task back only when the worker's main process lives to do it.
The move's own heartbeat, which stops with its process, tells the other workers instead.
"""

import time

import pytest
from django.db import connection

from games import actions
from games.ctg.engine.record import logged_actions
from games.models import Table
from tests import services
from tests.faults.processes import Cluster
from tests.games.test_ai_seats import table_with_bots
from tests.waiting import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

# Seconds every AI move lasts here, whatever its level thinks: time to see a worker playing
# it and kill that worker in the middle of it.
MOVE_LASTS = 2.0
# Seconds from the kill until the move is played by another worker: the time to notice the
# loss (a second and a half), and the other worker's move, which lasts MOVE_LASTS.
TAKEN_OVER_WITHIN = 5.0
WORKERS = ("w1", "w2")


@pytest.fixture
def workers(own_redis, tmp_path, settings):
    services.need("PostgreSQL", connection.vendor == "postgresql", "the processes share it")
    from infra.celery import app
    from tests.conftest import _point_celery_at

    settings.CELERY_BROKER_URL = own_redis.url  # AI moves go to the workers
    _point_celery_at(app, own_redis.url)
    cluster = Cluster(own_redis, tmp_path, env={"CTG_TEST_AI_MOVE_SECONDS": str(MOVE_LASTS)})
    try:
        for name in WORKERS:
            cluster.start_worker(name)
        assert wait_for(lambda: len(app.control.inspect(timeout=0.5).ping() or {}) == 2, 30)
        yield cluster, app
    finally:
        cluster.stop_all()
        _point_celery_at(app, None)


def playing(app) -> str | None:
    """The worker playing an AI move now, if one is."""
    for host, running in (app.control.inspect(timeout=0.5).active() or {}).items():
        if any(task["name"] == "games.tasks.ai_move" for task in running):
            return host.split("@")[0]
    return None


def test_a_move_lost_with_its_worker_is_played_by_another_at_once(workers, alice, capsys):
    cluster, app = workers
    table = table_with_bots(alice, ["search-strong"], seats=2)
    actions.move_seat(table.pk, alice, 0, 1)  # the AI moves first
    actions.start(table.pk, alice)
    ai_seat = Table.objects.get(pk=table.pk).state().decider

    seen = []
    assert wait_for(lambda: seen.append(playing(app)) or seen[-1], 30), "no worker took it"
    worker = seen[-1]
    killed = time.monotonic()
    cluster.kill(worker)
    # Killed in the middle of the AI's turn: the decisions it saved before (its draws) stay,
    # and the rest of its turn is left to another worker.
    lost = Table.objects.get(pk=table.pk)
    assert lost.state().decider == ai_seat, "killed mid-move"
    assert wait_for(lambda: Table.objects.get(pk=table.pk).version > lost.version, 30)
    taken_over = time.monotonic() - killed
    with capsys.disabled():
        print(f"\nthe move lost with worker {worker} was played {taken_over:.1f} s after the kill")

    assert taken_over <= TAKEN_OVER_WITHIN
    time.sleep(1)  # a second play of it, had there been one, would be in the record by now
    played = Table.objects.get(pk=table.pk)
    assert len(logged_actions(played.state())) == played.version, "played once"
    assert played.state().decider == 0, "and now it is alice's turn"
