"""Table talk: players write, everyone who may watch reads, live and escaped."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import ChatMessage
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def say(user, table, text: str, **headers):
    return client_for(user).post(f"/play/t/{table.pk}/chat/", {"text": text}, **headers)


async def test_it_pushes_a_players_line_to_everyone_watching(running_table, alice, charlie):
    onlooker = await connect(charlie, running_table.pk)
    await onlooker.receive_from()  # the board

    await database_sync_to_async(say)(alice, running_table, "<b>Good  luck</b>\n all")

    html = await onlooker.receive_from(10)
    assert 'id="chat-log" hx-swap-oob="beforeend"' in html
    assert "<strong>alice</strong> &lt;b&gt;Good luck&lt;/b&gt; all" in html
    page = await database_sync_to_async(
        lambda: client_for(charlie).get(running_table.get_absolute_url()).text
    )()
    assert "&lt;b&gt;Good luck&lt;/b&gt; all</li>" in page
    assert 'name="text"' not in page, "an onlooker reads but does not write"
    await onlooker.disconnect()


def test_it_refuses_onlookers_empty_long_and_hurried_lines(running_table, alice, charlie):
    htmx = {"headers": {"HX-Request": "true"}}
    refusals = [
        (say(charlie, running_table, "hi", **htmx), 403, "Only the players"),
        (say(alice, running_table, "   ", **htmx), 400, "Write something first."),
        (say(alice, running_table, "x" * 501, **htmx), 400, "under 500 characters"),
    ]
    first = say(alice, running_table, "hello", **htmx)
    refusals.append((say(alice, running_table, "hello again", **htmx), 429, "One message a second"))

    assert first.status_code == 200
    for response, status, message in refusals:
        assert (response.status_code, message in response.text) == (status, True)
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hello"]
    page = client_for(alice).get(running_table.get_absolute_url()).text
    assert 'name="text"' in page and "<strong>alice</strong> hello</li>" in page
