"""Stopping a process with SIGTERM, as a supervisor does, loses no move.

The embedded default (make run's runserver, or daphne without Redis) plays AI moves in its
own threads: stopped while an AI seat thinks, it finishes that move before it exits, and
started again it sets the next one going at once. A daphne stopped while it saves a move
still answers it; a Celery worker stopped mid-move finishes that move and exits.
"""

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection, connections, transaction

from games import actions
from games.ctg import engine
from games.ctg.engine.record import logged_actions
from games.models import Table
from tests import services
from tests.faults.processes import free_port
from tests.faults.test_faults import session_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
COMMANDS = {
    "runserver": [sys.executable, "manage.py", "runserver"],
    "daphne": [str(BIN / "daphne"), "-b", "127.0.0.1", "-p"],
}


class Server:
    """The embedded default in a process of its own, on the test database."""

    def __init__(self, kind: str, logs: Path) -> None:
        self.kind, self.logs, self.port = kind, logs, free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        if self.kind == "runserver":
            command = [*COMMANDS["runserver"], f"127.0.0.1:{self.port}"]
        else:
            command = [*COMMANDS["daphne"], str(self.port), "ctg_site.asgi:application"]
        env = os.environ | {"DJANGO_SETTINGS_MODULE": "tests.faults.embedded_settings"}
        log = open(self.logs / f"{self.kind}.log", "a")  # noqa: SIM115 (the process holds it)
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while not services.port_open("127.0.0.1", self.port):
            assert self.process.poll() is None, (self.logs / f"{self.kind}.log").read_text()
            assert time.monotonic() < deadline, f"{self.kind} did not start"
            time.sleep(0.1)

    def stop(self, group: bool = False) -> int:
        """SIGTERM, as a supervisor stops it (to its process group: every process in it); its
        exit code (it must go within 30 s)."""
        assert self.process is not None
        if group:
            os.killpg(self.process.pid, signal.SIGTERM)
        else:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            for pid in [*children(self.process.pid), self.process.pid]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process.wait()

    def post_move(self, table_id: int, session: str, version: int, text: str) -> int:
        csrf = secrets.token_hex(16)
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/play/t/{table_id}/play/",
            data=f"action={text.replace(' ', '+')}&version={version}".encode(),
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code


def children(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return []


def cpu_seconds(pid: int) -> float:
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def thinking(pid: int) -> bool:
    """The server (or the process it serves from) is busy on the CPU: with no page open and
    no request under way, that is an AI seat thinking."""
    pids = [pid, *children(pid)]
    before = sum(cpu_seconds(p) for p in pids)
    time.sleep(0.2)
    return sum(cpu_seconds(p) for p in pids) - before >= 0.03


def now(table_id: int) -> tuple[Table, engine.State]:
    table = Table.objects.get(pk=table_id)
    connections.close_all()
    return table, table.state()


def wait_for_change(table_id: int, version: int, seconds: float = 60) -> float | None:
    """Seconds until the table moves past `version`, or None if it does not in time."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if now(table_id)[0].version != version:
            return time.monotonic() - started
        time.sleep(0.05)
    return None


@pytest.fixture
def masters(alice) -> int:
    """alice (seat 0) and two Masters, who think up to two seconds a move."""
    table = actions.create_table(
        alice, seats_count=3, options={"rounds": 1}, visibility="public", seat_order="host"
    )
    actions.add_ai(table.pk, alice, "search-strong")
    actions.add_ai(table.pk, alice, "search-strong")
    actions.start(table.pk, alice)
    return table.pk


@pytest.mark.parametrize(
    ("kind", "group"), [("runserver", False), ("runserver", True), ("daphne", False)]
)
def test_it_finishes_the_ai_move_under_way_and_goes_on_at_once_after_a_restart(
    kind, group, masters, alice, tmp_path, capsys
):
    table_id, session = masters, session_of(alice)
    server = Server(kind, tmp_path)
    server.start()
    saved = []
    try:
        # alice plays her turns until an AI seat is caught thinking.
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no AI seat thinks"
            table, state = now(table_id)
            if state.decider == 0:
                text = engine.action_text(state.legal_actions()[0], state.names)
                assert server.post_move(table_id, session, table.version, text) == 204
                saved.append((table.version, text))
            elif thinking(server.process.pid):
                thinking_at = table.version
                break

        assert server.stop(group) == 0
        stopped = now(table_id)[0].version
        server.start()
        went_on = wait_for_change(table_id, stopped)
    finally:
        server.kill()
    with capsys.disabled():
        print(
            f"\n{kind}{' (group)' * group}: the game went on {went_on:.1f} s after the restart"
            if went_on
            else ""
        )

    assert stopped > thinking_at, "the AI move under way was finished before the exit"
    assert went_on is not None, "the game goes on after the restart"
    table, state = now(table_id)
    logged = logged_actions(state)
    assert len(logged) == table.version, "every move applied once"
    for version, text in saved:
        assert engine.action_text(logged[version][2], state.names) == text


def test_a_stopped_daphne_answers_the_move_it_is_saving(alice, masters, tmp_path):
    services.need("PostgreSQL", connection.vendor == "postgresql", "its row lock holds the move")
    table_id, session = masters, session_of(alice)
    table, state = now(table_id)
    text = engine.action_text(state.legal_actions()[0], state.names)
    server = Server("daphne", tmp_path)
    server.start()
    answers = []
    try:
        with transaction.atomic():
            # The table's row is locked here: the move waits for it inside daphne.
            Table.objects.select_for_update().get(pk=table_id)
            move = threading.Thread(
                target=lambda: answers.append(
                    server.post_move(table_id, session, table.version, text)
                )
            )
            move.start()
            time.sleep(1)
            server.process.send_signal(signal.SIGTERM)
            time.sleep(1)
        move.join(30)
        assert server.process.wait(30) == 0
    finally:
        server.kill()
    logged = logged_actions(now(table_id)[1])
    assert engine.action_text(logged[table.version][2], state.names) == text, "the move was saved"
    assert answers == [204], "and answered as saved"


def test_a_worker_stopped_mid_move_finishes_it_and_exits(alice, masters, own_redis, tmp_path):
    services.need("PostgreSQL", connection.vendor == "postgresql", "the processes share it")
    import redis

    from infra import liveness
    from infra.celery import app
    from tests.conftest import _point_celery_at
    from tests.faults.processes import Cluster

    _point_celery_at(app, own_redis.url)
    cluster = Cluster(own_redis, tmp_path)
    table_id, session = masters, session_of(alice)
    try:
        cluster.start_daphne("a")
        cluster.start_worker("w1")
        beats = redis.Redis.from_url(own_redis.url)
        deadline = time.monotonic() + 30
        while not beats.hexists(liveness.HEARTBEATS, "worker w1@faults"):
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)
        base = Server("daphne", tmp_path)
        base.port = cluster.ports["a"]
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no AI seat thinks"
            table, state = now(table_id)
            if state.decider == 0:
                text = engine.action_text(state.legal_actions()[0], state.names)
                assert base.post_move(table_id, session, table.version, text) == 204
            elif thinking(cluster.processes["w1"].pid):
                thinking_at = table.version
                break
        started = time.monotonic()
        gone = cluster.stop("w1", 30)
        took = time.monotonic() - started
    finally:
        cluster.stop_all()
        _point_celery_at(app, None)
    assert gone, f"the worker did not exit on SIGTERM ({took:.1f} s)"
    assert now(table_id)[0].version > thinking_at, "the AI move under way was finished"
