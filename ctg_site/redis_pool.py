"""One pool of connections to Redis per process for Django's cache.

Django makes its cache anew for every request served by an ASGI server (caches live in the
request's context), and each new cache a new connection pool: every POST, which counts
against the rate limits, connected to Redis afresh and left a connection behind for the
garbage collector. The pools made from one address are this one, shared.
"""

import threading

import redis


class SharedConnectionPool(redis.ConnectionPool):
    _shared: dict[str, "SharedConnectionPool"] = {}
    _shared_lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs) -> "SharedConnectionPool":
        # redis-py's pool itself drops its connections in a forked child (a Celery worker's).
        with cls._shared_lock:
            pool = cls._shared.get(url)
            if pool is None:
                pool = cls._shared[url] = super().from_url(url, **kwargs)
            return pool
