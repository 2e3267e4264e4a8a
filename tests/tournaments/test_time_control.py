"""An online event's time control: chosen on its form, shown on its page and on each table's
card, and given to every online table it opens.

olga organises Tenno; p1 … p8 (test_online_tables) play.
"""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from tests.tournaments.test_online_tables import eight  # noqa: F401
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


FORM = {
    "name": "Blitz night",
    "game": "ctg",
    "mode": "online",
    "game_length": "quick",
    "max_table": "4",
    "seeding": "random",
    "first_kind": "swiss",
    "first_rounds": "2",
    "cut": "0",
}


def test_it_takes_the_clock_from_the_form(club, olga):
    form = FORM | {"clock": "live", "clock_seconds": "20", "timeout_policy": "forfeit"}
    response = client_for(olga).post(reverse("tournament_create", args=[club.slug]), form)
    event = Tournament.objects.get(name="Blitz night")
    assert response.status_code == 302
    assert (event.clock, event.clock_seconds, event.timeout_policy) == ("live", 20, "forfeit")


def test_it_has_no_clock_when_the_form_leaves_it_out(club, olga):
    client_for(olga).post(reverse("tournament_create", args=[club.slug]), FORM)
    event = Tournament.objects.get(name="Blitz night")
    assert (event.clock, event.timeout_policy) == (Table.NO_CLOCK, Table.AI_MOVES)
    page = client_for(olga).get(event.get_absolute_url()).content.decode()
    assert "per decision" not in page


def test_it_refuses_a_clock_of_less_than_ten_seconds(club, olga):
    form = FORM | {"clock": "live", "clock_seconds": "5"}
    response = client_for(olga).post(reverse("tournament_create", args=[club.slug]), form)
    assert response.status_code == 200
    assert not Tournament.objects.filter(name="Blitz night").exists()


def test_it_offers_the_clock_on_the_form(club, olga):
    page = client_for(olga).get(reverse("tournament_create", args=[club.slug])).content.decode()
    assert 'name="clock"' in page and 'name="clock_seconds"' in page
    assert 'name="timeout_policy"' in page


@pytest.mark.parametrize("game, size", [("ctg", 4), ("orc", 4)])
def test_it_opens_every_online_table_with_the_event_clock(club, olga, eight, game, size):  # noqa: F811
    event = tournaments.create(
        club,
        name="Blitz night",
        game=game,
        mode=Tournament.ONLINE,
        max_table=size,
        seeding=Tournament.RANDOM,
        clock=Table.LIVE,
        clock_seconds=30,
        timeout_policy=Table.AI_MOVES,
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
    )
    for user in eight:
        tournaments.register(event, user, checked_in=True)
    tournaments.begin_round(tournaments.draft_round(event), olga)
    onlines = Table.objects.filter(tournament_table__round__stage__tournament=event)
    assert onlines.count() == 2
    assert {(t.clock, t.clock_seconds, t.timeout_policy) for t in onlines} == {("live", 30, "ai")}

    page = client_for(eight[0]).get(event.get_absolute_url()).content.decode()
    assert "live clock, 30 s per decision" in page
    # The event's line and each of the two tables' cards.
    assert page.count("30 s per decision") == 3
