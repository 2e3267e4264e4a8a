"""The Redis channel layer hands each socket its messages in order, however many wait in Redis
at once, and a socket that closes while its receive is taking messages loses no one else's."""

import asyncio

import pytest
import redis.asyncio

from infra.channel_layer import RedisChannelLayer

pytestmark = pytest.mark.services


async def blocked_in_redis(url: str) -> None:
    """Until a client of `url`'s database waits in the layer's blocking pop."""
    client = redis.asyncio.Redis.from_url(url)
    db = str(client.connection_pool.connection_kwargs.get("db", 0))
    try:
        while not any(
            c["cmd"] == "bzpopmin" and "b" in c["flags"] and c["db"] == db
            for c in await client.client_list()
        ):
            await asyncio.sleep(0.02)
    finally:
        await client.aclose()


async def receiving(layer: RedisChannelLayer, count: int) -> None:
    """Until `count` receives for the process's sockets are under way in the layer."""
    while layer.receive_count < count:
        await asyncio.sleep(0.01)


def test_messages_waiting_together_reach_each_socket_in_order(redis_url):
    async def run() -> dict[str, list[int]]:
        layer = RedisChannelLayer(hosts=[{"address": redis_url}])
        sockets = [await layer.new_channel() for _ in range(4)]
        for n in range(20):
            for socket in sockets:
                await layer.send(socket, {"type": "move", "n": n})
        got = {socket: [] for socket in sockets}
        for socket in sockets:
            for _ in range(20):
                got[socket].append((await layer.receive(socket))["n"])
        await layer.flush()
        return got

    for numbers in asyncio.run(run()).values():
        assert numbers == list(range(20))


def test_a_socket_closing_while_it_waits_on_redis_leaves_the_others_their_messages(redis_url):
    async def run() -> dict:
        layer = RedisChannelLayer(hosts=[{"address": redis_url}])
        closing, staying = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(closing))
        # Its receive now waits on Redis for the process's sockets, and the other's for it.
        await asyncio.wait_for(blocked_in_redis(redis_url), 10)
        other = asyncio.ensure_future(layer.receive(staying))
        await asyncio.wait_for(receiving(layer, 2), 10)
        waiting.cancel()
        await layer.send(staying, {"type": "move", "n": 1})
        message = await asyncio.wait_for(other, timeout=10)
        await layer.flush()
        return message

    assert asyncio.run(run()) == {"type": "move", "n": 1}


def test_messages_taken_together_outlive_the_event_loop_that_took_them(redis_url):
    # A test or a synchronous caller receives each message in an event loop of its own.
    layer = RedisChannelLayer(hosts=[{"address": redis_url}])
    socket = asyncio.run(layer.new_channel())

    async def send_five() -> None:
        for n in range(5):
            await layer.send(socket, {"type": "move", "n": n})

    async def receive() -> int:
        return (await layer.receive(socket))["n"]

    asyncio.run(send_five())
    assert [asyncio.run(receive()) for _ in range(5)] == [0, 1, 2, 3, 4]


def test_pages_joining_all_at_once_wait_for_a_connection_rather_than_fail(redis_url):
    # Every page of a process reconnects at once after a Redis restart or a deploy: more
    # commands at a time than one process keeps connections to Redis.
    async def run() -> list[dict]:
        layer = RedisChannelLayer(hosts=[{"address": redis_url}])
        sockets = [await layer.new_channel() for _ in range(300)]
        await asyncio.gather(*(layer.group_add("table.1", socket) for socket in sockets))
        await layer.group_send("table.1", {"type": "move", "n": 1})
        got = await asyncio.gather(*(layer.receive(socket) for socket in sockets))
        await layer.flush()
        return got

    assert asyncio.run(run()) == [{"type": "move", "n": 1}] * 300
