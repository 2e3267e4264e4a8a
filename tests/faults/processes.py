"""Real processes a fault test starts and kills: a Redis of its own on a spare port."""

import shutil
import socket
import subprocess
import time

from tests import services


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# Nothing written to disk: a restart brings it back empty, as a crashed cache server comes.
NO_DISK = ["--save", "", "--appendonly", "no"]


class OwnRedis:
    """A redis-server on a spare port that a test may kill and restart without disturbing the
    machine's Redis (other test runs share that one)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        services.need("redis-server", binary, "no redis-server on PATH (apt-get install redis)")
        assert binary
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", *NO_DISK],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not services.port_open("127.0.0.1", self.port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self) -> None:
        """Gone at once, as a crash: every connection to it is dropped; back empty."""
        self.kill()
        self.start()


def redis_layer_at(url: str) -> None:
    """Setup of a live daphne: the test database, and the channel layer at `url`."""
    from channels.testing.live import set_database_connection
    from django.conf import settings

    from ctg_site.settings import redis_channel_layer

    set_database_connection()
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(url)}
