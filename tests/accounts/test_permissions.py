"""Every club write, tried by organiser, member, outsider and anonymous visitor.

Refused attempts must leave the database exactly as it was; see conftest.py for who may do what.
"""

import pytest
from django.urls import reverse

from accounts.models import Club, Membership, User
from tests.accounts.conftest import client_for, make_user

PERSONAS = ["alice", "bob", "charlie", "anonymous"]


def state() -> tuple:
    clubs = tuple(Club.objects.order_by("pk").values_list("name", "invite_token"))
    memberships = tuple(
        Membership.objects.order_by("club__name", "user__username").values_list(
            "club__name", "user__username", "role"
        )
    )
    return clubs, memberships


def role(club: Club, username: str) -> str | None:
    return club.role_of(User.objects.get(username=username))


@pytest.fixture
def olga(club):
    """A second organiser, so that demoting one is allowed."""
    user = make_user("olga")
    Membership.objects.create(club=club, user=user, role=Membership.ORGANISER)
    return user


def post_as(request, persona: str, url: str, data: dict | None = None):
    user = None if persona == "anonymous" else request.getfixturevalue(persona)
    return client_for(user).post(url, data or {})


def assert_sent_to_login(response, url: str) -> None:
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("persona", PERSONAS)
def test_it_lets_every_signed_in_user_create_a_club(request, club, charlie, persona):
    url = reverse("club_create")
    before = state()
    response = post_as(request, persona, url, {"name": "Ninja Nights", "description": ""})
    if persona == "anonymous":
        assert_sent_to_login(response, url)
        assert state() == before
        return
    new = Club.objects.get(name="Ninja Nights")
    assert response.status_code == 302
    assert response.url == new.get_absolute_url()
    assert role(new, persona) == Membership.ORGANISER


@pytest.mark.parametrize(
    ("persona", "status"), [("alice", 302), ("bob", 403), ("charlie", 404), ("anonymous", 302)]
)
def test_it_lets_only_organisers_rotate_the_invite_link(request, club, charlie, persona, status):
    url = reverse("club_rotate_invite", args=[club.slug])
    before = state()
    response = post_as(request, persona, url)
    assert response.status_code == status
    club.refresh_from_db()
    if persona == "alice":
        assert state() != before
        assert club.invite_token != before[0][0][1]
    else:
        assert state() == before
    if persona == "anonymous":
        assert_sent_to_login(response, url)


@pytest.mark.parametrize("persona", PERSONAS)
def test_it_lets_outsiders_join_with_the_invite_link(request, club, charlie, persona):
    url = reverse("club_join", args=[club.invite_token])
    before = state()
    response = post_as(request, persona, url)
    if persona == "anonymous":
        assert_sent_to_login(response, url)
        assert state() == before
        return
    assert response.status_code == 302
    assert response.url == club.get_absolute_url()
    if persona == "charlie":
        assert role(club, "charlie") == Membership.MEMBER
    else:
        # Already members: joining again changes nothing, not even the role.
        assert state() == before


@pytest.mark.parametrize(
    ("persona", "status"), [("alice", 302), ("bob", 302), ("charlie", 404), ("anonymous", 302)]
)
def test_it_lets_members_leave_but_not_the_last_organiser(request, club, charlie, persona, status):
    url = reverse("club_leave", args=[club.slug])
    before = state()
    response = post_as(request, persona, url)
    assert response.status_code == status
    if persona == "bob":
        assert response.url == reverse("club_list")
        assert role(club, "bob") is None
    else:
        assert state() == before
    if persona == "alice":
        assert response.url == club.get_absolute_url()
    if persona == "anonymous":
        assert_sent_to_login(response, url)


@pytest.mark.parametrize(
    ("persona", "status"), [("alice", 302), ("bob", 403), ("charlie", 404), ("anonymous", 302)]
)
def test_it_lets_only_organisers_remove_members(request, club, charlie, persona, status):
    target = (
        User.objects.get(username="bob")
        if persona != "bob"
        else club.memberships.get(role=Membership.ORGANISER).user
    )
    url = reverse("club_remove_member", args=[club.slug, target.pk])
    before = state()
    response = post_as(request, persona, url)
    assert response.status_code == status
    if persona == "alice":
        assert role(club, "bob") is None
    else:
        assert state() == before
    if persona == "anonymous":
        assert_sent_to_login(response, url)


@pytest.mark.parametrize(
    ("persona", "status"), [("alice", 302), ("bob", 403), ("charlie", 404), ("anonymous", 302)]
)
def test_it_lets_only_organisers_promote(request, club, bob, charlie, persona, status):
    url = reverse("club_promote", args=[club.slug, bob.pk])
    before = state()
    response = post_as(request, persona, url)
    assert response.status_code == status
    if persona == "alice":
        assert role(club, "bob") == Membership.ORGANISER
    else:
        assert state() == before
    if persona == "anonymous":
        assert_sent_to_login(response, url)


@pytest.mark.parametrize(
    ("persona", "status"), [("alice", 302), ("bob", 403), ("charlie", 404), ("anonymous", 302)]
)
def test_it_lets_only_organisers_demote(request, club, olga, charlie, persona, status):
    url = reverse("club_demote", args=[club.slug, olga.pk])
    before = state()
    response = post_as(request, persona, url)
    assert response.status_code == status
    if persona == "alice":
        assert role(club, "olga") == Membership.MEMBER
    else:
        assert state() == before
    if persona == "anonymous":
        assert_sent_to_login(response, url)


@pytest.mark.parametrize("persona", ["bob", "charlie", "anonymous"])
def test_it_refuses_writes_sent_with_get(request, club, charlie, persona):
    user = None if persona == "anonymous" else request.getfixturevalue(persona)
    before = state()
    response = client_for(user).get(reverse("club_promote", args=[club.slug, charlie.pk]))
    assert response.status_code in {302, 405}
    assert state() == before


def test_it_refuses_to_demote_or_remove_the_last_organiser(club, alice):
    client = client_for(alice)
    before = state()
    response = client.post(reverse("club_demote", args=[club.slug, alice.pk]), follow=True)
    assert "at least one organiser" in response.content.decode()
    response = client.post(reverse("club_remove_member", args=[club.slug, alice.pk]), follow=True)
    assert "last organiser of a club cannot be removed" in response.content.decode()
    assert state() == before


def test_it_404s_for_a_member_of_another_club(club, alice, charlie):
    # charlie's own club gives him no right over alice's.
    other = Club.objects.create(name="Ninja Nights", slug="ninja-nights")
    Membership.objects.create(club=other, user=charlie, role=Membership.ORGANISER)
    client = client_for(charlie)
    assert client.get(club.get_absolute_url()).status_code == 404
    before = state()
    response = client.post(reverse("club_remove_member", args=[other.slug, alice.pk]))
    assert response.status_code == 404
    assert state() == before


@pytest.mark.parametrize(
    ("persona", "status"), [("alice", 200), ("bob", 200), ("charlie", 404), ("anonymous", 302)]
)
def test_it_shows_the_club_page_only_to_members(request, club, charlie, persona, status):
    user = None if persona == "anonymous" else request.getfixturevalue(persona)
    response = client_for(user).get(club.get_absolute_url())
    assert response.status_code == status
    body = response.content.decode()
    if persona == "alice":
        assert club.invite_token in body
    elif persona == "bob":
        assert "Bob" in body and club.invite_token not in body
    elif persona == "charlie":
        assert "not a member of it" in body and "Samurai Club" not in body
