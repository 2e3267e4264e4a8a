"""A league's projector screen: a link the organiser makes and resets, opened without a login.

olga organises Tenno; alice is a member (she may look, not reset); anonymous has the link.
"""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from leagues import actions
from tests.leagues.test_live import confirm_a_result, session_headers, settle


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def make_link(league, user):
    return client_for(user).post(
        reverse("league_projector_link", args=[league.club.slug, league.pk])
    )


@pytest.mark.django_db
def test_a_league_projector_link_opens_the_screen_without_logging_in(league, olga, alice):
    assert make_link(league, alice).status_code == 403
    assert make_link(league, olga).status_code == 302
    league.refresh_from_db()
    screen_url = reverse("league_screen", args=[league.projector_token])
    assert screen_url in client_for(olga).get(league.get_absolute_url()).content.decode()

    response = Client().get(screen_url)
    html = response.content.decode()
    assert response.status_code == 200
    assert f"<h1>{league.name}</h1>" in html and 'id="lg-table"' in html
    assert 'class="site-nav"' not in html
    assert response["Referrer-Policy"] == "no-referrer"


@pytest.mark.django_db
def test_a_reset_league_projector_link_stops_the_old_one_working(league, olga):
    make_link(league, olga)
    league.refresh_from_db()
    old = league.projector_token
    page = client_for(olga).get(league.get_absolute_url()).content.decode()
    assert 'data-confirm="Make a new projector link?' in page
    make_link(league, olga)
    league.refresh_from_db()
    assert league.projector_token != old
    assert Client().get(reverse("league_screen", args=[old])).status_code == 404
    assert Client().get(reverse("league_screen", args=[league.projector_token])).status_code == 200


async def open_screen(token):
    from channels.testing import WebsocketCommunicator

    from ctg_site.asgi import application

    headers = await sync_to_async(session_headers)(None)
    communicator = WebsocketCommunicator(
        application, f"/ws/projector/league/{token}/", headers=headers
    )
    connected, _ = await communicator.connect()
    return communicator, connected


@pytest.mark.services
@pytest.mark.usefixtures("redis_channel_layer")
@pytest.mark.django_db(transaction=True)
async def test_the_league_screen_follows_results_until_its_link_is_reset(league, alice, bob):
    old = await sync_to_async(actions.reset_projector_link)(league)
    screen, connected = await open_screen(old)
    assert connected
    await sync_to_async(confirm_a_result)(league, alice, bob)
    html = await screen.receive_from(timeout=5)
    assert html.lstrip().startswith('<div id="lg-live" hx-swap-oob="true"')
    assert "1. bob 36" in html
    # The table shows bob once his result is counted, maybe only in a later push.
    while ">bob<" not in html:
        html = await screen.receive_from(timeout=10)
    await sync_to_async(settle)(league)
    # The ratings recompute redraws open pages once more.
    while not await screen.receive_nothing(timeout=0.5):
        await screen.receive_from()

    await sync_to_async(actions.reset_projector_link)(league)
    html = await screen.receive_from(timeout=5)
    assert "This projector link was replaced." in html
    assert (await screen.receive_output(timeout=5))["type"] == "websocket.close"
    _gone, connected = await open_screen(old)
    assert not connected
