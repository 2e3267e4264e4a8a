"""An online Swiss event as a new organiser and eight players run it: its tables belong to the
event, a seat given to an AI player still counts, and a broken table can be mended.

olga organises Tenno; p1 … p8 are members who play; the first player drawn at a table sits
at its first seat, and is nobody's host there.
"""

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Membership, User
from games.models import Table
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament, TournamentTable

pytestmark = pytest.mark.django_db

# The largest table each game seats: eight players make two tables of four in both.
LARGEST = {"ctg": 4, "orc": 7}
OPTIONS = {"ctg": {"game_length": "quick"}, "orc": {}}


@pytest.fixture
def eight(club):
    users = []
    for i in range(1, 9):
        user = User.objects.create_user(f"p{i}", password="pw")
        Membership.objects.create(club=club, user=user)
        users.append(user)
    return users


def online_event(club, players, olga, game="ctg") -> Tournament:
    """An online Swiss event of two rounds where an AI player may fill a no-show's seat; its
    first round begun."""
    event = tournaments.create(
        club,
        name="Online night",
        game=game,
        mode=Tournament.ONLINE,
        max_table=LARGEST[game],
        options=OPTIONS[game],
        seeding=Tournament.RANDOM,
        allow_ai=True,
        stages=[{"kind": Stage.SWISS, "rounds": 2}],
    )
    for user in players:
        tournaments.register(event, user, checked_in=True)
    tournaments.begin_round(tournaments.draft_round(event), olga)
    return event


def first_table(event) -> TournamentTable:
    return TournamentTable.objects.filter(round__stage__tournament=event).order_by("number")[0]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return unescape(response.content.decode())


def seat_op(client, online, op, **extra):
    """A seat request from the waiting room, as htmx sends it."""
    url = reverse("table_seat", args=[online.pk])
    return client.post(url, {"op": op, **extra}, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_a_seated_player_cannot_remove_an_opponent_at_a_tournament_table(club, eight, olga, game):
    event = online_event(club, eight, olga, game)
    table = first_table(event)
    online = table.online_table
    first = User.objects.get(pk=table.players[0])
    client = client_for(first)

    page = client.get(online.get_absolute_url()).content.decode()
    assert 'value="remove"' not in page and 'value="add_ai"' not in page

    response = seat_op(client, online, "remove", position=1)
    assert response.status_code == 403
    assert "the tournament's organisers" in text(response)
    assert online.seats.count() == len(table.players)


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_a_seated_player_cannot_cancel_start_or_leave_a_tournament_table(club, eight, olga, game):
    event = online_event(club, eight, olga, game)
    table = first_table(event)
    online = table.online_table
    first = User.objects.get(pk=table.players[0])
    client = client_for(first)

    page = client.get(online.get_absolute_url()).content.decode()
    assert "Cancel the table" not in page and "Start the game" not in page

    for op in ("cancel", "start", "leave"):
        response = seat_op(client, online, op)
        assert response.status_code == 403, op
        assert "the tournament's organisers" in text(response)
    online.refresh_from_db()
    assert online.status == Table.OPEN
