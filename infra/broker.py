"""Celery's connection to Redis, tried again often when lost, and its Redis transport, with
one guard for a Redis that restarts under a worker.

A worker that loses its broker connects again after waits that kombu starts at 2 s and
grows by 2 s a try: a Redis away for three seconds kept a worker off for seven. Here it
tries again after half a second, then every second: a try costs a refused connection.

When the connection drops, the worker closes its channel; closing gives back the messages
it held, and a task that finishes meanwhile acknowledges its message. kombu 5.7 then asks
the torn-down connection for its address, and the AttributeError stops the whole worker
("Unrecoverable error"). Raised as a connection error instead, it is what the worker already
handles: it logs it and reconnects. The messages stay in Redis's unacked set (and come back
after the visibility timeout, to be dropped by the version check) or were lost with a Redis
that restarted empty; the sweeps find their work either way.
"""

import kombu
from celery.app.amqp import AMQP as CeleryAMQP
from kombu.transport import TRANSPORT_ALIASES, redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Connection(kombu.Connection):
    def _ensure_connection(
        self,
        errback=None,
        max_retries=None,
        interval_start=0.5,
        interval_step=0.5,
        interval_max=1,
        **kwargs,
    ):
        return super()._ensure_connection(
            errback, max_retries, interval_start, interval_step, interval_max, **kwargs
        )


class AMQP(CeleryAMQP):
    """Celery's messaging, on this connection (`Celery(amqp=...)`)."""

    Connection = Connection
    BrokerConnection = Connection


class Channel(redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel


def use() -> None:
    """Make redis:// URLs use this transport (kombu picks transports by the URL's scheme)."""
    TRANSPORT_ALIASES["redis"] = "infra.broker:Transport"
