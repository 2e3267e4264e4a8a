"""Celery's Redis transport, with one guard for a Redis that restarts under a worker.

When the connection drops, the worker closes its channel; closing gives back the messages
it held, and a task that finishes meanwhile acknowledges its message. kombu 5.7 then asks
the torn-down connection for its address, and the AttributeError stops the whole worker
("Unrecoverable error"). Raised as a connection error instead, it is what the worker already
handles: it logs it and reconnects. The messages stay in Redis's unacked set (and come back
after the visibility timeout, to be dropped by the version check) or were lost with a Redis
that restarted empty; the sweeps find their work either way.
"""

from kombu.transport import TRANSPORT_ALIASES, redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel


def use() -> None:
    """Make redis:// URLs use this transport (kombu picks transports by the URL's scheme)."""
    TRANSPORT_ALIASES["redis"] = "ctg_site.broker:Transport"
