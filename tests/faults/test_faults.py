"""Games played on real processes while they fail: two daphnes, two Celery workers and beat on
a Redis of the test's own. A worker is killed mid-move, Redis restarts (away for a second),
a daphne is killed, and beat is stopped while another worker is killed; then a worker and a
daphne are stopped with SIGTERM, as a supervisor does for a deployment. Each process killed
is started again a few seconds later, as its supervisor would.

Each table has a scripted person (seat 0, posting moves over HTTP to either daphne, as a load
balancer would send them) and two AI seats played by the workers; an anonymous spectator's
socket at every table notes when each new position reaches it, and reconnects on the
schedule of the site's pages (static/js/sockets.js). The faults come a few seconds apart, and
the games are left unfinished once every table has been seen moving on after the last: how
a game ends is not what a fault changes. Afterwards no answer was a 5xx, every move answered
as saved is in the record where it was played, no move was applied twice, and the longest
stall after each fault is printed: the longest wait, at any table, for the next position. A
person thinks THINK seconds and an AI a second or two, so a wait of about two seconds is the
game's own pace. The test fails past STALL_LIMIT, and past it by as much as the longest wait
before the first fault exceeds that pace: on a machine too busy to keep the pace, a wait is
longer whether or not a fault came before it.
"""

import asyncio
import contextlib
import itertools
import os
import random
import re
import secrets
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets
from django.db import connection, connections
from django.test import Client

from accounts.models import User
from games import actions
from games.ctg import engine
from games.ctg.engine.record import logged_actions
from games.models import Table
from tests import services
from tests.faults.processes import Cluster

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

TABLES = 6
# Seconds the scripted person takes for a move: slow enough that every game still runs when
# the last fault has passed, about a minute in.
THINK = 1.6
STALL_LIMIT = 5.0
# Seconds of the longest wait for a position that the game's own pace gives, with no fault.
PACE = 2.0
# Seconds between one fault and the next, and after the last: long enough to see the games
# recover, and the pace they keep afterwards.
BETWEEN_FAULTS = 5.0
# Seconds a supervisor takes to start again a process that was killed.
SUPERVISOR_RESTARTS_AFTER = 3.0
# Seconds Redis is away while it restarts.
REDIS_DOWN = 1.0
WORKERS = ("w1", "w2")


@pytest.fixture
def cluster(own_redis, tmp_path):
    services.need("PostgreSQL", connection.vendor == "postgresql", "the processes share it")
    from infra.celery import app
    from tests.conftest import _point_celery_at

    _point_celery_at(app, own_redis.url)
    processes = Cluster(own_redis, tmp_path)
    try:
        processes.start_daphnes("a", "b")
        for name in WORKERS:
            processes.start_worker(name)
        for name in WORKERS:
            processes.wait_ready(name)
        processes.start_beat()
        yield processes
    finally:
        processes.stop_all()
        _point_celery_at(app, None)
        for log in sorted(tmp_path.glob("*.log")):
            text = log.read_text(errors="replace")
            if "Traceback" in text[-3000:]:
                print(f"---- {log.name} (end) ----\n{text[-3000:]}")
            for line in text.splitlines():
                if "set going again" in line:
                    print(f"{log.name}: {line}")


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
        # (table, version) of moves sent again because a connection broke under the first.
        self.resent: set[tuple[int, int]] = set()
        self.seen: dict[int, list[tuple[float, int]]] = {}
        self.lock = threading.Lock()
        self.over = threading.Event()  # the faults have passed: the people stop

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
                with self.lock:
                    self.resent.add((table_id, version))
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
    while not play.over.is_set():
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


def reconnect_delay(attempt: int) -> float:
    """Seconds before a page's socket connects again (static/js/sockets.js)."""
    return random.uniform(0, 0.4) if attempt == 0 else random.uniform(0.4, 1.2)


async def spectator(play: Play, table_id: int, first: str) -> None:
    """An anonymous page on the table, reconnecting as the site's pages do."""
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
            await asyncio.sleep(reconnect_delay(attempt))
            attempt += 1


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thinking(worker_pid: int) -> bool:
    """A pool process of the worker is busy on the CPU: it plays an AI move (a Tactician thinks
    for about a second; nothing else a worker runs takes that long)."""
    before = {}
    with contextlib.suppress(OSError):
        for pid in Path(f"/proc/{worker_pid}/task/{worker_pid}/children").read_text().split():
            before[int(pid)] = cpu_seconds(int(pid))
    time.sleep(0.2)
    for pid, at in before.items():
        with contextlib.suppress(OSError):
            if cpu_seconds(pid) - at >= 0.05:
                return True
    return False


def active_ai_move(worker: str) -> bool:
    """The worker plays an AI move, as Celery's remote control tells."""
    from infra.celery import app

    try:
        active = app.control.inspect(destination=[f"{worker}@faults"], timeout=0.3).active()
    except Exception:  # this process's broker connection, dropped by a Redis restart
        return False
    active = active or {}
    return any(t["name"] == "games.tasks.ai_move" for ts in active.values() for t in ts)


def mid_move(cluster: Cluster, worker: str) -> bool:
    """Wait up to 10 s for the worker to play an AI move; False if none came."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if thinking(cluster.processes[worker].pid) or active_ai_move(worker):
            return True
    return False


def kill_worker_mid_move(cluster: Cluster, worker: str) -> bool:
    """kill -9 of a worker (its pool too) while it plays an AI move, if one comes in 10 s."""
    under_way = mid_move(cluster, worker)
    cluster.kill(worker)
    return under_way


async def faults(play: Play, cluster: Cluster, log: list[tuple[str, float]]) -> None:
    def at(what: str) -> None:
        log.append((what, time.monotonic()))

    async def kill_mid_move(what: str, worker: str) -> None:
        at(what)
        mid_move = await asyncio.to_thread(kill_worker_mid_move, cluster, worker)
        log[-1] = (what + ("" if mid_move else " (no AI move was under way)"), log[-1][1])

    async def stop(what: str, name: str) -> None:
        """SIGTERM, as a supervisor stops it for a deployment; it must go by itself."""
        at(what)
        started = time.monotonic()
        gone = await asyncio.to_thread(cluster.stop, name, 30)
        assert gone, f"{name} did not exit on SIGTERM within 30 s"
        log[-1] = (f"{what}, gone in {time.monotonic() - started:.1f} s", log[-1][1])

    restarts: list[asyncio.Task] = []

    async def next_fault() -> None:
        """A while after the last fault, once every process killed is back and taking work:
        each fault's stall is its own, as in a rolling deployment, which waits for a new
        process before it stops the next."""
        await asyncio.sleep(BETWEEN_FAULTS)
        await asyncio.gather(*restarts)
        restarts.clear()

    async def worker_back(name: str, after: float = SUPERVISOR_RESTARTS_AFTER) -> None:
        await asyncio.sleep(after)
        await asyncio.to_thread(cluster.start_worker, name)
        await asyncio.to_thread(cluster.wait_ready, name)

    async def daphne_back(name: str, after: float = SUPERVISOR_RESTARTS_AFTER) -> None:
        await asyncio.sleep(after)
        await asyncio.to_thread(cluster.start_daphne, name)
        play.alive.append(name)

    await asyncio.sleep(4)
    await kill_mid_move("worker w1 killed (kill -9) mid-move", "w1")
    restarts.append(asyncio.create_task(worker_back("w1")))

    await next_fault()
    at(f"Redis restarted (away for {REDIS_DOWN:.0f} s)")
    await asyncio.to_thread(cluster.redis.restart, REDIS_DOWN)

    await next_fault()
    at("daphne a killed (kill -9)")
    play.alive.remove("a")
    await asyncio.to_thread(cluster.kill, "a")
    restarts.append(asyncio.create_task(daphne_back("a")))

    await next_fault()
    await asyncio.to_thread(cluster.stop, "beat")
    await kill_mid_move("beat stopped, worker w2 killed (kill -9) mid-move", "w2")
    restarts.append(asyncio.create_task(worker_back("w2")))

    await next_fault()
    await asyncio.to_thread(mid_move, cluster, "w1")
    await stop("worker w1 stopped (SIGTERM) mid-move", "w1")
    restarts.append(asyncio.create_task(worker_back("w1", after=0)))

    await next_fault()
    play.alive.remove("b")  # the load balancer sends no more to it
    await stop("daphne b stopped (SIGTERM)", "b")
    restarts.append(asyncio.create_task(daphne_back("b", after=0)))

    await next_fault()
    at("beat started again")
    await asyncio.to_thread(cluster.start_beat)
    await asyncio.sleep(BETWEEN_FAULTS)


def longest_stall(
    seen: dict[int, list[tuple[float, int]]], since: float, until: float
) -> tuple[float, str]:
    """The longest wait for a new position, at any table, over a wait that ends after `since`
    and begins before `until`; and where it was."""
    longest, where = 0.0, ""
    for table_id, times in seen.items():
        for (before, old), (after, new) in itertools.pairwise(times):
            if after > since and before < until and after - max(before, since) > longest:
                longest = after - max(before, since)
                where = f"table {table_id}, version {old} to {new}"
    return longest, where


def moves_seen(seen: dict[int, list[tuple[float, int]]], since: float, until: float) -> int:
    return sum(since < t <= until for times in seen.values() for t, _ in times)


@pytest.mark.long
def test_games_finish_through_worker_redis_daphne_and_beat_faults(cluster, capsys):
    people = tables_with_people()
    sessions = {table.pk: session_of(user) for table, user in people}
    for table, user in people:
        actions.start(table.pk, user)
    play = Play(cluster)
    log: list[tuple[str, float]] = []

    async def scenario():
        players = [asyncio.create_task(person(play, t, s)) for t, s in sessions.items()]
        watchers = [
            asyncio.create_task(spectator(play, t, "ab"[i % 2])) for i, t in enumerate(sessions)
        ]
        await faults(play, cluster, log)
        play.over.set()
        await asyncio.wait_for(asyncio.gather(*players), 60)  # each answer in
        for watcher in watchers:
            watcher.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)

    started = time.monotonic()
    asyncio.run(scenario())
    ends = [t for _, t in log[1:]] + [time.monotonic()]
    stalls = [
        (what, *longest_stall(play.seen, at, end), moves_seen(play.seen, at, end))
        for (what, at), end in zip(log, ends, strict=True)
    ]
    # The pace the machine kept before the first fault: its longest wait that ended before it.
    calm = max(
        (
            after - before
            for times in play.seen.values()
            for (before, _), (after, _) in itertools.pairwise(times)
            if after <= log[0][1]
        ),
        default=0.0,
    )
    limit = STALL_LIMIT + max(calm - PACE, 0)
    wall = time.time() - time.monotonic()  # for the processes' logs
    with capsys.disabled():
        print(
            f"\n{TABLES} games, {time.monotonic() - started:.0f} s; longest wait before the "
            f"first fault {calm:.1f} s, so a stall of {limit:.1f} s at most; longest stall after:"
        )
        for (what, stall, where, moves), (_, at) in zip(stalls, log, strict=True):
            clock = time.strftime("%H:%M:%S", time.localtime(wall + at))
            print(
                f"  {what}: {stall:.1f} s (goal {STALL_LIMIT:.0f} s; {moves} moves seen;"
                f" longest at {where}; fault at {clock})"
            )

    tables = Table.objects.filter(pk__in=sessions)
    assert not [a for a in play.answers if a[3] >= 500], "no 5xx"
    # A move sent again after a daphne died under it may have been saved by the first: "already
    # played", and the check below finds it where it was played, as for every answer.
    refused = [a for a in play.answers if a[3] != 204]
    assert all(a[3] == 409 and a[:2] in play.resent for a in refused), refused
    for table in tables:
        logged = logged_actions(table.state())
        assert len(logged) == table.version, "every move applied once"
        mine = [(version, action) for t, version, action, _ in play.answers if t == table.pk]
        for version, action in mine:
            assert logged[version][1:] == (0, action), "the saved move is where it was played"
        assert len(mine) >= 10
    # Every game went on after the last fault, or had finished: none was left stuck.
    last = log[-1][1]
    for table in tables:
        assert table.status == Table.FINISHED or any(t > last for t, _ in play.seen[table.pk])
    for what, stall, _, moves in stalls:
        # The games went on after each fault, so its stall was measured at all.
        assert moves >= TABLES, f"{what}: only {moves} moves seen afterwards"
        assert stall <= limit, f"{what}: stalled {stall:.1f} s (before the faults {calm:.1f} s)"
    # /healthz names each worker and beat, alive again after the faults.
    status, processes = health(cluster)
    assert status == 200
    assert {name.split()[0] for name, p in processes.items() if p["alive"]} == {"worker", "beat"}


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
