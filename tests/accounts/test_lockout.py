"""Login lockout: five wrong passwords from one address lock that username there for a while.

alice   organiser of the Samurai Club: sees which members are locked out and unlocks them.
bob     member of the Samurai Club: the one whose password is guessed at; may unlock no one.
charlie in no club: cannot even see the club's members.
"""

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import PASSWORD, client_for

LOCKED = "After too many wrong passwords, this account cannot log in from your address for"


def log_in(client: Client, username: str, password: str, address: str = "127.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def guess(client: Client, username: str, times: int, address: str = "127.0.0.1"):
    for _ in range(times):
        response = log_in(client, username, "not-the-password", address)
    return response


def is_logged_in(client: Client) -> bool:
    return client.get(reverse("settings")).status_code == 200


def test_it_locks_the_login_after_five_wrong_passwords(client, bob):
    fourth = guess(client, "bob", 4)
    assert fourth.status_code == 200
    assert "Please enter a correct username and password." in fourth.content.decode()

    fifth = guess(client, "bob", 1)
    assert fifth.status_code == 429
    body = fifth.content.decode()
    assert "Login locked" in body
    assert f"{LOCKED} 15 minutes." in body
    assert "ask an organiser of your club to unlock your login" in body


def test_it_refuses_the_right_password_while_locked(client, bob):
    guess(client, "bob", 5)
    response = log_in(client, "bob", PASSWORD)
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not is_logged_in(client)


def test_it_logs_in_normally_before_the_limit_and_forgets_earlier_typos(client, bob):
    guess(client, "bob", 4)
    assert log_in(client, "bob", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    # The success wiped the four typos: four more are still answered as mere typos.
    assert guess(client, "bob", 4).status_code == 200
    assert log_in(client, "bob", PASSWORD).status_code == 302


def test_it_answers_alike_whether_the_account_exists(bob):
    def without_tokens(html: str) -> str:
        return re.sub(r"[A-Za-z0-9]{32,}", "", html)

    existing, missing = Client(), Client()
    for _ in range(5):
        one = log_in(existing, "bob", "not-the-password")
        other = log_in(missing, "nobody-here", "not-the-password")
        assert one.status_code == other.status_code
        assert without_tokens(one.content.decode()).replace("bob", "nobody-here") == (
            without_tokens(other.content.decode())
        )
    assert one.status_code == 429


def test_it_locks_only_the_address_that_guessed(bob):
    guesser = Client()
    guess(guesser, "bob", 5, address="198.51.100.7")
    assert log_in(guesser, "bob", PASSWORD, address="198.51.100.7").status_code == 429
    at_home = Client()
    assert log_in(at_home, "bob", PASSWORD, address="203.0.113.20").status_code == 302
    assert is_logged_in(at_home)


def test_it_lifts_the_lock_after_the_cool_off(client, bob):
    guess(client, "bob", 5)
    assert log_in(client, "bob", PASSWORD).status_code == 429
    # Sixteen minutes pass without a try.
    for attempt in AccessAttempt.objects.filter(username="bob"):
        attempt.attempt_time -= timedelta(minutes=16)
        attempt.save()
    assert log_in(client, "bob", PASSWORD).status_code == 302
    assert is_logged_in(client)


def test_it_tells_the_cool_off_that_is_configured(client, bob, settings):
    settings.AXES_COOLOFF_TIME = timedelta(minutes=30)
    settings.AXES_FAILURE_LIMIT = 3
    assert guess(client, "bob", 2).status_code == 200
    response = guess(client, "bob", 1)
    assert f"{LOCKED} 30 minutes." in response.content.decode()


def test_it_shows_an_organiser_which_member_is_locked_and_lets_them_unlock(club, alice, bob):
    guesser = Client()
    guess(guesser, "bob", 5)
    organiser = client_for(alice)
    page = organiser.get(reverse("club", args=[club.slug])).content.decode()
    unlock_url = reverse("club_unlock_login", args=[club.slug, bob.pk])
    assert "Login locked" in page
    assert unlock_url in page
    assert "Let Bob log in again now?" in page  # the confirmation before the unlock

    response = organiser.post(unlock_url, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert "Bob can log in again." in body
    assert "Login locked" not in body and unlock_url not in body

    assert log_in(guesser, "bob", PASSWORD).status_code == 302
    assert is_logged_in(guesser)


def test_it_offers_no_unlock_when_no_one_is_locked(club, alice):
    page = client_for(alice).get(reverse("club", args=[club.slug])).content.decode()
    assert "Unlock login" not in page and "Login locked" not in page


def test_it_lets_only_organisers_unlock(club, alice, bob, charlie):
    guess(Client(), "alice", 5)
    url = reverse("club_unlock_login", args=[club.slug, alice.pk])
    page = client_for(bob).get(reverse("club", args=[club.slug])).content.decode()
    assert url not in page
    assert client_for(bob).post(url).status_code == 403
    assert client_for(charlie).post(url).status_code == 404
    # The refused unlocks changed nothing: alice is still locked out.
    assert log_in(Client(), "alice", PASSWORD).status_code == 429


def test_it_lets_the_administrator_unlock_in_the_admin(client, bob):
    guess(client, "bob", 5)
    admin = User.objects.create_superuser("root", "root@example.com", "admin-pw-123")
    staff = client_for(admin)
    listing = staff.get(reverse("admin:axes_accessattempt_changelist"))
    assert listing.status_code == 200
    assert "bob" in listing.content.decode()

    staff.post(
        reverse("admin:axes_accessattempt_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": list(AccessAttempt.objects.values_list("pk", flat=True)),
            "post": "yes",
        },
    )
    assert log_in(client, "bob", PASSWORD).status_code == 302
    assert is_logged_in(client)


@pytest.mark.parametrize("header", ["HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP"])
def test_it_takes_the_address_from_the_proxys_header_when_configured(bob, settings, header):
    settings.CLIENT_IP_HEADER = header
    guesser, member = Client(), Client()
    for _ in range(5):
        guesser.post(
            reverse("login"),
            {"username": "bob", "password": "nope"},
            **{header: "198.51.100.7"},
        )
    # The proxy's own address is the same for both; the client's address tells them apart.
    locked = guesser.post(
        reverse("login"), {"username": "bob", "password": PASSWORD}, **{header: "198.51.100.7"}
    )
    assert locked.status_code == 429
    at_home = member.post(
        reverse("login"), {"username": "bob", "password": PASSWORD}, **{header: "203.0.113.20"}
    )
    assert at_home.status_code == 302


def test_it_trusts_only_the_address_the_proxy_added_to_x_forwarded_for(bob, settings):
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    client = Client()
    for n in range(5):
        # A guesser forging a new first entry each time is still seen at its real address.
        client.post(
            reverse("login"),
            {"username": "bob", "password": "nope"},
            HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 198.51.100.7",
        )
    response = client.post(
        reverse("login"),
        {"username": "bob", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="10.9.9.9, 198.51.100.7",
    )
    assert response.status_code == 429


def test_it_lifts_the_lock_when_the_password_is_reset_by_email(client, bob):
    guess(client, "bob", 5)
    client.post(reverse("password_reset"), {"email": "bob@example.com"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    new_password = "shogun-and-daimyo-77"
    client.post(form_url, {"new_password1": new_password, "new_password2": new_password})
    assert log_in(client, "bob", new_password).status_code == 302
    assert is_logged_in(client)


def test_it_counts_a_username_too_long_for_any_account_as_a_wrong_guess(client, db):
    # Longer than any username and than the column where failed logins are counted.
    username = "x" * 300
    fourth = guess(client, username, 4)
    assert fourth.status_code == 200
    assert "Please enter a correct username and password." in fourth.content.decode()
    assert guess(client, username, 1).status_code == 429
