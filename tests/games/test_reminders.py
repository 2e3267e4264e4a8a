"""A person whose move waits in a game without a live clock is reminded by email, once."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import actions, tasks
from games.ctg import engine
from games.models import Table
from tests.games.conftest import open_table


def started(alice, bob, **options):
    for user in (alice, bob):
        User.objects.filter(pk=user.pk).update(email=f"{user.username}@example.com")
    table = open_table(alice, **options)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table


def play_first_legal(table: Table) -> None:
    table.refresh_from_db()
    state = table.state()
    text = engine.action_text(state.legal_actions()[0], state.names)
    actions.play(table.pk, state.decider, text, table.version)


@pytest.mark.django_db(transaction=True)
def test_it_reminds_whoever_the_decision_passes_to(alice, bob, settings):
    settings.TURN_REMINDER_DELAY = 0
    table = started(alice, bob, clock=Table.CORRESPONDENCE, clock_seconds=86400)

    assert tasks.sweep_reminders() == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Call to Glory: your move against bob"
    assert settings.SITE_URL + table.get_absolute_url() in message.body
    assert settings.SITE_URL + reverse("settings") in message.body

    # alice draws twice and discards; the decision has passed to bob, who is reminded once.
    while table.state().decider == 0:
        play_first_legal(table)
        table.refresh_from_db()
    assert tasks.sweep_reminders() == 1
    assert tasks.sweep_reminders() == 0
    assert [m.to for m in mail.outbox] == [["alice@example.com"], ["bob@example.com"]]


@pytest.mark.django_db(transaction=True)
def test_it_waits_the_reminder_delay(alice, bob, settings):
    settings.TURN_REMINDER_DELAY = 300
    table = started(alice, bob)

    assert tasks.sweep_reminders() == 0
    Table.objects.filter(pk=table.pk).update(updated=timezone.now() - timedelta(seconds=301))
    assert tasks.sweep_reminders() == 1
    assert mail.outbox[0].to == ["alice@example.com"]


@pytest.mark.django_db(transaction=True)
def test_it_sends_no_reminder_under_a_live_clock(alice, bob, settings):
    settings.TURN_REMINDER_DELAY = 0
    started(alice, bob, clock=Table.LIVE, clock_seconds=3600)
    untimed = started(alice, bob)

    assert tasks.sweep_reminders() == 1
    assert len(mail.outbox) == 1
    assert untimed.get_absolute_url() in mail.outbox[0].body


@pytest.mark.django_db(transaction=True)
def test_it_sends_one_email_however_often_the_reminder_runs(alice, bob):
    table = started(alice, bob)

    assert actions.remind(table.pk, table.version)
    assert not actions.remind(table.pk, table.version)
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_it_stays_quiet_once_the_player_has_moved(alice, bob):
    table = started(alice, bob)
    play_first_legal(table)

    assert not actions.remind(table.pk, table.version)
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
def test_it_writes_in_the_players_language(alice, bob):
    User.objects.filter(pk=alice.pk).update(preferred_language="de")
    table = started(alice, bob)

    assert actions.remind(table.pk, table.version)
    assert mail.outbox[0].subject == "Call to Glory: du bist am Zug gegen bob"


@pytest.mark.django_db(transaction=True)
def test_it_leaves_alone_players_who_said_no_in_their_settings(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("settings"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert not User.objects.get(pk=alice.pk).turn_emails
    table = started(alice, bob)

    assert not actions.remind(table.pk, table.version)
    assert mail.outbox == []
