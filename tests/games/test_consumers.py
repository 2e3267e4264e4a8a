import asyncio
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from ctg_site.asgi import application
from games import actions
from games.ctg import engine
from games.groups import table_group
from games.models import Table
from tests.games.conftest import open_table
from tests.games.leaks import scan
from tests.games.test_ai_seats import table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)

# alice and bob play; charlie watches a public table; dave is outside a club table.


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(user, table_id: int) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def version_of(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def viewer_of(html: str) -> str:
    return re.search(r'data-viewer="(\w+)"', html).group(1)


@database_sync_to_async
def first_move(table_id: int):
    table = Table.objects.get(pk=table_id)
    state = table.state()
    text = engine.action_text(state.legal_actions()[0], state.names)
    actions.play(table_id, state.decider, text, table.version)
    table.refresh_from_db()
    return table.state()


@database_sync_to_async
def current_state(table_id: int):
    return Table.objects.get(pk=table_id).state()


async def test_it_sends_each_viewer_his_own_board_on_join(running_table, alice, bob, charlie):
    state = await current_state(running_table.pk)
    for user, viewer in [(alice, 0), (bob, 1), (charlie, None), (None, None)]:
        communicator = await connect(user, running_table.pk)
        html = await communicator.receive_from()
        assert viewer_of(html) == ("public" if viewer is None else str(viewer))
        assert scan(html, state, viewer) == []
        await communicator.disconnect()


async def test_it_pushes_a_move_to_every_viewer_rendered_for_him(
    running_table, alice, bob, charlie
):
    sockets = {
        viewer: await connect(user, running_table.pk)
        for user, viewer in [(alice, 0), (bob, 1), (charlie, None)]
    }
    for communicator in sockets.values():
        await communicator.receive_from()

    state = await first_move(running_table.pk)

    for viewer, communicator in sockets.items():
        html = await communicator.receive_from()
        assert version_of(html) >= 1
        assert viewer_of(html) == ("public" if viewer is None else str(viewer))
        assert scan(html, state, viewer) == []
        await communicator.disconnect()


async def test_it_answers_a_message_on_the_socket_with_an_error_frame(running_table, alice):
    communicator = await connect(alice, running_table.pk)
    await communicator.receive_from()

    await communicator.send_to(text_data='{"action": "draw D1"}')

    frame = await communicator.receive_from()
    assert 'id="notice"' in frame and "error" in frame
    assert (await database_sync_to_async(Table.objects.get)(pk=running_table.pk)).version == 0
    await communicator.disconnect()


async def test_it_gives_a_reconnecting_client_the_fresh_board(running_table, alice):
    communicator = await connect(alice, running_table.pk)
    before = version_of(await communicator.receive_from())
    await communicator.disconnect()

    await first_move(running_table.pk)
    communicator = await connect(alice, running_table.pk)

    assert version_of(await communicator.receive_from()) > before
    await communicator.disconnect()


async def test_a_page_keeps_the_newer_board_when_two_pushes_cross(running_table, alice):
    # A move's push and the push of the move answering it are sent by different processes,
    # and may reach a socket in either order: here the first move's push comes again last.
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(table_group(running_table.pk), listener)
    communicator = await connect(alice, running_table.pk)
    await communicator.receive_from()
    await first_move(running_table.pk)
    await first_move(running_table.pk)
    first, second = [version_of(await communicator.receive_from()) for _ in range(2)]
    assert first < second
    first_push = await layer.receive(listener)
    assert first_push["version"] == first

    await layer.group_send(table_group(running_table.pk), first_push)

    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()


def stamp_of(html: str) -> str:
    return re.search(r'id="waiting-stamp" data-stamp="([^"]*)"', html).group(1)


async def test_it_tells_the_waiting_room_of_each_seat_taken(alice, bob):
    table = await database_sync_to_async(open_table)(alice)
    communicator = await connect(alice, table.pk)
    on_join = stamp_of(await communicator.receive_from())

    await database_sync_to_async(actions.take_seat)(table.pk, bob)

    pushed = stamp_of(await communicator.receive_from())
    assert pushed != on_join
    # The page drawn now carries the pushed stamp: a socket opening after it reloads nothing.
    client = Client()
    await database_sync_to_async(client.force_login)(alice)
    page = await database_sync_to_async(client.get)(f"/play/t/{table.pk}/")
    assert stamp_of(page.content.decode()) == pushed
    await communicator.disconnect()


async def test_it_refuses_a_socket_to_a_club_table_for_outsiders(alice, charlie):
    @database_sync_to_async
    def club_table():
        from accounts.models import Club, Membership

        club = Club.objects.create(name="Edo", slug="edo")
        Membership.objects.create(club=club, user=alice, role="organiser")
        return open_table(alice, visibility=Table.CLUB, club=club)

    table = await club_table()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[
            (b"origin", b"http://localhost"),
            (b"cookie", await database_sync_to_async(session_cookie)(charlie)),
        ],
    )
    connected, code = await communicator.connect()
    assert not connected
    assert code == 4403


@pytest.mark.parametrize("variants", [(), ("ninja",)])
async def test_it_leaks_nothing_in_any_push_over_a_random_game(alice, bob, charlie, variants):
    import random

    @database_sync_to_async
    def three_player_table():
        table = open_table(alice, seats_count=3, ninja="ninja" in variants)
        actions.take_seat(table.pk, bob)
        actions.take_seat(table.pk, charlie)
        actions.start(table.pk, alice)
        return table.pk

    @database_sync_to_async
    def random_move(rng):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.RUNNING:
            return None
        state = table.state()
        text = engine.action_text(rng.choice(state.legal_actions()), state.names)
        actions.play(table_id, state.decider, text, table.version)
        table.refresh_from_db()
        return table.state()

    table_id = await three_player_table()
    viewers = [(alice, 0), (bob, 1), (charlie, 2), (None, None)]
    sockets = [(await connect(user, table_id), viewer) for user, viewer in viewers]
    for communicator, _ in sockets:
        await communicator.receive_from()
    rng = random.Random(7)
    pushes = 0
    while (state := await random_move(rng)) is not None:
        for communicator, viewer in sockets:
            html = await communicator.receive_from(timeout=5)
            assert scan(html, state, viewer) == [], viewer
            pushes += 1
    assert pushes > 100
    for communicator, _ in sockets:
        await communicator.disconnect()


async def test_a_push_does_not_wait_for_the_thread_that_saves_moves(
    redis_channel_layer, running_table, alice, charlie
):
    # A web process saves the moves posted to it on its one thread for synchronous code.
    # A move saved elsewhere (by a worker) reaches this process's sockets while that thread
    # is busy: their pushes must not queue behind it.
    sockets = [await connect(user, running_table.pk) for user in (alice, charlie)]
    for communicator in sockets:
        await communicator.receive_from()
    release = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(release.wait)())

    def move_elsewhere() -> int:
        try:
            table = Table.objects.get(pk=running_table.pk)
            state = table.state()
            text = engine.action_text(state.legal_actions()[0], state.names)
            actions.play(table.pk, state.decider, text, table.version)
            return Table.objects.get(pk=table.pk).version
        finally:
            connections.close_all()

    version = await asyncio.to_thread(move_elsewhere)
    try:
        frames = [await communicator.receive_from(timeout=10) for communicator in sockets]
    finally:
        release.set()
        await busy
    assert [version_of(html) for html in frames] == [version, version]
    assert [viewer_of(html) for html in frames] == ["0", "public"]
    for communicator in sockets:
        await communicator.disconnect()


async def test_an_ai_move_played_in_the_background_reaches_the_sockets_at_once(alice):
    # Without a broker (the embedded default) AI moves are played in background threads, and
    # the in-memory channel layer lives on the server's event loop: their pushes must wake it.
    table = await database_sync_to_async(table_with_bots)(alice, ["greedy"], seats=2)
    await database_sync_to_async(actions.start)(table.pk, alice)
    communicator = await connect(alice, table.pk)
    await communicator.receive_from()

    def alice_passes_the_decision() -> int:
        try:
            while (state := Table.objects.get(pk=table.pk).state()).decider == 0:
                text = engine.view(state, 0)["legal_texts"][0]
                actions.play(table.pk, 0, text, Table.objects.get(pk=table.pk).version)
            return Table.objects.get(pk=table.pk).version
        finally:
            connections.close_all()

    passed = await asyncio.to_thread(alice_passes_the_decision)
    # The pushes of her moves, then the bot's, each as soon as it is saved.
    while version_of(html := await communicator.receive_from(timeout=3)) <= passed:
        pass
    assert viewer_of(html) == "0"
    await communicator.disconnect()


async def test_an_open_table_page_marks_its_player_present_for_a_while(running_table, alice):
    from accounts import presence
    from games import consumers

    def here():
        return presence.present(table_group(running_table.pk), [alice.pk])

    assert await sync_to_async(here)() == set()
    communicator = await connect(alice, running_table.pk)
    await communicator.receive_from()
    assert await sync_to_async(here)() == {alice.pk}
    # The page's heartbeat is answered with nothing; any other message with a notice.
    await communicator.send_to(text_data=consumers.HEARTBEAT)
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()
    # Closed, he stays present for the grace of a reload, not longer.
    assert await sync_to_async(here)() == {alice.pk}
    ttl = await sync_to_async(cache_ttl)(f"present:{table_group(running_table.pk)}:{alice.pk}")
    assert 0 < ttl <= consumers.PRESENCE_GRACE


def cache_ttl(key: str) -> float:
    """Seconds left to a cache key, in the local-memory cache the tests use."""
    import time

    from django.core.cache import cache

    full = cache.make_and_validate_key(key)
    return cache._expire_info[full] - time.time()
