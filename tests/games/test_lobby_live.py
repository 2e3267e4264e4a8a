"""The lobby over its websocket: new tables for everyone, "Your move" for the players."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from ctg_site.asgi import application
from games import actions
from games.ctg import engine
from games.models import Table
from tests.games.conftest import open_table
from tests.games.test_consumers import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def lobby_socket(user, page: int | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    path = "/ws/lobby/" + (f"?page={page}" if page else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def finish_turn(table_id: int) -> int:
    """Play first legal moves until the decision passes to another seat; that seat."""
    table = Table.objects.get(pk=table_id)
    seat = table.state().decider
    while (state := table.state()).decider == seat:
        actions.play(
            table_id, seat, engine.action_text(state.legal_actions()[0], state.names), table.version
        )
        table.refresh_from_db()
    return state.decider


async def test_it_shows_a_player_his_move_as_soon_as_it_is_his(running_table, alice, bob, charlie):
    players = {0: alice, 1: bob}
    first = (await database_sync_to_async(running_table.state)()).decider
    waiting = players[1 - first]
    his, onlooker = await lobby_socket(waiting), await lobby_socket(charlie)

    assert await finish_turn(running_table.pk) == 1 - first

    html = await his.receive_from(10)
    assert f'Table {running_table.pk}</a> <strong class="badge your-move">Your move' in html
    assert await onlooker.receive_nothing()  # a move is news only to its players
    await his.disconnect()
    await onlooker.disconnect()


async def test_it_lists_a_table_opened_elsewhere_for_every_visitor(alice):
    visitor = await lobby_socket(None)

    table = await database_sync_to_async(open_table)(alice)

    html = await visitor.receive_from(10)
    assert f"Table {table.pk}</a>" in html and "1 of 2 seats taken" in html
    await visitor.disconnect()


@database_sync_to_async
def running_tables(count: int, host, guest) -> None:
    for _ in range(count):
        table = open_table(host)
        actions.take_seat(table.pk, guest)
        actions.start(table.pk, host)


async def test_it_keeps_the_page_of_running_games_the_visitor_is_on(alice, bob, charlie):
    await running_tables(21, alice, bob)
    on_page_two = await lobby_socket(None, page=2)

    await database_sync_to_async(open_table)(charlie)

    html = await on_page_two.receive_from(10)
    assert "page 2 of 2" in html
    await on_page_two.disconnect()
