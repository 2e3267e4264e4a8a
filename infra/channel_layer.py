"""The Redis channel layer, made to live through a Redis restart and a daphne's death.

- Commands on a connection that Redis dropped are tried again on a new one
  (`redis_channel_layer` in the settings gives the pools a retry policy).
- A Redis that restarts comes back empty: every socket's group memberships are gone, and a
  socket left open would never hear of a move again. Each process keeps a marker key in
  Redis; when it is missing, or Redis cannot be reached, every socket of the process is
  closed (1011), and the pages reconnect, join their groups again and get the whole board.
- Memberships expire (`group_expiry`), so the sockets of a daphne that died leave their
  groups; the sockets of a living process are added again well before that.
- A burst of commands (every page of a process reconnecting at once) waits for one of the
  process's connections to Redis to be free, rather than failing past redis-py's hundred.
- The messages for a process's sockets wait in one sorted set in Redis; under load it holds
  several at once, and one round trip takes them all (channels_redis spends four on each).
"""

import asyncio
import contextlib
import logging
import time
from collections import Counter, defaultdict, deque

from channels_redis import core
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

# Seconds between looks at the marker: how soon a socket learns that its groups are gone.
WATCH_EVERY = 1.0
# The most messages for this process's sockets that one round trip takes from Redis.
POP_AT_ONCE = 100
# Connections to Redis a process keeps, and the seconds a command waits for a free one.
CONNECTIONS = 100
WAIT_FOR_CONNECTION = 10


class GroupsLost(RedisConnectionError):
    """Redis lost this process's group memberships (it restarted, or cannot be reached)."""


class _LoopState:
    """What the layer keeps for one event loop: the sockets waiting on it and its watcher."""

    def __init__(self) -> None:
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # Bumped at each loss: a socket that joined its groups before it has lost them, even
        # if it was busy (not receiving) at the moment of the loss.
        self.generation = 0
        self.receiving: Counter[str] = Counter()
        self.watcher: asyncio.Task | None = None


class RedisChannelLayer(core.RedisChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._members: defaultdict[str, set[str]] = defaultdict(set)
        # Messages for this process's sockets taken from Redis and not yet handed out.
        self._popped: deque[tuple[str, dict]] = deque()
        self._joined: dict[str, int] = {}
        self._loops: dict[asyncio.AbstractEventLoop, _LoopState] = {}
        self._marker = f"{self.prefix}:alive:{self.client_prefix}"

    def _state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        state = self._loops.get(loop)
        if state is None:
            for other in [other for other in self._loops if other.is_closed()]:
                del self._loops[other]
            state = self._loops[loop] = _LoopState()
        if state.watcher is None or state.watcher.done():
            state.watcher = loop.create_task(self._watch(state))
        return state

    def create_pool(self, index: int) -> BlockingConnectionPool:
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(
            host.pop("address"),
            max_connections=CONNECTIONS,
            timeout=WAIT_FOR_CONNECTION,
            **host,
        )

    async def group_add(self, group: str, channel: str) -> None:
        state = self._state()
        await super().group_add(group, channel)
        self._members[group].add(channel)
        self._joined.setdefault(channel, state.generation)

    async def group_discard(self, group: str, channel: str) -> None:
        self._members[group].discard(channel)
        if not self._members[group]:
            del self._members[group]
        if not any(channel in channels for channels in self._members.values()):
            self._joined.pop(channel, None)
        await super().group_discard(group, channel)

    async def receive(self, channel: str) -> dict:
        if "!" not in channel:
            return await super().receive(channel)  # not a socket's: nothing to watch for
        state = self._state()
        if self._joined.get(channel, state.generation) < state.generation:
            raise GroupsLost("Redis lost the groups of this socket")
        lost = state.lost
        state.receiving[channel] += 1
        receiving = asyncio.ensure_future(super().receive(channel))
        try:
            await asyncio.wait({receiving, lost}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            receiving.cancel()
            raise
        finally:
            state.receiving[channel] -= 1
            if not state.receiving[channel]:
                del state.receiving[channel]
        if receiving.done():
            try:
                return receiving.result()
            except (RedisConnectionError, RedisTimeoutError) as error:
                self._lose(state, f"a receive failed: {error}")
                raise
        receiving.cancel()
        with contextlib.suppress(BaseException):
            await receiving
        loss = lost.exception()
        assert loss is not None, "the loss is always set as an exception"
        raise loss

    async def receive_single(self, channel: str) -> tuple[str, dict]:
        """The next message for one of this process's sockets (`channel` ends in "!").

        Under load several wait: one round trip takes them all, kept in the layer (not in
        an event loop's task) until handed out. With none waiting, channels_redis's own
        blocking receive waits for the next, keeping a backup of it in Redis in case the
        wait is cancelled."""
        if "!" not in channel:
            return await super().receive_single(channel)
        if not self._popped:
            connection = self.connection(self.consistent_hash(channel))
            for content, _score in await connection.zpopmin(self.prefix + channel, POP_AT_ONCE):
                message = self.deserialize(content)
                self._popped.append((message.pop("__asgi_channel__", channel), message))
        if self._popped:
            return self._popped.popleft()
        return await super().receive_single(channel)

    def _lose(self, state: _LoopState, why: str) -> None:
        """Fail every receive waiting now, so each socket closes and its page reconnects."""
        if state.lost.done():
            return
        if state.receiving:
            logger.warning("closing %d sockets: %s", len(state.receiving), why)
        self._popped.clear()  # for sockets about to close
        state.lost.set_exception(GroupsLost(why))
        # Seen by the receives waiting on it; with none, not worth a line in the log.
        state.lost.exception()
        state.lost = asyncio.get_running_loop().create_future()
        state.generation += 1
        self._joined = {c: g for c, g in self._joined.items() if g >= state.generation - 1}
        # Their consumers end now; memberships of sockets that reconnect are added afresh.
        self._members.clear()

    async def _watch(self, state: _LoopState) -> None:
        connection = self.connection(0)
        refreshed = time.monotonic()
        await self._mark(connection, fresh=True)
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                if not await self._mark(connection):
                    self._lose(state, "Redis restarted and lost the groups")
                    await self._mark(connection, fresh=True)
                elif time.monotonic() - refreshed > self.group_expiry / 4:
                    refreshed = time.monotonic()
                    await self._refresh(state)
            except (RedisConnectionError, RedisTimeoutError, OSError) as error:
                self._lose(state, f"Redis cannot be reached: {error}")
            except asyncio.CancelledError:
                raise
            except Exception:  # the watcher must outlive any one failure
                logger.exception("the channel layer's watcher failed")

    async def _mark(self, connection, fresh: bool = False) -> bool:
        """Renew this process's marker; False when Redis no longer had it."""
        ttl = int(max(30, WATCH_EVERY * 10))
        if fresh:
            with contextlib.suppress(RedisConnectionError, RedisTimeoutError, OSError):
                await connection.set(self._marker, "1", ex=ttl)
            return True
        return bool(await connection.set(self._marker, "1", ex=ttl, xx=True))

    async def _refresh(self, state: _LoopState) -> None:
        """Add again the memberships of sockets still open here, before they expire."""
        now = time.time()
        for group, channels in list(self._members.items()):
            alive = {c: now for c in channels if c in state.receiving}
            if not alive:
                continue
            key = self._group_key(group)
            connection = self.connection(self.consistent_hash(group))
            await connection.zadd(key, alive)
            await connection.expire(key, self.group_expiry)
