"""A Redis restart while two daphnes serve a table: no move answered with an error afterwards,
and every move still reaches the sockets."""

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
from functools import partial

import pytest
import websockets
from django.db import connections
from django.test import Client

from games.ctg import engine
from games.models import Table
from tests.conftest import start_daphne, stop_daphne, url_of
from tests.faults.processes import redis_layer_at

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


@pytest.fixture
def two_daphnes(own_redis):
    servers = [start_daphne(partial(redis_layer_at, own_redis.url)) for _ in range(2)]
    yield [url_of(server) for server in servers]
    for server in servers:
        stop_daphne(server)


class Player:
    """A signed-in browser: its cookies and CSRF token, posting moves like the page does."""

    def __init__(self, user, base: str, table_id: int):
        client = Client()
        client.force_login(user)
        self.cookies = {"sessionid": client.cookies["sessionid"].value}
        self.base, self.table_id = base, table_id
        _, page = self.http(f"/play/t/{table_id}/")
        self.token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)

    def http(self, path, data=None, headers=()):
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        request = urllib.request.Request(
            self.base + path, data=data, headers={"Cookie": cookie, **dict(headers)}
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                for header in response.headers.get_all("Set-Cookie") or []:
                    name, _, rest = header.partition("=")
                    self.cookies[name] = rest.split(";")[0]
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def move(self) -> int:
        table = Table.objects.get(pk=self.table_id)
        state = table.state()
        text = engine.action_text(state.legal_actions()[0], state.names)
        body = f"action={text.replace(' ', '+')}&version={table.version}".encode()
        headers = {
            "X-CSRFToken": self.token,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": self.base + "/",
        }
        status, _ = self.http(f"/play/t/{self.table_id}/play/", body, headers.items())
        return status


async def in_thread(work, *args):
    """`work` in a thread of asyncio's pool, whose database connection is closed after: the
    pool's threads outlive the test, and a connection left open keeps the test database
    from being dropped."""

    def run():
        try:
            return work(*args)
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)


def decider(table_id: int, players: dict) -> "Player":
    return players[Table.objects.get(pk=table_id).state().decider]


class Watcher:
    """A table page's socket as htmx's ws extension keeps it: after an abnormal close (1006,
    1011, 1012, 1013) it connects again, and the server sends the whole board."""

    def __init__(self, url: str, cookie: str):
        self.url, self.cookie, self.socket = url, cookie, None
        self.reconnects = 0

    async def _connect(self) -> None:
        deadline = asyncio.get_running_loop().time() + 15
        while True:
            try:
                self.socket = await websockets.connect(
                    self.url, origin="http://localhost", additional_headers={"Cookie": self.cookie}
                )
                return
            except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):
                assert asyncio.get_running_loop().time() < deadline, "no socket for 15 s"
                await asyncio.sleep(0.2)

    async def version_at_least(self, version: int) -> int:
        """The board's version once a push (or a fresh board) shows at least `version`."""
        if self.socket is None:
            await self._connect()
        while True:
            try:
                html = await asyncio.wait_for(self.socket.recv(), 15)
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is None or closed.rcvd.code in (1006, 1011, 1012, 1013)
                self.reconnects += 1
                await self._connect()
                continue
            match = re.search(r'data-version="(\d+)"', html)
            if match and int(match.group(1)) >= version:
                return int(match.group(1))

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


def test_it_answers_and_pushes_every_move_after_a_redis_restart(
    two_daphnes, own_redis, running_table, alice, bob
):
    first, second = two_daphnes
    table_id = running_table.pk
    players = {0: Player(alice, first, table_id), 1: Player(bob, first, table_id)}
    watcher = Player(alice, second, table_id)

    async def scenario():
        ws_url = second.replace("http", "ws") + f"/ws/tables/{table_id}/"
        socket = Watcher(ws_url, f"sessionid={watcher.cookies['sessionid']}")
        statuses, seen = [], []
        await socket.version_at_least(0)  # the board on connect
        for round_ in range(2):
            if round_:
                await asyncio.to_thread(own_redis.restart)
            for _ in range(3):
                version = await in_thread(lambda: Table.objects.get(pk=table_id).version)
                player = await in_thread(decider, table_id, players)
                statuses.append(await in_thread(player.move))
                seen.append(await socket.version_at_least(version + 1))
        await socket.close()
        return statuses, seen

    statuses, seen = asyncio.run(scenario())

    assert statuses == [204] * 6, "every move answered as saved"
    assert seen == sorted(seen) and len(seen) == 6
    status, body = players[0].http("/healthz")
    assert status == 200, body
    assert json.loads(body)["checks"]["channel_layer"] == "ok"


def test_moves_posted_while_redis_is_down_are_answered_as_saved(
    two_daphnes, own_redis, running_table, alice, bob
):
    """Redis is away for two seconds and two moves at least, as while it restarts. The rate
    limits count without it and the pushes wait for it: every move posted meanwhile is
    answered as saved, none with a server error, and the page has every move once Redis is
    back."""
    first, second = two_daphnes
    table_id = running_table.pk
    players = {0: Player(alice, first, table_id), 1: Player(bob, second, table_id)}
    watcher = Player(alice, second, table_id)
    before = Table.objects.get(pk=table_id).version

    async def scenario():
        ws_url = second.replace("http", "ws") + f"/ws/tables/{table_id}/"
        socket = Watcher(ws_url, f"sessionid={watcher.cookies['sessionid']}")
        await socket.version_at_least(0)
        while_down, after = [], []
        await asyncio.to_thread(own_redis.kill)
        down_until = time.monotonic() + 2
        while time.monotonic() < down_until or len(while_down) < 2:
            player = await in_thread(decider, table_id, players)
            while_down.append(await in_thread(player.move))
        await asyncio.to_thread(own_redis.start)
        player = await in_thread(decider, table_id, players)
        after.append(await in_thread(player.move))
        version = await in_thread(lambda: Table.objects.get(pk=table_id).version)
        seen = await socket.version_at_least(version)
        await socket.close()
        return while_down, after, version, seen

    while_down, after, version, seen = asyncio.run(scenario())

    assert while_down + after == [204] * (len(while_down) + 1), "every move answered as saved"
    assert version >= before + len(while_down) + 1, "and saved"
    assert seen == version, "the page has every move"


def test_a_worker_holding_tasks_lives_through_a_redis_restart(own_redis, tmp_path, alice, settings):
    """Redis restarts while a worker holds a task for later (a clock check) and plays an AI
    move: it reconnects and goes on playing, instead of stopping."""
    from games import actions, tasks
    from infra.celery import app
    from tests.conftest import _point_celery_at
    from tests.faults.processes import Cluster
    from tests.games.test_ai_seats import table_with_bots
    from tests.waiting import wait_for

    settings.CELERY_BROKER_URL = own_redis.url  # AI moves go to the worker
    _point_celery_at(app, own_redis.url)
    # Its AI move lasts three seconds, whatever its level thinks: Redis restarts during it.
    cluster = Cluster(own_redis, tmp_path, env={"CTG_TEST_AI_MOVE_SECONDS": "3"})
    try:
        cluster.start_worker("w1")
        assert wait_for(lambda: app.control.inspect(timeout=0.5).ping(), 30)
        tasks.clock_check.apply_async((0, 0), countdown=600)
        assert wait_for(lambda: any((app.control.inspect(timeout=0.5).scheduled() or {}).values()))
        table = table_with_bots(alice, ["search"], seats=2)  # a level that thinks
        actions.move_seat(table.pk, alice, 0, 1)  # the AI moves first
        actions.start(table.pk, alice)

        def thinking() -> bool:
            active = app.control.inspect(timeout=0.5).active() or {}
            return any(t["name"] == tasks.ai_move.name for ts in active.values() for t in ts)

        assert wait_for(thinking, 30)
        own_redis.restart()

        # Its move is played (or, lost with Redis, set going again by the worker's sweep).
        assert wait_for(lambda: Table.objects.get(pk=table.pk).state().decider == 1, 40)
        time.sleep(1)
        assert cluster.processes["w1"].poll() is None, "the worker is still running"
    finally:
        cluster.stop_all()
        _point_celery_at(app, None)


def test_a_worker_takes_tasks_again_soon_after_redis_comes_back(
    own_redis, tmp_path, alice, settings, capsys
):
    """Redis is away for seven seconds: the worker tries to connect again every second or
    so, not after waits that grow, and plays the next AI move as soon as Redis is back.

    kombu's own waits (2 s, then 4, then 6) would try at 2, 6 and 12 s: five seconds after
    Redis came back. The bound lies between that and a second's tries, with room for a slow
    machine."""
    from games import actions
    from infra.celery import app
    from tests.conftest import _point_celery_at
    from tests.faults.processes import Cluster
    from tests.games.test_ai_seats import table_with_bots
    from tests.waiting import wait_for

    settings.CELERY_BROKER_URL = own_redis.url  # AI moves go to the worker
    _point_celery_at(app, own_redis.url)
    cluster = Cluster(own_redis, tmp_path)
    try:
        cluster.start_worker("w1")
        cluster.wait_ready("w1")
        table = table_with_bots(alice, ["greedy"], seats=2)
        actions.move_seat(table.pk, alice, 0, 1)  # the AI moves first
        own_redis.kill()
        time.sleep(7)  # the worker has tried to connect again, and failed, by now
        own_redis.start()
        back = time.monotonic()
        actions.start(table.pk, alice)
        assert wait_for(lambda: Table.objects.get(pk=table.pk).state().decider == 1, 30)
        played = time.monotonic() - back
    finally:
        cluster.stop_all()
        _point_celery_at(app, None)
    with capsys.disabled():
        print(f"\nthe worker played an AI move {played:.1f} s after Redis came back")
    assert played <= 3.5
