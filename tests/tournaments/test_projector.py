"""The projector screen's link: made and reset by an organiser, opened by anyone who has it.

olga organises Tenno; alice is a member (she may look, not reset); anonymous has the link.
"""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from tests.leagues.test_live import session_headers
from tests.tournaments.test_live import draw_and_start
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament


@pytest.fixture
def event(club, olga, alice, bob):
    tournament = tournaments.create(
        club,
        name="Screen cup",
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        rated=False,
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
    )
    for user in (olga, alice, bob):
        tournaments.register(tournament, user, checked_in=True)
    return tournament


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def make_link(event, user):
    return client_for(user).post(
        reverse("tournament_projector_link", args=[event.club.slug, event.pk])
    )


@pytest.mark.django_db
def test_the_projector_link_opens_the_screen_without_logging_in(event, olga):
    assert not event.projector_token
    assert make_link(event, olga).status_code == 302
    event.refresh_from_db()
    assert len(event.projector_token) >= 32

    page = client_for(olga).get(event.get_absolute_url()).content.decode()
    screen_url = reverse("projector_screen", args=[event.projector_token])
    assert screen_url in page

    response = Client().get(screen_url)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Screen cup</h1>" in html and 'id="tn-live"' in html
    assert 'class="site-nav"' not in html and "Log in" not in html
    assert response["Referrer-Policy"] == "no-referrer"


@pytest.mark.django_db
def test_a_reset_projector_link_stops_the_old_one_working(event, olga, alice):
    make_link(event, olga)
    event.refresh_from_db()
    old = event.projector_token
    page = client_for(olga).get(event.get_absolute_url()).content.decode()
    # Resetting ends the screens that use the old link: the organiser is asked first.
    assert 'data-confirm="Make a new projector link?' in page

    assert make_link(event, alice).status_code == 403
    event.refresh_from_db()
    assert event.projector_token == old

    make_link(event, olga)
    event.refresh_from_db()
    assert event.projector_token != old
    assert Client().get(reverse("projector_screen", args=[old])).status_code == 404
    assert (
        Client().get(reverse("projector_screen", args=[event.projector_token])).status_code == 200
    )


@pytest.mark.django_db
def test_an_unknown_projector_link_shows_nothing(event):
    assert Client().get(reverse("projector_screen", args=["not-a-token"])).status_code == 404
    assert Client().get("/projector/tournament/%20/").status_code == 404


async def open_screen(token):
    from channels.testing import WebsocketCommunicator

    from ctg_site.asgi import application

    headers = await sync_to_async(session_headers)(None)
    communicator = WebsocketCommunicator(
        application, f"/ws/projector/tournament/{token}/", headers=headers
    )
    connected, _ = await communicator.connect()
    return communicator, connected


@pytest.mark.services
@pytest.mark.usefixtures("redis_channel_layer")
@pytest.mark.django_db(transaction=True)
async def test_the_screen_follows_the_event_until_its_link_is_reset(event, olga):
    old = await sync_to_async(tournaments.reset_projector_link)(event)
    screen, connected = await open_screen(old)
    assert connected
    await sync_to_async(draw_and_start)(event, olga)
    await screen.receive_from(timeout=5)
    html = await screen.receive_from(timeout=5)
    assert html.lstrip().startswith('<div id="tn-live" hx-swap-oob="true"')
    assert "round 1 of 1" in html and 'class="tn-me"' not in html

    new = await sync_to_async(tournaments.reset_projector_link)(event)
    html = await screen.receive_from(timeout=5)
    assert "This projector link was replaced." in html
    assert (await screen.receive_output(timeout=5))["type"] == "websocket.close"
    _gone, connected = await open_screen(old)
    assert not connected
    fresh, connected = await open_screen(new)
    assert connected
    await fresh.disconnect()
