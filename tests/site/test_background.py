import threading

import pytest
from celery import shared_task
from django.db import transaction

from infra.background import enqueue

started = threading.Event()
release = threading.Event()
finished = threading.Event()


@shared_task
def slow_task(label):
    started.set()
    release.wait(10)
    finished.set()
    return label


@pytest.fixture(autouse=True)
def _reset_events():
    for event in (started, release, finished):
        event.clear()
    yield
    release.set()


@pytest.mark.django_db(transaction=True)
def test_it_runs_work_in_process_after_commit_without_blocking_the_caller():
    with transaction.atomic():
        enqueue(slow_task, "x")
        assert not started.wait(0.2), "work must wait for the commit"

    assert started.wait(5)
    assert not finished.is_set(), "the caller returned while the work is still running"
    release.set()
    assert finished.wait(5)


@pytest.mark.django_db(transaction=True)
def test_it_drops_work_of_a_rolled_back_transaction():
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue(slow_task, "x")
        raise RuntimeError("rolled back")

    assert not started.wait(0.3)


def test_it_runs_work_on_a_real_celery_worker(celery_worker):
    release.set()
    enqueue(slow_task, "on the worker")

    assert finished.wait(15)
