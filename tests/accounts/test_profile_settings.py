from django.conf import settings
from django.urls import reverse

from accounts.models import Club, Membership
from tests.accounts.conftest import client_for


def test_it_shows_a_profile_with_shared_clubs_only(club, alice, charlie):
    other = Club.objects.create(name="Ninja Nights", slug="ninja-nights")
    Membership.objects.create(club=other, user=alice, role=Membership.MEMBER)
    Membership.objects.create(club=other, user=charlie, role=Membership.ORGANISER)

    own = client_for(alice).get(reverse("profile", args=["alice"])).content.decode()
    assert "Samurai Club" in own and "Ninja Nights" in own
    seen_by_charlie = client_for(charlie).get(reverse("profile", args=["alice"])).content.decode()
    assert "Ninja Nights" in seen_by_charlie and "Samurai Club" not in seen_by_charlie
    assert 'id="statistics"' in seen_by_charlie


def test_it_404s_for_an_unknown_profile(alice):
    response = client_for(alice).get(reverse("profile", args=["nobody"]))
    assert response.status_code == 404
    assert "There is no player with this username." in response.content.decode()


def test_it_saves_settings_and_sets_the_language_cookie(alice):
    client = client_for(alice)
    response = client.post(
        reverse("settings"),
        {"display_name": "Alice B.", "email": "alice@example.org", "preferred_language": "de"},
    )
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    alice.refresh_from_db()
    assert (alice.display_name, alice.email, alice.preferred_language) == (
        "Alice B.",
        "alice@example.org",
        "de",
    )
    page = client.get(reverse("settings")).content.decode()
    assert "Deine Einstellungen wurden gespeichert." in page


def test_it_follows_the_browser_again_when_the_language_is_cleared(alice):
    client = client_for(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.post(
        reverse("settings"),
        {"display_name": "", "email": "alice@example.com", "preferred_language": ""},
    )
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""


def test_it_uses_the_preferred_language_without_a_cookie(alice):
    alice.preferred_language = "nl"
    alice.save()
    page = client_for(alice).get(reverse("club_list")).content.decode()
    assert 'lang="nl"' in page


def test_it_rejects_an_email_another_account_uses(alice, bob):
    response = client_for(alice).post(
        reverse("settings"),
        {"display_name": "", "email": "BOB@example.com", "preferred_language": ""},
    )
    assert response.status_code == 200
    assert "Another account already uses this email address." in response.content.decode()
