"""Connections to Redis: the options that let them outlive a restart, and one pool per
process for Django's cache.

Django makes its cache anew for every request served by an ASGI server (caches live in the
request's context), and each new cache a new connection pool: every POST, which counts
against the rate limits, connected to Redis afresh and left a connection behind for the
garbage collector. The pools made from one address are this one, shared.
"""

import threading

import redis


def redis_retry(asyncio: bool = False) -> dict:
    """Options for redis-py: a command on a connection that Redis dropped (a restart) is sent
    again on a new one, and connecting to a Redis that is down fails fast."""
    from redis.asyncio.retry import Retry as AsyncRetry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError, TimeoutError
    from redis.retry import Retry

    return {
        "retry": (AsyncRetry if asyncio else Retry)(ExponentialBackoff(cap=0.5, base=0.05), 3),
        "retry_on_error": [ConnectionError, TimeoutError],
        "socket_connect_timeout": 2,
        "socket_keepalive": True,
    }


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
