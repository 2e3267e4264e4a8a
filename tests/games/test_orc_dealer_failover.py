"""The dealer's lease: a Celery worker pushing a deal is killed mid-deal; another takes over,
and the deal goes on with no card pushed twice or left out."""

import multiprocessing
import os
import signal
import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from games.groups import table_group
from games.models import Table
from games.orc import engine
from games.orc.models import Deal
from tests.conftest import _point_celery_at
from tests.games.orc_helpers import orc_table, people, set_deal
from tests.games.orc_worker import worker_main

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_workers(settings, redis_url, redis_channel_layer):
    from infra.celery import app

    settings.CELERY_BROKER_URL = redis_url
    _point_celery_at(app, redis_url)
    workers = [multiprocessing.Process(target=worker_main, args=(redis_url,)) for _ in range(2)]
    for worker in workers:
        worker.start()
    yield {worker.pid: worker for worker in workers}
    for worker in workers:
        if worker.is_alive():
            worker.kill()
        worker.join(10)
    _point_celery_at(app, None)


def wait_for(condition, seconds: float, what: str):
    end = time.time() + seconds
    while time.time() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {seconds} s")


def test_it_goes_on_dealing_when_the_worker_pushing_the_deal_is_killed(alice, two_workers):
    # alice is the wizard; bob, charlie and dave play no card: only the deal moves.
    table = orc_table(alice, people("bob", "charlie", "dave"))
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(table_group(table.pk), channel)
    deal = set_deal(table, 50.5)  # 30 cards to go, 24 s at 0.8 s a card

    def holder() -> str:
        return Deal.objects.get(table=table).holder

    first = wait_for(holder, 20, "holder of the deal")
    pid = int(first.split(":")[1])
    assert pid in two_workers, "a worker pushes the deal"
    wait_for(lambda: deal.dealt_at(timezone.now()) >= 56, 10, "card 56")
    os.kill(pid, signal.SIGKILL)
    killed_at = time.time()
    second = wait_for(lambda: (h := holder()) and h != first and h, 10, "new holder")
    took = time.time() - killed_at
    assert int(second.split(":")[1]) in two_workers and int(second.split(":")[1]) != pid
    print(f"taken over {took:.2f} s after the kill (pace {deal.pace} s)")

    wait_for(lambda: Deal.objects.get(table=table).ended, 40, "end of the deal")
    events = []
    while True:
        try:
            message = async_to_sync(_receive)(layer, channel)
        except TimeoutError:
            break
        events.append(message)

    cards = [e["dealt"] for e in events if e["type"] == "table.update"]
    assert len(cards) == len(set(cards)), "no card pushed twice"
    assert cards == sorted(cards)
    assert any(e["type"] == "table.changed" for e in events), "the new holder pushed the board"
    # Between two small updates without a whole board in between, no card is left out: an
    # update carries the pile of every card since the last (a late turn's update, several).
    npiles = Table.objects.get(pk=table.pk).state().npiles
    last = None
    for e in events:
        if e["type"] == "table.changed":
            last = None
        elif e["type"] == "table.update":
            if last is not None:
                for card in range(last + 1, e["dealt"] + 1):
                    pile = (card - 1) % npiles + 1
                    assert str(pile) in e["piles"], f"card {card} left out"
            last = e["dealt"]
    assert cards[-1] == 80

    table = Table.objects.get(pk=table.pk)
    replayed = engine.from_record(table.record)
    state = table.state()
    assert (state.dealt, state.pending) == (80, "recruit"), "the placing step follows"
    assert replayed.signature()[:6] == state.signature()[:6] or replayed.log == state.log
    assert table.deadline is not None, "the placing step's timer runs"


async def _receive(layer, channel):
    import asyncio

    try:
        return await asyncio.wait_for(layer.receive(channel), 1.0)
    except TimeoutError:
        raise TimeoutError from None
