"""Claims on work under way (ctg_site.claims), in Redis as with a broker and in memory as
without one: queued work and held work are claimed, and a holder that stops renewing (its
process died) lets its claim lapse."""

import time

import pytest

from ctg_site import claims

pytestmark = pytest.mark.services


@pytest.fixture(params=["redis", "memory"])
def store(request, monkeypatch):
    monkeypatch.setattr(claims, "HOLD_FOR", 0.3)
    monkeypatch.setattr(claims, "QUEUED_FOR", 0.3)
    if request.param == "memory":
        return claims._Here()
    return claims._Redis(request.getfixturevalue("own_redis").url)


def test_it_tells_queued_and_held_work_from_lost_work(store):
    store.queue("a")
    assert store.take("b", "task-1")
    assert store.unclaimed(["a", "b", "c"]) == ["c"]


def test_a_task_takes_its_queued_work_and_another_leaves_it_to_that_one(store):
    store.queue("a")
    assert store.take("a", "task-1")
    assert not store.take("a", "task-2")
    store.queue("a")  # queued again (a sweep): the task under way keeps it
    assert store.take("a", "task-1"), "renewed by its holder"
    store.let_go("a", "task-2")
    assert store.unclaimed(["a"]) == []
    store.let_go("a", "task-1")
    assert store.unclaimed(["a"]) == ["a"]


def test_a_claim_nobody_renews_lapses(store):
    store.queue("queued")
    assert store.take("held", "a-task-whose-process-died")
    time.sleep(0.4)
    assert store.unclaimed(["queued", "held"]) == ["queued", "held"]
    assert store.take("held", "another-task")
