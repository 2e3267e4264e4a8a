"""Real processes a fault test starts and kills: a Redis of its own on a spare port."""

import contextlib
import itertools
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

    def start(self, keep_port: bool = False) -> None:
        binary = shutil.which("redis-server")
        services.need("redis-server", binary, "no redis-server on PATH (apt-get install redis)")
        assert binary
        # The spare port may be taken between its choice and the bind (another test run's
        # connection, say): then it takes another, unless it restarts, as a real one would.
        for _ in range(5):
            if self._started(binary):
                return
            assert not keep_port, f"redis-server could not listen on :{self.port} again"
            self.port = free_port()
            self.url = f"redis://127.0.0.1:{self.port}/0"
        raise AssertionError("redis-server found no port to listen on")

    def _started(self, binary: str) -> bool:
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", *NO_DISK],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self._answers():
            if self.process.poll() is not None:
                return False  # it could not listen on its port
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        return True

    def _answers(self) -> bool:
        """This redis-server answers on the port (not a program that took the port first)."""
        import redis

        assert self.process is not None
        try:
            with redis.Redis(port=self.port, socket_timeout=1) as client:
                return client.info("server")["process_id"] == self.process.pid
        except redis.RedisError:
            return False

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self, down: float = 0.0) -> None:
        """Gone at once, as a crash: every connection to it is dropped; back empty after
        `down` seconds."""
        self.kill()
        time.sleep(down)
        self.start(keep_port=True)


def redis_layer_at(url: str) -> None:
    """Setup of a live daphne as the site runs with REDIS_URL: the test database, and the
    channel layer and the cache (the rate limits' counts) at `url`."""
    from channels.testing.live import set_database_connection
    from django.conf import settings

    from ctg_site.settings import redis_cache, redis_channel_layer

    set_database_connection()
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(url)}
    settings.CACHES = {"default": redis_cache(url)}


def moves_need_a_redis_that_is_away(url: str) -> None:
    """Setup of a live daphne as redis_layer_at's, where every move fails on Redis as one that
    needed it while it was away would."""
    import redis.exceptions

    from games import actions

    redis_layer_at(url)

    def play_for(*args, **kwargs):
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    actions.play_for = play_for


class Cluster:
    """Daphnes, Celery workers and beat as the Procfile runs them, each a process of its own
    (and its own process group, so kill -9 takes a worker's pool with it), all on the test
    database and `redis`. Their output goes to files in `logs`; `env` adds to their
    environment (e.g. CTG_TEST_AI_MOVE_SECONDS: AI moves that last)."""

    def __init__(self, redis: OwnRedis, logs, env: dict[str, str] | None = None) -> None:
        import os
        import sys
        from pathlib import Path

        self.redis, self.logs = redis, Path(logs)
        self.bin = Path(sys.executable).parent
        self.env = os.environ | {
            "DJANGO_SETTINGS_MODULE": "tests.faults.settings",
            "CTG_FAULT_REDIS_URL": redis.url,
            "LOG_LEVEL": "WARNING",
            # The scripted players move faster than people: no flood limits here.
            "RATE_LIMIT_POSTS_PER_USER": "1000000",
            "RATE_LIMIT_POSTS_PER_ADDRESS": "1000000",
        }
        self.env |= env or {}
        self.processes: dict[str, subprocess.Popen] = {}
        self.ports: dict[str, int] = {}

    def _spawn(self, name: str, command: list[str]) -> None:
        log = open(self.logs / f"{name}.log", "a")  # noqa: SIM115 (the process holds it)
        self.processes[name] = subprocess.Popen(
            command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def start_daphne(self, name: str) -> str:
        self.start_daphnes(name)
        return self.url(name)

    def start_daphnes(self, *names: str) -> None:
        """Start them together, and wait until each listens."""
        for name in names:
            port = self.ports.setdefault(name, free_port())
            command = ["daphne", "-b", "127.0.0.1", "-p", str(port), "ctg_site.asgi:application"]
            self._spawn(name, [str(self.bin / command[0]), *command[1:]])
        deadline = time.monotonic() + 30
        for name in names:
            while not services.port_open("127.0.0.1", self.ports[name]):
                assert time.monotonic() < deadline, f"{name} did not start"
                time.sleep(0.1)

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.ports[name]}"

    def start_worker(self, name: str) -> None:
        self._spawn(
            name,
            [
                str(self.bin / "celery"),
                "-A",
                "infra",
                "worker",
                "--pool=prefork",
                "--concurrency=2",
                f"--hostname={name}@faults",
                "--loglevel=WARNING",
                "--without-mingle",
                "--without-gossip",
            ],
        )

    def wait_ready(self, name: str, seconds: float = 60) -> None:
        """Wait until the worker `name`, started just now, is taking tasks: it has written a
        heartbeat since (infra.liveness), as it does once ready."""
        import redis

        from infra.liveness import HEARTBEATS

        since = time.time() - 0.5  # its heartbeat's clock is this machine's
        server = redis.Redis.from_url(self.redis.url, socket_timeout=2)
        deadline = time.monotonic() + seconds
        while True:
            try:
                beat = server.hget(HEARTBEATS, f"worker {name}@faults")
            except redis.ConnectionError:
                beat = None
            if beat is not None and float(beat) > since:
                return
            assert time.monotonic() < deadline, f"{name} is not ready"
            time.sleep(0.1)

    def start_beat(self) -> None:
        schedule = self.logs / "celerybeat-schedule"
        self._spawn(
            "beat",
            [
                str(self.bin / "celery"),
                "-A",
                "infra",
                "beat",
                "--loglevel=WARNING",
                f"--schedule={schedule}",
            ],
        )

    def kill(self, name: str) -> None:
        """kill -9 of the process and everything it started."""
        import os
        import signal

        process = self.processes.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop(self, name: str, timeout: float = 15) -> bool:
        """SIGTERM, as a supervisor stops a process; kill -9 if it does not go in time.
        True if it went by itself."""
        process = self.processes[name]
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill(name)
            return False
        self.processes.pop(name)
        return True

    def stop_all(self, timeout: float = 10) -> None:
        """SIGTERM to every process at once; kill -9 of those still there after `timeout`."""
        for process in self.processes.values():
            process.terminate()
        deadline = time.monotonic() + timeout
        for name, process in list(self.processes.items()):
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
                self.processes.pop(name)
            except subprocess.TimeoutExpired:
                self.kill(name)


class Balancer:
    """A load balancer in front of daphnes, as a TCP proxy in threads of the test: each new
    connection goes to the next daphne in turn, or to the one after when that refuses it (a
    daphne that died); a connection whose daphne dies is dropped, as a balancer does."""

    def __init__(self, backends: list[int]) -> None:
        import threading

        self.backends = list(backends)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # (backend port, the request's first line) for every connection made.
        self.connections: list[tuple[int, str]] = []
        self._turn = itertools.count()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True, name="balancer").start()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        import threading

        first = next(self._turn)
        for i in range(len(self.backends)):
            port = self.backends[(first + i) % len(self.backends)]
            try:
                backend = socket.create_connection(("127.0.0.1", port), timeout=2)
            except OSError:
                continue
            break
        else:
            client.close()
            return
        backend.settimeout(None)
        head = client.recv(65536)
        with self._lock:
            self.connections.append((port, head.split(b"\r\n", 1)[0].decode(errors="replace")))
        backend.sendall(head)
        threading.Thread(target=_pump, args=(backend, client), daemon=True).start()
        _pump(client, backend)

    def backend_of(self, request_start: str) -> int:
        """The daphne that took the latest connection whose request line starts so."""
        with self._lock:
            return next(
                p for p, line in reversed(self.connections) if line.startswith(request_start)
            )


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
