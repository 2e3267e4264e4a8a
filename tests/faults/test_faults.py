"""Games played on real processes while they fail: two daphnes, two Celery workers and beat on
a Redis of the test's own. A worker is killed mid-move, Redis restarts, a daphne is killed,
and beat is stopped while another worker is killed.

Each table has a scripted person (seat 0, posting moves over HTTP to either daphne, as a load
balancer would send them) and two AI seats played by the workers; an anonymous spectator's
socket at every table notes when each new position reaches it. Afterwards every game has
finished, every move answered as saved is in the record where it was played, no answer was a
5xx, every result reached the ratings, and the longest stall after each fault is printed.

Beat is stopped for 20 s rather than a minute: the workers run the sweeps themselves, so
recovery does not wait for it (the worker killed meanwhile shows that).
"""

import asyncio
import itertools
import os
import re
import secrets
import signal
import threading
import time
import urllib.error
import urllib.request

import pytest
import websockets
from django.db import connection, connections
from django.test import Client

from accounts.models import User
from games import actions
from games.ctg import engine
from games.ctg.engine.record import logged_actions
from games.models import Table
from leagues.models import PlayedGame, PlayerRating, RecomputeJob
from tests import services
from tests.faults.processes import Cluster

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

TABLES = 6
THINK = 0.7  # seconds the scripted person takes for a move
STALL_LIMIT = 15.0
WORKERS = ("w1", "w2")


@pytest.fixture
def cluster(own_redis, tmp_path):
    services.need("PostgreSQL", connection.vendor == "postgresql", "the processes share it")
    from ctg_site.celery import app
    from tests.conftest import _point_celery_at

    _point_celery_at(app, own_redis.url)
    processes = Cluster(own_redis, tmp_path)
    try:
        processes.start_daphne("a")
        processes.start_daphne("b")
        for name in WORKERS:
            processes.start_worker(name)
        processes.start_beat()
        yield processes
    finally:
        processes.stop_all()
        _point_celery_at(app, None)
        for log in sorted(tmp_path.glob("*.log")):
            tail = log.read_text(errors="replace")[-3000:]
            if "Traceback" in tail:
                print(f"---- {log.name} (end) ----\n{tail}")


def tables_with_people() -> list[tuple[Table, User]]:
    out = []
    for i in range(TABLES):
        person = User.objects.create_user(f"player{i}", password="pw-player-123")
        table = actions.create_table(
            person,
            seats_count=3,
            options={"rounds": 1},
            visibility="public",
            seat_order="host",
            rated=True,
        )
        actions.add_ai(table.pk, person, "heuristic")
        actions.add_ai(table.pk, person, "search" if i % 2 else "greedy")
        out.append((table, person))
    return out


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Play:
    """What the test saw: answers to the people's moves and the times positions arrived."""

    def __init__(self, cluster: Cluster):
        self.cluster = cluster
        self.alive = ["a", "b"]
        self.answers: list[tuple[int, int, int, int]] = []  # table, version, action, status
        self.seen: dict[int, list[tuple[float, int]]] = {}
        self.lock = threading.Lock()

    def post_move(self, table_id: int, session: str, version: int, action: int, text: str):
        """POST like the page does, to a daphne still there (as a load balancer would)."""
        csrf = secrets.token_hex(16)
        body = f"action={text.replace(' ', '+')}&version={version}".encode()
        for name in list(self.alive) * 2:
            request = urllib.request.Request(
                f"{self.cluster.url(name)}/play/t/{table_id}/play/",
                data=body,
                headers={
                    "Cookie": f"sessionid={session}; csrftoken={csrf}",
                    "X-CSRFToken": csrf,
                    "HX-Request": "true",
                    "Content-Type": "application/x-www-form-urlencoded",
                },
            )
            try:
                with urllib.request.urlopen(request, timeout=20) as response:
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            except OSError:
                time.sleep(0.2)
                continue  # that daphne is gone: the next one
            with self.lock:
                self.answers.append((table_id, version, action, status))
            return status
        return None


def position(table_id: int):
    try:
        table = Table.objects.get(pk=table_id)
        if table.status != Table.RUNNING:
            return table.status, table.version, None
        state = table.state()
        if state.decider != 0:
            return table.status, table.version, None
        action = state.legal_actions()[0]
        return table.status, table.version, (action, engine.action_text(action, state.names))
    finally:
        connections.close_all()


async def person(play: Play, table_id: int, session: str) -> None:
    """Seat 0: moves whenever it is his turn, after a moment's thought."""
    while True:
        status, version, move = await asyncio.to_thread(position, table_id)
        if status != Table.RUNNING:
            return
        if move is None:
            await asyncio.sleep(0.1)
            continue
        await asyncio.sleep(THINK)
        await asyncio.to_thread(play.post_move, table_id, session, version, *move)
        while (await asyncio.to_thread(position, table_id))[1] == version:
            await asyncio.sleep(0.1)


async def spectator(play: Play, table_id: int, first: str) -> None:
    """An anonymous page on the table, reconnecting as htmx's ws extension does."""
    seen = play.seen.setdefault(table_id, [])
    names = [first] + [n for n in ("a", "b") if n != first]
    last = -1
    attempt = 0
    while True:
        name = names[attempt % 2] if names[attempt % 2] in play.alive else play.alive[0]
        url = play.cluster.url(name).replace("http", "ws") + f"/ws/tables/{table_id}/"
        try:
            async with websockets.connect(url, origin="http://localhost") as socket:
                attempt = 0
                async for html in socket:
                    match = re.search(r'data-version="(\d+)"', html)
                    if match and int(match.group(1)) > last:
                        last = int(match.group(1))
                        seen.append((time.monotonic(), last))
                    if 'data-status="finished"' in html:
                        return
        except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
            attempt += 1
            await asyncio.sleep(0.3)


def active_ai_move(worker: str) -> bool:
    from ctg_site.celery import app

    active = app.control.inspect(destination=[f"{worker}@faults"], timeout=0.5).active() or {}
    return any(t["name"] == "games.tasks.ai_move" for ts in active.values() for t in ts)


def kill_worker_mid_move(cluster: Cluster, worker: str) -> bool:
    """kill -9 of a worker (its pool too) while it plays an AI move, if one comes in 10 s."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not active_ai_move(worker):
        pass
    mid_move = time.monotonic() < deadline
    cluster.kill(worker)
    return mid_move


async def faults(play: Play, cluster: Cluster, log: list[tuple[str, float]]) -> None:
    def at(what: str) -> None:
        log.append((what, time.monotonic()))

    async def kill_mid_move(what: str, worker: str) -> None:
        at(what)
        mid_move = await asyncio.to_thread(kill_worker_mid_move, cluster, worker)
        log[-1] = (what + ("" if mid_move else " (no AI move was under way)"), log[-1][1])

    await asyncio.sleep(4)
    await kill_mid_move("worker w1 killed (kill -9) mid-move", "w1")
    await asyncio.sleep(6)
    await asyncio.to_thread(cluster.start_worker, "w1")  # as its supervisor would

    await asyncio.sleep(6)
    at("Redis restarted")
    await asyncio.to_thread(cluster.redis.restart)

    await asyncio.sleep(12)
    at("daphne a killed (kill -9)")
    play.alive.remove("a")
    await asyncio.to_thread(cluster.kill, "a")

    await asyncio.sleep(8)
    await asyncio.to_thread(cluster.stop, "beat")
    await kill_mid_move("beat stopped, then worker w2 killed (kill -9) mid-move", "w2")
    await asyncio.sleep(20)
    await asyncio.to_thread(cluster.start_beat)
    await asyncio.to_thread(cluster.start_worker, "w2")


def longest_stall(seen: dict[int, list[tuple[float, int]]], since: float, until: float) -> float:
    """The longest wait for a new position, at any table, over a wait that ends after `since`
    and begins before `until`."""
    longest = 0.0
    for times in seen.values():
        moments = [t for t, _ in times]
        for before, after in itertools.pairwise(moments):
            if after > since and before < until:
                longest = max(longest, after - max(before, since))
    return longest


def test_games_finish_through_worker_redis_daphne_and_beat_faults(cluster, capsys):
    people = tables_with_people()
    sessions = {table.pk: session_of(user) for table, user in people}
    for table, user in people:
        actions.start(table.pk, user)
    play = Play(cluster)
    log: list[tuple[str, float]] = []

    async def scenario():
        players = [person(play, t, s) for t, s in sessions.items()]
        watchers = [spectator(play, t, "ab"[i % 2]) for i, t in enumerate(sessions)]
        games = asyncio.gather(*players, *watchers)
        await faults(play, cluster, log)
        await asyncio.wait_for(games, 240)

    started = time.monotonic()
    asyncio.run(scenario())
    ends = [t for _, t in log[1:]] + [time.monotonic()]
    stalls = [
        (what, longest_stall(play.seen, at, end)) for (what, at), end in zip(log, ends, strict=True)
    ]
    with capsys.disabled():
        print(f"\n{TABLES} games, {time.monotonic() - started:.0f} s; longest stall after:")
        for what, stall in stalls:
            print(f"  {what}: {stall:.1f} s")

    tables = Table.objects.filter(pk__in=sessions)
    assert all(t.status == Table.FINISHED for t in tables), "every game has finished"
    assert not [a for a in play.answers if a[3] >= 500], "no 5xx"
    assert all(a[3] == 204 for a in play.answers), play.answers
    for table in tables:
        logged = logged_actions(table.state())
        assert len(logged) == table.version, "every move applied once"
        mine = [(version, action) for t, version, action, _ in play.answers if t == table.pk]
        for version, action in mine:
            assert logged[version][1:] == (0, action), "the saved move is where it was played"
    assert len(mine) >= 5
    # Every result reached the ratings.
    assert PlayedGame.objects.filter(external_ref__startswith="online:").count() == TABLES
    from tests.waiting import wait_for

    assert wait_for(lambda: not RecomputeJob.objects.exclude(status=RecomputeJob.DONE).exists())
    assert PlayerRating.objects.filter(user__username__startswith="player").count() == TABLES
    for what, stall in stalls:
        # Generous: the machine is shared; the figure printed above is the measure.
        assert stall <= 2 * STALL_LIMIT, f"{what}: stalled {stall:.1f} s"
    # /healthz names each worker and beat, alive again after the faults.
    status, processes = health(cluster)
    assert status == 200
    assert {name.split()[0] for name, p in processes.items() if p["alive"]} == {"worker", "beat"}
    assert os.kill and signal.SIGKILL


def health(cluster: Cluster):
    import json

    deadline = time.monotonic() + 15
    while True:
        try:
            with urllib.request.urlopen(f"{cluster.url('b')}/healthz", timeout=5) as response:
                body = json.load(response)
        except urllib.error.HTTPError as error:
            body = json.load(error)
        alive = [n for n, p in body.get("processes", {}).items() if p["alive"]]
        if len([n for n in alive if n.startswith("worker")]) == 2 and any(
            n.startswith("beat") for n in alive
        ):
            return 200 if body["status"] == "ok" else 503, body["processes"]
        if time.monotonic() > deadline:
            return 503, body.get("processes", {})
        time.sleep(0.5)
