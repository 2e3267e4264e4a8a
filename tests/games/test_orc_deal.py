"""The real-time deal on the server: racing slaps, pushes, the dealer's lease, AI seats."""

import asyncio
import re
import threading

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection

from games import actions
from games.groups import table_group
from games.models import Table
from tests.games.orc_helpers import orc_table, people, set_deal
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)

# alice is round 1's wizard (seat 0); bob, charlie and dave race for the piles; eve watches.


def newest_piles(messages: list[str]) -> dict[int, list[str]]:
    """Each pile as a page shows it after these messages: the newest stamp wins, as in orc.js."""
    shown: dict[int, tuple[int, list[str]]] = {}
    for html in messages:
        for match in re.finditer(
            r'id="pile-(\d+)" data-pile="\d+" data-stamp="(\d+)">(.*?)</ol>', html, re.S
        ):
            pile, stamp = int(match.group(1)), int(match.group(2))
            items = re.findall(r'data-(?:card|owner)="([\w-]+)"', match.group(3))
            if pile not in shown or shown[pile][0] <= stamp:
                shown[pile] = (stamp, items)
    return {pile: items for pile, (_, items) in shown.items()}


async def drain(communicator, seconds: float) -> list[str]:
    messages = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        if not await communicator.receive_nothing(timeout=0.05):
            messages.append(await communicator.receive_from())
    return messages


def race(table_id: int, slaps: list[tuple[object, str]]) -> list[str]:
    barrier = threading.Barrier(len(slaps))
    outcomes: list[str] = []

    def slap(user, text):
        barrier.wait()
        try:
            actions.play_for(table_id, user, text, None)
            outcomes.append("applied")
        except actions.Refused as refusal:
            outcomes.append(refusal.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=slap, args=slap_) for slap_ in slaps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


async def test_it_orders_racing_slaps_on_one_pile_the_same_for_everybody(alice):
    bob, charlie, dave = await database_sync_to_async(people)("bob", "charlie", "dave")
    table = await database_sync_to_async(orc_table)(alice, [bob, charlie, dave])
    start_after = table.record["rounds"][0]["start_after"]
    await database_sync_to_async(set_deal)(table, start_after + 0.5)
    sockets = [await connect(user, table.pk) for user in (bob, charlie, dave, None)]
    for socket in sockets:
        await socket.receive_from()

    outcomes = await database_sync_to_async(race)(
        table.pk, [(bob, "shield P3"), (charlie, "shield P3"), (dave, "shield P3")]
    )

    assert outcomes == ["applied"] * 3
    record = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).record
    order = [line.split(":")[0] for line in record["rounds"][0]["actions"]]
    assert sorted(order) == ["bob", "charlie", "dave"]
    for socket in sockets:
        shown = newest_piles(await drain(socket, 1.0))[3]
        assert [item for item in shown if item in order] == order
        await socket.disconnect()


def test_it_refuses_a_deserter_once_the_last_card_is_down_with_a_clear_message(alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    set_deal(table, 79.9)
    set_deal(table, 80.05)
    with pytest.raises(actions.Refused) as refused:
        actions.play_for(table.pk, bob, "desert P1", None)
    assert refused.value.message.startswith("Too late")


def collect(table_id: int, seconds: float) -> list[dict]:
    """Every push to the table's group for `seconds` (the in-memory layer of this process)."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(table_group(table_id), channel)

    async def receive_all():
        found = []
        end = asyncio.get_running_loop().time() + seconds
        while (left := end - asyncio.get_running_loop().time()) > 0:
            try:
                found.append(await asyncio.wait_for(layer.receive(channel), left))
            except TimeoutError:
                break
        return found

    return async_to_sync(receive_all)()


def test_it_never_lets_an_ai_seat_react_under_0_3_s_after_the_card(alice, redis_channel_layer):
    # alice deals; three AI players race for the piles once the start card appears.
    table = orc_table(alice, [], ["heuristic", "expert", "expert"])
    start_after = table.record["rounds"][0]["start_after"]
    deal = set_deal(table, start_after - 2.5)
    slaps = [e for e in collect(table.pk, 10 * deal.pace) if "slap" in e]

    shields = [e for e in slaps if e["slap"].startswith("shield")]
    assert shields, "the AI players put shields down"
    start_card = deal.card_time(start_after).timestamp()
    first_card = deal.card_time(1).timestamp()
    for slap in slaps:
        seen_from = start_card if slap["slap"].startswith("shield") else first_card
        assert slap["time"] - seen_from >= 0.3, slap
    earliest = min(slap["time"] - start_card for slap in shields)
    print(f"the first AI shield came {earliest:.2f} s after the start card")
