"""Personas for league tests.

- olga organises the club "Tenno" and may manage its leagues and correct results;
- alice and bob are members: they see leagues, enter and confirm score pads;
- charlie is in another club and must see nothing of Tenno's;
- dave and erin are members too, and Gus a guest: De l'Orc needs four to seven players.
"""

import pytest

from accounts.models import Club, Membership, User
from leagues.models import League


def make_user(username: str) -> User:
    return User.objects.create_user(username, password="pw-" + username)


@pytest.fixture
def club(db):
    return Club.objects.create(name="Tenno", slug="tenno")


@pytest.fixture
def olga(club):
    user = make_user("olga")
    Membership.objects.create(club=club, user=user, role=Membership.ORGANISER)
    return user


@pytest.fixture
def alice(club):
    user = make_user("alice")
    Membership.objects.create(club=club, user=user)
    return user


@pytest.fixture
def bob(club):
    user = make_user("bob")
    Membership.objects.create(club=club, user=user)
    return user


@pytest.fixture
def charlie(db):
    user = make_user("charlie")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=other, user=user, role=Membership.ORGANISER)
    return user


@pytest.fixture
def league(club, olga, alice, bob):
    league = League.objects.create(club=club, name="Spring", options={"game_length": "quick"})
    league.participants.add(olga, alice, bob)
    return league


@pytest.fixture
def dave(club):
    user = make_user("dave")
    Membership.objects.create(club=club, user=user)
    return user


@pytest.fixture
def erin(club):
    user = make_user("erin")
    Membership.objects.create(club=club, user=user)
    return user


@pytest.fixture
def orc_league(club, olga, alice, bob):
    league = League.objects.create(club=club, name="Orc nights", game="orc")
    league.participants.add(alice, bob)
    return league


@pytest.fixture
def five(orc_league, alice, bob, dave, erin):
    """alice's client and a De l'Orc pad she started: alice, bob, dave, erin and Gus."""
    from tests.leagues.orcpad import client_for, start

    client = client_for(alice)
    return client, start(client, orc_league, [alice, bob, dave, erin], ["Gus"])
