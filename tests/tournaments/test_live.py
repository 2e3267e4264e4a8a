"""The projector page's socket: a push after each change, rendered for each viewer."""

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.utils import timezone

from leagues import actions
from tests.leagues.test_live import session_headers
from tests.tournaments.test_online_tables import eight  # noqa: F401
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_channel_layer"),
    pytest.mark.services,
]


@pytest.fixture
def event(club, olga, alice, bob):
    # Unrated: no rating job runs in the background to outlive the test.
    tournament = tournaments.create(
        club,
        name="Live cup",
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        rated=False,
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
    )
    for user in (olga, alice, bob):
        tournaments.register(tournament, user, checked_in=True)
    return tournament


async def open_page(user, event, query="", language=None):
    from channels.testing import WebsocketCommunicator

    from ctg_site.asgi import application

    headers = await sync_to_async(session_headers)(user)
    if language:  # the language switcher's cookie beside the session's
        headers = [
            (name, value + f"; django_language={language}".encode() if name == b"cookie" else value)
            for name, value in headers
        ]
    communicator = WebsocketCommunicator(
        application, f"/ws/tournaments/{event.pk}/{query}", headers=headers
    )
    connected, _ = await communicator.connect()
    return communicator, connected


def draw_and_start(event, by):
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, by)
    return round_.tables.get().game


def confirm(game, by):
    actions.enter_round(game, 1, [38, 28, 15], None)
    actions.submit_for_confirmation(game)
    with transaction.atomic():
        assert actions.confirm(game, by, is_organiser=True)


async def test_it_pushes_tables_and_results_to_each_open_page(event, olga, alice, bob):
    pages = {user: await open_page(user, event) for user in (alice, bob)}
    assert all(connected for _c, connected in pages.values())
    for communicator, _ in pages.values():
        await communicator.receive_from(timeout=5)  # what the page shows, as it opens
    game = await sync_to_async(draw_and_start)(event, olga)
    for user, (communicator, _) in pages.items():
        # The draw and the start: two pushes, the second with the started round.
        await communicator.receive_from(timeout=5)
        html = await communicator.receive_from(timeout=5)
        assert html.lstrip().startswith('<div id="tn-live" hx-swap-oob="true"')
        assert html.count('class="tn-me"') == 1
        assert f'data-player="{user.pk}" class="tn-me"' in html
    await sync_to_async(confirm)(game, olga)
    for communicator, _ in pages.values():
        html = await communicator.receive_from(timeout=5)
        assert "tn-card tn-done" in html
        assert "1. · 38" in html
        await communicator.disconnect()


async def test_a_page_whose_socket_opens_after_a_change_is_sent_it_at_once(event, olga, alice):
    # The page was drawn before the round began (or reloaded as it began); its socket opens
    # only once the round has begun, and nothing changes after.
    await sync_to_async(draw_and_start)(event, olga)
    communicator, connected = await open_page(alice, event)
    assert connected
    html = await communicator.receive_from(timeout=5)
    assert html.lstrip().startswith('<div id="tn-live" hx-swap-oob="true"')
    assert 'data-phase="running:' in html
    assert f'data-player="{alice.pk}" class="tn-me"' in html
    # The projector page's socket draws no links; the event page's keeps its table's pad link.
    assert 'class="tn-pad"' not in html
    await communicator.disconnect()
    communicator, _ = await open_page(olga, event, "?links=1")
    assert 'class="tn-pad">Score pad</a>' in await communicator.receive_from(timeout=5)
    await communicator.disconnect()


async def test_each_page_is_pushed_in_its_own_language(event, olga, alice):
    german, _ = await open_page(alice, event, language="de")
    english, _ = await open_page(olga, event)
    for communicator in (german, english):
        await communicator.receive_from(timeout=5)  # what the page shows, as it opens
    await sync_to_async(draw_and_start)(event, olga)
    html = await until(german, "Tisch 1")
    assert "Table 1" not in html
    html = await until(english, "Table 1")
    assert "Tisch 1" not in html
    await german.disconnect()
    await english.disconnect()


async def test_it_refuses_sockets_from_outside_the_club(event, charlie):
    _communicator, connected = await open_page(charlie, event)
    assert not connected


async def test_it_refuses_anonymous_sockets(event):
    _communicator, connected = await open_page(None, event)
    assert not connected


async def test_an_open_page_marks_its_player_present_until_it_closes(event, alice):
    from accounts import presence
    from tournaments.live import tournament_group

    def here():
        return presence.present(tournament_group(event.pk), [alice.pk])

    communicator, connected = await open_page(alice, event)
    assert connected
    assert await sync_to_async(here)() == {alice.pk}
    await communicator.send_to(text_data="{}")  # the page's heartbeat
    await communicator.disconnect()
    assert await sync_to_async(here)() == set()


async def until(communicator, *texts: str) -> str:
    """The first push that shows all of `texts` (a step pushes once per change it makes)."""
    while True:
        html = await communicator.receive_from(timeout=5)
        if all(text in html for text in texts):
            return html


async def test_the_top_of_a_running_event_page_follows_its_rounds(club, olga, eight):  # noqa: F811
    from tests.tournaments.test_runs_itself import end_every_table, event_at
    from tournaments.models import TournamentTable

    event = await sync_to_async(event_at)(club, eight, starts_in=3600, interval=60)
    communicator, connected = await open_page(eight[0], event)
    assert connected

    def draw():
        Tournament.objects.filter(pk=event.pk).update(next_round_at=timezone.now())
        assert tournaments.advance(event.pk)

    await sync_to_async(draw)()
    html = await until(communicator, "round 1 of 2", "2 tables playing · 0 tables finished")
    assert "Your table is ready" in html

    first = await sync_to_async(
        lambda: (
            TournamentTable.objects.filter(round__stage__tournament=event)
            .order_by("number")
            .first()
        )
    )()
    await sync_to_async(tournaments.adjudicate)(first)
    html = await until(communicator, "1 table playing · 1 table finished")
    assert html.count('class="tn-card tn-done"') == 1
    assert "tn-standing" in html

    await sync_to_async(end_every_table)(event)
    html = await until(communicator, "The next round is drawn in")
    assert 'id="tn-round-status">all results in' in html
    assert "0 tables playing · 2 tables finished" in html
    rows = html.count("<tr data-player=")
    assert rows == 8
    await communicator.disconnect()
