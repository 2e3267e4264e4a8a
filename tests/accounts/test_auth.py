"""Sign-up, log in/out, password change and reset: Django's auth with our templates."""

import re

from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import PASSWORD, client_for

NEW_PASSWORD = "shogun-and-daimyo-77"


def signup_data(**overrides) -> dict:
    data = {
        "username": "dora",
        "email": "dora@example.com",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
    }
    return data | overrides


def test_it_signs_up_and_logs_in(client, db):
    response = client.post(reverse("signup"), signup_data())
    assert response.status_code == 302
    user = User.objects.get(username="dora")
    assert user.email == "dora@example.com"
    assert client.get(reverse("settings")).status_code == 200


def test_it_returns_to_next_after_sign_up(client, db):
    response = client.post(f"{reverse('signup')}?next=/clubs/", signup_data())
    assert response.url == "/clubs/"


def test_it_rejects_a_weak_password_at_sign_up(client, db):
    response = client.post(
        reverse("signup"), signup_data(password1="12345678", password2="12345678")
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "This password is too common." in body
    assert "errorlist" in body
    assert not User.objects.filter(username="dora").exists()


def test_it_rejects_mismatched_passwords_at_sign_up(client, db):
    response = client.post(reverse("signup"), signup_data(password2=NEW_PASSWORD + "x"))
    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.content.decode()
    assert not User.objects.exists()


def test_it_rejects_a_taken_username_or_email(client, alice):
    response = client.post(reverse("signup"), signup_data(username="ALICE"))
    assert "A user with that username already exists." in response.content.decode()
    response = client.post(reverse("signup"), signup_data(email="Alice@Example.com"))
    assert "Another account already uses this email address." in response.content.decode()
    assert User.objects.count() == 1


def test_it_logs_in_and_out_with_post(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("settings")).status_code == 200
    assert client.get(reverse("logout")).status_code == 405
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("settings")).status_code == 302


def test_it_shows_an_error_for_a_wrong_password(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()


def test_it_changes_the_password(alice):
    client = client_for(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_it_rejects_a_weak_or_mismatched_new_password(alice):
    client = client_for(alice)
    url = reverse("password_change")
    weak = {"old_password": PASSWORD, "new_password1": "alice123", "new_password2": "alice123"}
    response = client.post(url, weak)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    mismatched = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": "x"}
    response = client.post(url, mismatched)
    assert "The two password fields didn’t match." in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_it_resets_a_password_by_email(client, alice):
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert "Call to Glory" in message.subject
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)

    # The link redirects to a URL without the token, which shows the form.
    response = client.get(link, follow=True)
    assert response.status_code == 200
    assert response.context["validlink"]
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": "1234", "new_password2": "1234"})
    assert "errorlist" in response.content.decode()
    response = client.post(
        form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True
    )
    assert "Your new password is set." in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)

    # A used link does not work a second time.
    response = client.get(link, follow=True)
    assert "This link does not work any more" in response.content.decode()


def test_it_sends_no_mail_for_an_unknown_address(client, alice):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_it_ignores_a_next_url_on_another_site(client, db):
    response = client.post(f"{reverse('signup')}?next=https://evil.example/", signup_data())
    assert response.url == reverse("home")
