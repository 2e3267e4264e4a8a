"""The live league table: a socket per open page, a push after each tally."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

from ctg_site.asgi import application
from leagues import actions, tallies
from leagues.models import RecomputeJob
from tests.waiting import wait_for

# The tally broadcasts from a background thread (or a worker process in production): the
# Redis layer carries that across threads and processes, as in a deployment.
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_channel_layer"),
    pytest.mark.services,
]


def session_headers(user):
    """Headers of a browser signed in as ``user``, through the real session middleware."""
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


async def open_page(user, league, language=None):
    headers = await sync_to_async(session_headers)(user)
    if language:  # the language switcher's cookie beside the session's
        headers = [
            (n, v + f"; django_language={language}".encode() if n == b"cookie" else v)
            for n, v in headers
        ]
    communicator = WebsocketCommunicator(application, f"/ws/leagues/{league.pk}/", headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


def confirm_a_result(league, alice, bob):
    """Confirm a pad result; the tally runs after commit in a background thread (no broker
    in these tests), which pushes to open pages."""
    game = actions.start_pad_game(league, alice, [actions.Player(alice), actions.Player(bob)])
    actions.enter_round(game, 1, [20, 36], None)
    actions.submit_for_confirmation(game)
    with transaction.atomic():
        assert actions.confirm(game, bob, is_organiser=False)


def settle(league):
    """Wait for the background tally and rating job, so no thread outlives the test."""

    def done():
        league.refresh_from_db()
        busy = RecomputeJob.objects.exclude(status__in=[RecomputeJob.DONE, RecomputeJob.FAILED])
        return league.table_version == league.results_version and not busy.exists()

    assert wait_for(done, 10), "background work did not finish"


async def last_push(communicator) -> str:
    """The table a page shows once the background work has settled: the last one pushed (a
    tally begun before the result's may push the table without it first)."""
    html = await communicator.receive_from(timeout=5)
    while not await communicator.receive_nothing(timeout=0.5):
        html = await communicator.receive_from()
    return html


async def test_it_pushes_the_table_to_open_pages_after_a_result(league, alice, bob):
    communicator, connected = await open_page(alice, league)
    assert connected
    await sync_to_async(confirm_a_result)(league, alice, bob)
    await sync_to_async(settle)(league)
    html = await last_push(communicator)
    assert html.lstrip().startswith('<div id="lg-table"')
    assert 'hx-swap-oob="true"' in html
    assert ">bob<" in html
    await communicator.disconnect()


async def test_it_pushes_the_table_in_each_page_s_language(league, alice, bob):
    communicator, connected = await open_page(alice, league, language="de")
    assert connected
    await sync_to_async(confirm_a_result)(league, alice, bob)
    await sync_to_async(settle)(league)
    html = await last_push(communicator)
    assert ">Spieler<" in html and ">Player<" not in html
    await communicator.disconnect()


async def test_it_renders_the_push_for_each_viewer(league, alice, bob):
    pages = [await open_page(user, league) for user in (alice, bob)]
    assert all(connected for _c, connected in pages)
    await sync_to_async(confirm_a_result)(league, alice, bob)
    await sync_to_async(settle)(league)
    for user, (communicator, _) in zip((alice, bob), pages, strict=True):
        html = await last_push(communicator)
        assert html.count('class="lg-me"') == 1
        assert f'data-player="u{user.pk}" class="lg-me"' in html
        await communicator.disconnect()


async def test_it_does_not_push_when_nothing_changed(league, alice, bob):
    await sync_to_async(confirm_a_result)(league, alice, bob)
    await sync_to_async(settle)(league)
    communicator, _ = await open_page(alice, league)
    assert await sync_to_async(tallies.tally_league)(league.pk) is False
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_it_refuses_sockets_from_outside_the_club(league, charlie):
    _communicator, connected = await open_page(charlie, league)
    assert not connected


async def test_it_refuses_anonymous_sockets(league):
    _communicator, connected = await open_page(None, league)
    assert not connected
