"""Celery's Redis transport, with one guard for a Redis that restarts under a worker.

When the connection drops, the worker closes its channel, and closing gives back the
messages it held but had not acknowledged. kombu 5.7 then asks the already torn-down
connection for its address, and the AttributeError stops the whole worker ("Unrecoverable
error"). With nothing to talk to there is nothing to give back: those messages stay in
Redis's unacked set (and come back after the visibility timeout), or were lost with a
Redis that restarted empty; the sweeps find their work either way.
"""

import logging

from kombu.transport import TRANSPORT_ALIASES, redis

logger = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client=None):
        if client is None and self.channel.connection.client is None:
            logger.warning("the broker connection is gone: unacked messages left in Redis")
            return None
        return super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel


def use() -> None:
    """Make redis:// URLs use this transport (kombu picks transports by the URL's scheme)."""
    TRANSPORT_ALIASES["redis"] = "ctg_site.broker:Transport"
