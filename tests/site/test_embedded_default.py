"""The site runs with nothing installed: SQLite, in-memory layer, in-process background work."""

import json
import os
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.services import port_open
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.long
def test_it_migrates_loads_the_demo_and_serves_with_no_service(tmp_path):
    # As `make run` has it: nothing set but DEBUG.
    unset = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "SECURE_SSL_REDIRECT", "SECURE_COOKIES"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env |= {
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "ctg_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput"], env=env, check=True, capture_output=True)
    demo = subprocess.run([*manage, "demo_data"], env=env, check=True, capture_output=True)
    assert b"Organiser login: organiser" in demo.stdout

    port = free_port()
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for(lambda: port_open("127.0.0.1", port), 30), "the site did not start"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz") as response:
            health = json.load(response)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as response:
            home = response.read().decode()
    finally:
        server.terminate()
        server.wait(10)

    assert health["checks"] == {"database": "ok", "channel_layer": "ok", "broker": "in-process"}
    assert "Call to Glory" in home


def test_it_takes_up_at_start_an_ai_move_lost_when_it_stopped(tmp_path):
    # The process stopped just after the AI's turn came: its move was never played.
    unset = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "SECURE_SSL_REDIRECT", "SECURE_COOKIES"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    database = tmp_path / "site.sqlite3"
    env |= {
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "ctg_site.settings",
        "DATABASE_URL": f"sqlite:///{database}",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput"], env=env, check=True, capture_output=True)
    script = (
        "from infra import background; background._closing.set()\n"  # as at exit
        "from accounts.models import User; from games import actions\n"
        "host = User.objects.create_user('host', password='pw-host-123')\n"
        "t = actions.create_table(host, seats_count=2, options={'rounds': 1}, visibility='public',"
        " seat_order='host')\n"
        "actions.add_ai(t.pk, host, 'greedy'); actions.move_seat(t.pk, host, 0, 1)\n"
        "actions.start(t.pk, host); print(t.pk)\n"
    )
    made = subprocess.run(
        [*manage, "shell", "-c", script], env=env, check=True, capture_output=True
    )
    table_id = int(made.stdout.split()[-1])

    def version() -> int:
        with sqlite3.connect(database) as db:
            row = db.execute("SELECT version FROM games_table WHERE id = ?", [table_id]).fetchone()
        return row[0]

    before = version()
    port = free_port()
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for(lambda: version() > before, 20), "the AI's move is played at start"
    finally:
        server.terminate()
        server.wait(10)
