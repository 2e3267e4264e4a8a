"""Capacity: N live games at once on two daphnes and two Celery workers, one PostgreSQL and
one Redis, on this machine.

Each game has a scripted person (seat 0) and two AI seats; the person moves `--think`
seconds on average after the board shows his turn (from half to one and a half of it, so
that the tables do not move in step), and the two AI seats answer at once: three moves in
about three seconds, a table moving about once a second. Every table has three sockets: the
person's page and two anonymous spectators, spread over both daphnes. For growing N it
prints, over a window of `--seconds`, the moves committed per second (in all, and per
game) and the time from a move's commit to each socket holding the new board (p50, p95),
then the largest N whose p95 stayed within 250 ms.

A move's commit time is the time its push names as saved (taken right after the commit,
before the boards it carries are drawn), as heard by an observer on the channel layer.

    .venv/bin/python benchmarks/capacity.py [--games 25,50,75,100,125] [--seconds 20] [--think 3]

Needs PostgreSQL (its own database `ctg_capacity`, or DATABASE_URL) and redis-server (it
starts one of its own on a spare port).
"""

import argparse
import asyncio
import http.client
import multiprocessing
import os
import random
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

from bench_db import setup_django

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LIMIT_MS = 250.0
NO_DISK = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    sys.exit(f"nothing answers on port {port}")


# ---------------------------------------------------------------------- in other processes


def observe(redis_url: str, tables: list[int], out, stop) -> None:
    """When each table's moves were saved, as their pushes say: {(table, version): time}."""
    from infra.channel_layer import RedisChannelLayer

    async def run():
        layer = RedisChannelLayer(hosts=[{"address": redis_url}])
        seen: dict[tuple[int, int], float] = {}

        async def listen(table_id: int) -> None:
            channel = await layer.new_channel("observer.")
            await layer.group_add(f"table.{table_id}", channel)
            while True:
                message = await layer.receive(channel)
                if message.get("type") == "table.changed":
                    seen.setdefault((table_id, message["version"]), message["saved"])

        listeners = [asyncio.ensure_future(listen(t)) for t in tables]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for task in listeners:
            task.cancel()
        out.put(seen)

    asyncio.run(run())


def play(bases: list[str], games: list[tuple[int, str]], think: float, out, stop) -> None:
    """The people and spectators of `games` (table, session): socket receipt times."""
    import websockets

    received: list[tuple[int, int, float]] = []
    version_re = re.compile(r'data-version="(\d+)"')
    action_re = re.compile(r'data-action="([^"]+)"')

    async def page(base: str, table_id: int, session: str | None) -> None:
        url = base.replace("http", "ws") + f"/ws/tables/{table_id}/"
        headers = {"Cookie": f"sessionid={session}"} if session else {}
        csrf = secrets.token_hex(16)
        async with websockets.connect(
            url, origin=base, additional_headers=headers, max_size=None
        ) as ws:
            first = True
            # The newest board's version and the person's move on it, if it is his turn: a
            # board can arrive while his last move is still being answered.
            latest: list = [None, None]
            changed = asyncio.Event()
            if session:
                mover = person(base, table_id, session, csrf, latest, changed)
                mover = asyncio.ensure_future(mover)
            while not stop.is_set():
                try:
                    html = await asyncio.wait_for(ws.recv(), 1)
                except TimeoutError:
                    continue
                now = time.time()
                match = version_re.search(html)
                if not match:
                    continue
                version = int(match.group(1))
                if not first:
                    received.append((table_id, version, now))
                first = False
                if session:
                    action = action_re.search(html)
                    latest[:] = [version, action.group(1) if action else None]
                    changed.set()
            if session:
                mover.cancel()

    async def person(base, table_id, session, csrf, latest, changed) -> None:
        """Moves some seconds after the board shows his turn (`think` on average, from half
        to one and a half of it, so that the tables do not move in step), on the newest
        board; his moves go over one connection kept alive, as a browser's do."""
        address = urllib.parse.urlsplit(base)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        headers = {
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        rng = random.Random(table_id)
        played = None
        while True:
            await changed.wait()
            changed.clear()
            if latest[1] is None or latest[0] == played:
                continue
            await asyncio.sleep(think * (0.5 + rng.random()))
            version, text = latest
            if text is None:
                continue
            played = version
            body = f"action={text.replace(' ', '+')}&version={version}"
            path = f"/play/t/{table_id}/play/"
            await asyncio.to_thread(post, connection, path, body, headers)
            changed.set()  # a board that came while he moved

    async def run():
        pages = []
        for i, (table_id, session) in enumerate(games):
            own, other = bases[i % 2], bases[(i + 1) % 2]
            pages += [page(own, table_id, session), page(own, table_id, None)]
            pages.append(page(other, table_id, None))
        await asyncio.gather(*pages, return_exceptions=True)

    asyncio.run(run())
    out.put(received)


def post(connection: http.client.HTTPConnection, path: str, body: str, headers: dict) -> None:
    # A 409 (already played) or a slow answer: the next push tries again.
    try:
        connection.request("POST", path, body, headers)
        connection.getresponse().read()
    except (OSError, http.client.HTTPException):
        connection.close()  # connects again for the next move


# ---------------------------------------------------------------------------- the driver


def start_processes(env: dict, logs: Path) -> tuple[list[subprocess.Popen], list[str]]:
    processes, bases = [], []
    for name in ("a", "b"):
        port = free_port()
        command = [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port)]
        log = open(logs / f"daphne-{name}.log", "w")  # noqa: SIM115
        processes.append(
            subprocess.Popen(
                [*command, "ctg_site.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        )
        wait_port(port)
        bases.append(f"http://127.0.0.1:{port}")
    for name in ("w1", "w2"):
        command = [str(BIN / "celery"), "-A", "infra", "worker", "--pool=prefork"]
        command += ["--concurrency=2", f"--hostname={name}@capacity", "--loglevel=WARNING"]
        log = open(logs / f"worker-{name}.log", "w")  # noqa: SIM115
        processes.append(
            subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        )
    return processes, bases


def new_games(count: int, offset: int) -> list[tuple[int, str]]:
    from django.test import Client

    from accounts.models import User
    from games import actions
    from games.models import Table

    games = []
    for i in range(offset, offset + count):
        user, _ = User.objects.get_or_create(username=f"capacity{i}")
        table = actions.create_table(
            user,
            seats_count=3,
            options={"rounds": 4},
            visibility=Table.PUBLIC,
            seat_order=Table.HOST_ORDER,
        )
        actions.add_ai(table.pk, user, "greedy")
        actions.add_ai(table.pk, user, "greedy")
        actions.start(table.pk, user)
        client = Client()
        client.force_login(user)
        games.append((table.pk, client.cookies["sessionid"].value))
    return games


def measure(bases, redis_url, games, think, seconds, warmup) -> dict:
    spawn = multiprocessing.get_context("spawn")
    out, stop = spawn.Queue(), spawn.Event()
    tables = [t for t, _ in games]
    observer = spawn.Process(target=observe, args=(redis_url, tables, out, stop))
    observer.start()
    time.sleep(1)
    halves = [games[0::2], games[1::2]]
    clients = [spawn.Process(target=play, args=(bases, h, think, out, stop)) for h in halves]
    for client in clients:
        client.start()
    time.sleep(warmup)
    start = time.time()
    time.sleep(seconds)
    end = time.time()
    stop.set()
    results = [out.get(timeout=60) for _ in range(3)]
    for process in [observer, *clients]:
        process.join(30)
    committed = next(r for r in results if isinstance(r, dict))
    received = [x for r in results if isinstance(r, list) for x in r]
    latencies = [
        (at - committed[(t, v)]) * 1000
        for t, v, at in received
        if (t, v) in committed and start <= committed[(t, v)] <= end
    ]
    moves = sum(1 for (t, _), at in committed.items() if start <= at <= end)
    latencies.sort()
    return {
        "moves_per_s": moves / (end - start),
        "pushes": len(latencies),
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p95": latencies[int(len(latencies) * 0.95) - 1] if latencies else float("nan"),
    }


def close_games(games) -> None:
    from games.models import Table

    Table.objects.filter(pk__in=[t for t, _ in games]).update(status=Table.CLOSED)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="25,50,75,100,125")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument(
        "--think", type=float, default=3.0, help="the person's seconds a move, on average"
    )
    args = parser.parse_args()

    redis_port = free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    redis = subprocess.Popen(
        [shutil.which("redis-server") or "redis-server", "--port", str(redis_port), *NO_DISK],
        stdout=subprocess.DEVNULL,
    )
    wait_port(redis_port)
    os.environ["REDIS_URL"] = redis_url
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    setup_django("postgres://root@127.0.0.1:5432/ctg_capacity")
    env = os.environ | {
        "RATE_LIMIT_POSTS_PER_USER": "1000000",
        "RATE_LIMIT_POSTS_PER_ADDRESS": "1000000",
        "LOG_LEVEL": "WARNING",
    }
    logs = Path(os.environ.get("CAPACITY_LOGS", "/tmp"))
    processes, bases = start_processes(env, logs)
    best = None
    offset = 0
    print(f"{'games':>6} {'moves/s':>8} {'a game':>7} {'pushes':>7} {'p50 ms':>7} {'p95 ms':>7}")
    try:
        time.sleep(3)
        for count in [int(n) for n in args.games.split(",")]:
            games = new_games(count, offset)
            offset += count
            figures = measure(bases, redis_url, games, args.think, args.seconds, args.warmup)
            close_games(games)
            rate = figures["moves_per_s"]
            print(
                f"{count:>6} {rate:>8.1f} {rate / count:>7.2f} {figures['pushes']:>7} "
                f"{figures['p50']:>7.1f} {figures['p95']:>7.1f}",
                flush=True,
            )
            if figures["p95"] <= LIMIT_MS:
                best = count
            time.sleep(2)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        redis.kill()
    print(f"largest N with p95 <= {LIMIT_MS:.0f} ms: {best if best else 'none'}")


if __name__ == "__main__":
    main()
