"""Thin websocket consumers: authorise, join the table's group, push renders for this viewer.

They never write. A push names who sits where as committed and carries the boards drawn
where the move was saved (games.actions, games.rendering.push_boards); each socket sends
the one for its own user's seat, and renders any other view itself.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import connections
from django.template.loader import render_to_string
from django.utils import translation

from accounts import presence
from accounts.consumers import language_of
from games import registry
from games.access import viewer_of
from games.groups import LOBBY_GROUP, player_group, table_group
from games.models import Table
from games.rendering import board_key, cached_board, render_board

# Renders under way in this process, so sockets sharing a view wait for one render, and the
# reads of a table after a push, so that its sockets here share one.
_rendering: dict[tuple, asyncio.Future] = {}
_reading: dict[tuple, asyncio.Future] = {}

# Boards render on threads of their own, not on the one thread that Channels and Django give
# all synchronous code of a process: the moves posted to this process wait there, and a burst
# of renders after every move would hold each of them up.
_render_threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="board-render")


def _closing_connections(function):
    try:
        return function()
    finally:
        connections.close_all()  # this thread's: given back to the pool, or closed


async def on_render_thread(function):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_render_threads, _closing_connections, function)


class _Consumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        # Channels first closes old database connections, on the one thread that the moves
        # posted to this process also wait for: a trip there for every push to every socket.
        # These handlers use the database only on threads that close their own connections.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


# What a table page sends now and then, to say its player is still there.
HEARTBEAT = "{}"
# Seconds a player stays present at a table after its page closed.
PRESENCE_GRACE = 15


class TableConsumer(_Consumer):
    """One page's socket at a table. Its user's seat is looked up for every push, not kept:
    seats are shuffled at the start, swapped and given up while pages stay open."""

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope["user"]
        self.language = language_of(self.scope)
        # The board this page has, as (version, when saved): pushes sent by two processes
        # (the move's and the AI's that answers it) may arrive in either order, and an older
        # one would take the page back to a position without the player's decision.
        self.shown = (-1, 0.0)
        html = await self._render()
        if html is None:
            await self.close(code=4403)
            return
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        await self.accept()
        await self._here()
        # A (re)connecting client always gets the whole current board.
        await self.send(text_data=html)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        # Gone in a little while, unless the page comes back (a reload, a network blip).
        await self._here(leaving=True)

    async def _here(self, leaving: bool = False) -> None:
        """Whoever has the table open is there: an event knows its no-shows by it, and a
        move draws the boards its push carries only for a table someone has open. `leaving`:
        the page closed, and counts for a reload's grace only."""
        if not leaving:
            await presence.awatch(table_group(self.table_id))
        user = getattr(self, "user", None)
        if user is not None and user.is_authenticated:
            ttl = PRESENCE_GRACE if leaving else presence.TTL
            await presence.amark(table_group(self.table_id), user.pk, ttl)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data == HEARTBEAT:
            await self._here()
            return
        with translation.override(self.language):
            message = translation.gettext("Moves are sent with the buttons, not over this socket.")
            frame = render_to_string("games/notice.html#frame", {"message": message})
        await self.send(text_data=frame)

    async def table_changed(self, event):
        # The push names who sits where as it was committed, and carries the boards drawn
        # where the move was saved; a view it lacks (another language) may be one that another
        # socket of this process already rendered. Either way no trip to the database thread.
        # A club table's onlookers are checked there every time.
        pushed = (event["version"], event["saved"])
        if pushed < self.shown:
            return
        viewer = event["seats"].get(str(self.user.pk)) if self.user.is_authenticated else None
        html = None
        if viewer is not None or event["public"]:
            html = event["boards"].get(board_key(viewer, self.language)) or cached_board(
                (self.table_id, event["stamp"]),
                event["version"],
                event["status"],
                viewer,
                self.language,
            )
        if html is None:
            push = (self.table_id, event["stamp"], event["version"], event["status"])
            key = (*push, self.user.pk, self.language)
            pending = _rendering.get(key)
            if pending is None:
                pending = _rendering[key] = asyncio.ensure_future(self._render(push))
                pending.add_done_callback(lambda _: _rendering.pop(key, None))
            html = await asyncio.shield(pending)
            if html is None:
                # No longer allowed to watch (the table is gone, or its club let him go).
                await self.close(code=4403)
                return
        self.shown = max(self.shown, pushed)
        await self.send(text_data=html)

    async def table_update(self, event):
        # A small push of the game's own (a card dealt or a slap in De l'Orc's deal): public
        # knowledge, drawn by the game.
        if not (event["public"] or await self._may_watch()):
            await self.close(code=4403)
            return
        viewer = event["seats"].get(str(self.user.pk)) if self.user.is_authenticated else None
        game = registry.get(event["game"])
        assert game.realtime is not None, "a small push comes from a game's real-time part"
        await self.send(text_data=game.realtime.render_update(event, viewer, self.language))

    async def table_chat(self, event):
        if event["public"] or await self._may_watch():
            await self.send(text_data=event["html"])
        else:
            await self.close(code=4403)

    @database_sync_to_async
    def _may_watch(self) -> bool:
        table = Table.objects.filter(pk=self.table_id).first()
        return table is not None and viewer_of(table, self.user)[0]

    async def _render(self, push: tuple | None = None) -> str | None:
        """The board for this socket; after a push, from the table as read once for every
        socket of this process that the push reaches."""
        if push is None:
            table = await on_render_thread(self._read)
        else:
            reading = _reading.get(push)
            if reading is None:
                reading = _reading[push] = asyncio.ensure_future(on_render_thread(self._read))
                reading.add_done_callback(lambda _: _reading.pop(push, None))
            table = await asyncio.shield(reading)
        return await on_render_thread(lambda: self._render_now(table))

    def _read(self) -> Table | None:
        return Table.objects.prefetch_related("seats").filter(pk=self.table_id).first()

    def _render_now(self, table: Table | None) -> str | None:
        """The board as the server sees it now, for this user as seated now; None: not his."""
        if table is None:
            return None
        allowed, viewer = viewer_of(table, self.user)
        if not allowed:
            return None
        self.shown = max(self.shown, (table.version, 0.0))
        if table.record is None:
            # The waiting room reloads when this differs from the stamp it was drawn with.
            return render_to_string("games/waiting_room.html#stamp", {"table": table})
        return render_board(table, viewer, self.language)


class LobbyConsumer(_Consumer):
    """Pushes the lobby's table list, as this user may see it, whenever a table changes.

    Every socket hears of seats, starts and ends; a player's also hears of each move at his
    own tables. The page of running games is the one in the socket's query string.
    """

    async def connect(self):
        self.language = language_of(self.scope)
        self.page = parse_qs(self.scope.get("query_string", b"").decode()).get("page", ["1"])[0]
        user = self.scope["user"]
        self.groups_joined = [LOBBY_GROUP]
        if user.is_authenticated:
            self.groups_joined.append(player_group(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def lobby_changed(self, event):
        await self.send(text_data=await self._render())

    @database_sync_to_async
    def _render(self) -> str:
        from games.views import lobby_context

        with translation.override(self.language):
            context = lobby_context(self.scope["user"], self.page) | {"oob": True}
            return render_to_string("games/lobby.html#tables", context)
