import pytest
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import client_for


@pytest.fixture
def admin_user(db):
    return User.objects.create_superuser("root", "root@example.com", "irrelevant-pw-9")


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:accounts_user_changelist",
        "admin:accounts_club_changelist",
        "admin:accounts_membership_changelist",
        "admin:accounts_club_add",
    ],
)
def test_it_opens_the_admin_lists(admin_user, club, url_name):
    assert client_for(admin_user).get(reverse(url_name)).status_code == 200


def test_it_edits_users_and_clubs_in_the_admin(admin_user, club, alice):
    client = client_for(admin_user)
    body = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    assert "display_name" in body and "preferred_language" in body
    body = client.get(reverse("admin:accounts_club_change", args=[club.pk])).content.decode()
    assert "memberships-TOTAL_FORMS" in body


def test_it_keeps_the_admin_from_members(club, bob):
    assert client_for(bob).get(reverse("admin:accounts_club_changelist")).status_code == 302
