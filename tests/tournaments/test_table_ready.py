"""A round starts: each of its players sees on whatever page of the site he has open that his
table is ready, with its link, in his page's language; nobody else hears of it.

Over real sockets of a live daphne, the round drawn in this process as a worker would draw
it, the notice carried through Redis (the scaled-out setup). p1 reads English, p2 German;
p8 is a member not in the event, olga its organiser who does not play.
"""

import asyncio

import pytest
import websockets
from django.db import connections
from django.test import Client
from django.utils import timezone

from ctg_site.settings import redis_cache
from tests.conftest import start_daphne, stop_daphne, url_of
from tests.tournaments.sweeping import shared_redis
from tests.tournaments.test_online_tables import eight  # noqa: F401
from tests.tournaments.test_runs_itself import event_at, onlines
from tournaments import actions as tournaments
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


@pytest.fixture
def daphne(redis_channel_layer, redis_url, settings):
    settings.CACHES = {"default": redis_cache(redis_url)}
    server = start_daphne(shared_redis)
    yield url_of(server)
    stop_daphne(server)


def cookie_of(user, language="en") -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}; django_language={language}"


async def own_socket(server, cookie):
    """A page's socket to its person's own notices, as static/js/notices.js opens it."""
    url = server.replace("http", "ws") + "/ws/me/"
    return await websockets.connect(
        url, origin="http://localhost", additional_headers={"Cookie": cookie}
    )


def draw_now(event) -> None:
    try:
        Tournament.objects.filter(pk=event.pk).update(next_round_at=timezone.now())
        assert tournaments.advance(event.pk)
    finally:
        connections.close_all()


def test_each_player_of_a_round_sees_his_table_is_ready_on_any_page(daphne, club, olga, eight):  # noqa: F811
    event = event_at(club, eight[:5], starts_in=3600)
    cookies = {
        "p1": cookie_of(eight[0]),
        "p2": cookie_of(eight[1], "de"),
        "p8": cookie_of(eight[7]),
        "olga": cookie_of(olga),
    }

    async def scenario():
        sockets = {name: await own_socket(daphne, cookie) for name, cookie in cookies.items()}
        await asyncio.to_thread(draw_now, event)
        heard = {}
        for name in ("p1", "p2"):
            heard[name] = await asyncio.wait_for(sockets[name].recv(), 10)
        for name in ("p8", "olga"):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(sockets[name].recv(), 2)
        for socket in sockets.values():
            await socket.close()
        return heard

    heard = asyncio.run(scenario())
    for user, language in ((eight[0], "en"), (eight[1], "de")):
        table = onlines(event, 1).get(seats__user=user)
        number = table.tournament_table.number
        html = heard[user.username]
        assert f'href="{table.get_absolute_url()}"' in html
        expected = {
            "en": f"Your table is ready: table {number} of Runs itself.",
            "de": f"Dein Tisch ist bereit: Tisch {number} von Runs itself.",
        }[language]
        assert expected in html, html


def test_a_page_opened_after_the_start_shows_the_notice_while_the_seat_waits(
    daphne,
    club,
    eight,  # noqa: F811
):
    event = event_at(club, eight[:4], starts_in=3600)
    draw_now(event)
    mine = onlines(event, 1).get(seats__user=eight[2])
    cookie = cookie_of(eight[2])

    async def scenario():
        socket = await own_socket(daphne, cookie)
        html = await asyncio.wait_for(socket.recv(), 10)
        await socket.close()
        return html

    html = asyncio.run(scenario())
    assert "Your table is ready" in html and f'href="{mine.get_absolute_url()}"' in html


def test_a_socket_without_a_signed_in_person_is_refused(daphne):
    async def scenario():
        url = daphne.replace("http", "ws") + "/ws/me/"
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(url, origin="http://localhost")

    asyncio.run(scenario())


def test_a_table_restarted_mid_round_starts_at_once_and_tells_its_players(
    daphne,
    club,
    olga,
    eight,  # noqa: F811
):
    event = event_at(club, eight[:4], starts_in=3600)
    draw_now(event)
    table = event_tables(event)[0]
    players = [s.user for s in table.seats.all()]
    cookie = cookie_of(players[0])

    old = table.online_table

    async def scenario():
        socket = await own_socket(daphne, cookie)
        kept = await asyncio.wait_for(socket.recv(), 10)  # the notice of the table as drawn
        await asyncio.to_thread(restart, table)
        html = await asyncio.wait_for(socket.recv(), 10)
        await socket.close()
        return kept, html

    kept, html = asyncio.run(scenario())
    table.refresh_from_db()
    assert table.online_table.status == "running"
    assert f'href="{old.get_absolute_url()}"' in kept
    assert f'href="{table.online_table.get_absolute_url()}"' in html
    # One notice per table of the event: the page puts the new one in the old one's place.
    tag = f'data-tag="event-table-{table.pk}"'
    assert tag in kept and tag in html


def event_tables(event):
    return list(event.stages.get().rounds_played.get().tables.prefetch_related("seats__user").all())


def restart(table) -> None:
    try:
        tournaments.restart(table)
    finally:
        connections.close_all()
