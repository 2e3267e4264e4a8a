"""Claims on work under way (infra.claims), in Redis as with a broker and in memory as
without one: work queued, taken by a worker and run by a task is claimed, a task leaves work
that another runs to that one, and a claim nobody renews (its process died) lapses."""

import time

import pytest

from infra import claims

pytestmark = pytest.mark.services


@pytest.fixture(params=["redis", "memory"])
def store(request, monkeypatch):
    monkeypatch.setattr(claims, "HOLD_FOR", 0.3)
    monkeypatch.setattr(claims, "QUEUED_FOR", 0.3)
    if request.param == "memory":
        return claims._Here()
    return claims._Redis(request.getfixturevalue("own_redis").url)


def test_it_tells_work_queued_taken_or_running_from_lost_work(store):
    store.queue("queued")
    assert store.take("taken", "taken:worker-1")
    assert store.run("running", "running:task-1")
    assert store.unclaimed(["queued", "taken", "running", "lost"]) == ["lost"]


def test_a_task_runs_work_queued_or_taken_and_another_leaves_it_to_that_one(store):
    store.queue("a")
    assert store.take("a", "taken:worker-1")
    assert store.run("a", "running:task-1")
    assert not store.keep("a", "taken:worker-1"), "the worker's claim ends as its task runs"
    assert not store.take("a", "taken:worker-2"), "taken again (the sweep's duplicate)"
    assert not store.run("a", "running:task-2")
    store.queue("a")
    assert store.run("a", "running:task-1"), "renewed by the task that runs it"
    store.let_go("a", "running:task-2")
    assert store.unclaimed(["a"]) == []
    store.let_go("a", "running:task-1")
    assert store.unclaimed(["a"]) == ["a"]


def test_a_claim_nobody_renews_lapses(store):
    store.queue("queued")
    assert store.take("taken", "taken:a-worker-that-died")
    assert store.run("running", "running:a-task-whose-process-died")
    time.sleep(0.4)
    assert store.unclaimed(["queued", "taken", "running"]) == ["queued", "taken", "running"]
    assert store.run("running", "running:another-task")


def test_a_task_takes_over_from_a_dead_one_and_leaves_a_living_one_alone(monkeypatch):
    # A pool process dies mid-move and its task comes straight back: the claim it left is
    # waited out. A task that runs (its claim renewed) keeps its work.
    monkeypatch.setattr(claims, "HOLD_FOR", 0.3)
    monkeypatch.setattr(claims, "RENEW_EVERY", 0.1)
    monkeypatch.setattr(claims, "_store", lambda: store)
    store = claims._Here()
    assert store.run("dead", "running:a-task-whose-process-died")
    with claims.running("dead") as mine:
        assert mine

    with claims.running("alive") as first:
        assert first
        with claims.running("alive") as second:
            assert not second


def test_a_worker_holds_a_task_it_took_until_the_task_runs_and_no_longer(monkeypatch):
    # What the worker's main process does when it takes a task from the queue (Celery's
    # task_received), then a pool process runs it; and a task taken but never run.
    from types import SimpleNamespace

    monkeypatch.setattr(claims, "HOLD_FOR", 0.3)
    monkeypatch.setattr(claims, "RENEW_EVERY", 0.05)
    monkeypatch.setattr(claims, "TAKEN_FOR", 1.0)
    store = claims._Here()
    monkeypatch.setattr(claims, "_store", lambda: store)

    def take(key):
        claims.on_task_received(request=SimpleNamespace(request_dict={claims.HEADER: key}))

    take("run")
    take("never run")
    time.sleep(0.5)  # past HOLD_FOR: renewed meanwhile
    assert store.unclaimed(["run", "never run"]) == []
    with claims.running("run") as mine:
        assert mine
    assert store.unclaimed(["run"]) == ["run"], "the worker renews it no more"
    time.sleep(1.0)  # past TAKEN_FOR: the task it took was never run
    assert store.unclaimed(["never run"]) == ["never run"]
