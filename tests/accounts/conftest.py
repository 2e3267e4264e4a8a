"""Personas for the accounts and clubs tests.

alice   organiser of the Samurai Club: sees the club, its invite link, and may change members.
bob     member of the Samurai Club: sees the club and its members, may only leave.
charlie in no club: sees neither the club nor its invite link, only a 404.
anonymous visitors are sent to the login page for everything under /clubs/.
"""

import pytest
from django.test import Client

from accounts.models import Club, Membership, User

PASSWORD = "glory-of-the-emperor-41"


def make_user(username: str) -> User:
    return User.objects.create_user(
        username, email=f"{username}@example.com", password=PASSWORD, display_name=username.title()
    )


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def charlie(db):
    return make_user("charlie")


@pytest.fixture
def club(alice, bob):
    club = Club.objects.create(name="Samurai Club", slug="samurai-club", description="Tuesdays.")
    Membership.objects.create(club=club, user=alice, role=Membership.ORGANISER)
    Membership.objects.create(club=club, user=bob, role=Membership.MEMBER)
    return club


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client
