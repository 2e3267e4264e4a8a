"""Text that comes back to a player (refusals, socket errors, table talk) is never live HTML."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import actions
from games.models import Table
from tests.games.leaks import Watch

HOSTILE = '<img src=x onerror="alert(1)">'

# alice (seat 0) and bob (seat 1) play the running table.


def htmx_client(user) -> Client:
    client = Client(headers={"HX-Request": "true"})
    client.force_login(user)
    return client


def test_it_escapes_the_posted_move_in_a_refusal(running_table, alice):
    response = htmx_client(alice).post(
        f"/play/t/{running_table.pk}/play/", {"action": HOSTILE, "version": 0}
    )

    html = response.content.decode()
    assert response.status_code == 400
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert "<img" not in html


def test_it_escapes_the_posted_move_next_to_the_fresh_board_of_a_stale_page(running_table, alice):
    response = htmx_client(alice).post(
        f"/play/t/{running_table.pk}/play/", {"action": HOSTILE, "version": 7}
    )

    html = response.content.decode()
    assert response.status_code == 409
    assert 'id="board" hx-swap-oob="true"' in html
    assert "<img" not in html


@pytest.mark.django_db
def test_it_escapes_table_talk(running_table, alice, bob):
    actions.say(running_table.pk, alice, HOSTILE)

    page = htmx_client(bob).get(f"/play/t/{running_table.pk}/").content.decode()
    assert "&lt;img src=x" in page
    assert HOSTILE not in page


@pytest.mark.django_db(transaction=True)
async def test_it_answers_a_socket_message_with_an_escaped_error_frame(alice, bob):
    from ctg_site.asgi import application
    from tests.games.conftest import open_table

    table = await database_sync_to_async(open_table)(alice)
    watch = Watch(application)
    await watch.open_table(alice, table.pk, "alice")
    communicator = watch.sockets[0]["c"]

    await communicator.send_to(text_data=HOSTILE)

    frame = await communicator.receive_from()
    assert 'id="notice"' in frame and 'role="alert"' in frame
    assert "<img" not in frame
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version == 0
    await watch.close()
