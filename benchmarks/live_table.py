"""Fan-out of a live table: 4 players and 50 spectator sockets on the Redis channel layer.

Prints p50/p95/max of the time from an action's HTTP POST to every socket holding the new
board. Needs PostgreSQL and Redis on their standard local ports (or DATABASE_URL and
REDIS_URL); it uses its own database `ctg_bench` and Redis database 14.

    .venv/bin/python benchmarks/live_table.py [--moves 200] [--spectators 50]
"""

import argparse
import asyncio
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench_db import setup_django

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
os.environ.setdefault("SECRET_KEY", "benchmark-only-key")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=50)
    args = parser.parse_args()

    setup_django("postgres://root@127.0.0.1:5432/ctg_bench")
    from django.test import Client

    from accounts.models import User
    from games import actions
    from games.models import Table

    players = []
    for i in range(4):
        user, _ = User.objects.get_or_create(username=f"bench{i}")
        players.append(user)
    table = actions.create_table(
        players[0],
        seats_count=4,
        options={"rounds": 4},
        visibility=Table.PUBLIC,
        seat_order=Table.HOST_ORDER,
    )
    for user in players[1:]:
        actions.take_seat(table.pk, user)
    actions.start(table.pk, players[0])
    sessions = []
    for user in players:
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "ctg_site.asgi:application",
        ],
        cwd=ROOT,
        # Moves come far faster than people play: lift the flood limits for this server.
        env=os.environ
        | {"RATE_LIMIT_POSTS_PER_USER": "1000000", "RATE_LIMIT_POSTS_PER_ADDRESS": "1000000"},
        stdout=subprocess.DEVNULL,
        stderr=open(os.environ.get("BENCH_LOG", os.devnull), "w"),  # noqa: SIM115
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        latencies = asyncio.run(run(base, table.pk, sessions, args))
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    latencies.sort()
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
    print(
        f"{len(latencies)} moves, {4 + args.spectators} sockets: "
        f"p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms, max {latencies[-1]:.1f} ms"
    )


async def run(base: str, table_id: int, sessions: list[str], args) -> list[float]:
    import websockets

    from games.ctg import engine
    from games.models import Table

    ws_url = base.replace("http", "ws") + f"/ws/tables/{table_id}/"
    sockets = [
        await websockets.connect(
            ws_url, origin=base, additional_headers={"Cookie": f"sessionid={s}"}
        )
        for s in sessions
    ] + [await websockets.connect(ws_url, origin=base) for _ in range(args.spectators)]
    for ws in sockets:
        await ws.recv()
    csrf = secrets.token_hex(16)
    latencies, posts = [], []

    async def until_version(ws, version: int) -> None:
        while True:
            html = await ws.recv()
            match = re.search(r'data-version="(\d+)"', html)
            if match and int(match.group(1)) >= version:
                return

    from asgiref.sync import sync_to_async

    @sync_to_async
    def next_move():
        table = Table.objects.get(pk=table_id)
        if table.status != Table.RUNNING:
            return None
        state = table.state()
        text = engine.action_text(state.legal_actions()[0], state.names)
        return table.version, state.decider, text

    for _ in range(args.moves):
        move = await next_move()
        if move is None:
            break
        version, seat, text = move
        body = f"action={text.replace(' ', '+')}&version={version}".encode()
        request = urllib.request.Request(
            f"{base}/play/t/{table_id}/play/",
            data=body,
            headers={
                "Cookie": f"sessionid={sessions[seat]}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        start = time.perf_counter()
        await asyncio.to_thread(urllib.request.urlopen, request)
        posts.append((time.perf_counter() - start) * 1000)
        await asyncio.gather(*(until_version(ws, version + 1) for ws in sockets))
        latencies.append((time.perf_counter() - start) * 1000)
    for ws in sockets:
        await ws.close()
    print(f"the POST alone: p50 {statistics.median(posts):.1f} ms")
    return latencies


if __name__ == "__main__":
    main()
