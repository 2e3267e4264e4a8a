"""The site runs with nothing installed: SQLite, in-memory layer, in-process background work."""

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.services import port_open
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
