"""An event with a start time: players check themselves in within its window, and the event
knows who has its page open.

olga organises Tenno; alice and bob are members; charlie is elsewhere.
"""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone

from accounts import presence
from tournaments import actions as tournaments
from tournaments.live import tournament_group
from tournaments.models import Entry, Stage, Tournament

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def event_starting_in(club, minutes: float) -> Tournament:
    return tournaments.create(
        club,
        name="Friday online",
        mode=Tournament.ONLINE,
        options={"game_length": "quick"},
        starts_at=timezone.now() + timedelta(minutes=minutes),
        checkin_minutes=30,
        stages=[{"kind": Stage.SWISS, "rounds": 2}],
    )


def check_in(user, event):
    url = reverse("tournament_checkin", args=[event.club.slug, event.pk])
    return client_for(user).post(url, follow=True)


def test_it_lets_a_member_check_himself_in_within_the_window(club, alice):
    event = event_starting_in(club, 10)
    page = client_for(alice).get(event.get_absolute_url()).content.decode()
    assert "tournament_checkin" not in page and "/check-in/" in page

    response = check_in(alice, event)
    assert "You are checked in." in response.content.decode()
    entry = Entry.objects.get(tournament=event, user=alice)
    assert entry.checked_in and not entry.dropped


def test_it_refuses_a_check_in_before_the_window(club, alice):
    event = event_starting_in(club, 45)
    page = client_for(alice).get(event.get_absolute_url()).content.decode()
    assert "/check-in/" not in page
    opens = timezone.localtime(event.checkin_opens)
    assert f"Check-in: from {formats.time_format(opens, 'TIME_FORMAT')}</p>" in page

    response = check_in(alice, event)
    assert "Check-in is not open now." in response.content.decode()
    assert not Entry.objects.filter(tournament=event).exists()


def test_it_has_no_check_in_for_an_event_without_a_start_time(club, alice):
    event = tournaments.create(club, name="By hand", stages=[{"kind": Stage.SWISS, "rounds": 1}])
    response = check_in(alice, event)
    assert "Check-in is not open now." in response.content.decode()


def test_it_lets_a_player_check_back_in_once_registration_closed(club, alice):
    event = event_starting_in(club, 5)
    entry = tournaments.register(event, alice, checked_in=False)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.RUNNING)
    check_in(alice, event)
    entry.refresh_from_db()
    assert entry.checked_in


def test_it_refuses_a_newcomer_once_registration_closed(club, bob):
    event = event_starting_in(club, 5)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.RUNNING)
    response = check_in(bob, event)
    assert "an organiser can still add you" in response.content.decode()
    assert not Entry.objects.filter(tournament=event, user=bob).exists()


def test_it_refuses_a_check_in_from_outside_the_club(club, charlie):
    event = event_starting_in(club, 5)
    assert check_in(charlie, event).status_code == 404
    assert not Entry.objects.filter(tournament=event).exists()


def test_it_shows_who_has_the_page_open(club, alice, bob):
    event = event_starting_in(club, 5)
    for user in (alice, bob):
        tournaments.register(event, user)
    presence.mark(tournament_group(event.pk), alice.pk)
    page = client_for(bob).get(event.get_absolute_url()).content.decode()
    assert page.count('class="badge tn-here"') == 1
    presence.forget(tournament_group(event.pk), alice.pk)
    page = client_for(bob).get(event.get_absolute_url()).content.decode()
    assert 'class="badge tn-here"' not in page


def test_a_presence_mark_lapses_by_itself(club, alice):
    import time

    presence.mark("somewhere.1", alice.pk, ttl=1)
    assert presence.present("somewhere.1", [alice.pk]) == {alice.pk}
    time.sleep(1.1)
    assert presence.present("somewhere.1", [alice.pk]) == set()
