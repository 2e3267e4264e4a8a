"""The end of an event that runs itself: standings pushed after each table, the event over
by itself after its last round, and the organiser's
pause and early end.

olga organises Tenno; p1 … p8 (test_online_tables) play.
"""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.test_online_tables import eight  # noqa: F401
from tests.tournaments.test_runs_itself import end_every_table, event_at, onlines
from tournaments import actions as tournaments
from tournaments import tasks
from tournaments.models import Tournament, TournamentTable

pytestmark = pytest.mark.django_db


def step(user, event, value):
    client = Client()
    client.force_login(user)
    url = reverse("tournament_step", args=[event.club.slug, event.pk])
    return client.post(url, {"step": value}, follow=True)


def test_it_ends_itself_with_final_standings(club, eight, olga):  # noqa: F811
    event = event_at(club, eight, rounds=1)
    tasks.sweep_events()
    table = TournamentTable.objects.filter(round__stage__tournament=event)[0]
    tournaments.mark_absent(table, table.players[0])
    end_every_table(event)
    event.refresh_from_db()
    assert event.status == Tournament.FINISHED

    client = Client()
    client.force_login(olga)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "these are the final standings" in page
    rows = tournaments.stage_standings(event.stages.get())
    assert sorted(r.player for r in rows) == sorted(u.pk for u in eight)


def test_a_paused_event_draws_nothing_until_it_goes_on(club, eight, olga):  # noqa: F811
    event = event_at(club, eight, starts_in=3600)
    step(olga, event, "pause")
    Tournament.objects.filter(pk=event.pk).update(next_round_at=timezone.now())
    assert tasks.sweep_events() == 0
    page = step(olga, event, "resume").content.decode()
    assert "Pause" in page
    assert tournaments.advance(event.pk, now=timezone.now() + timedelta(seconds=1))


def test_a_paused_event_finds_nobody_absent(club, eight, olga):  # noqa: F811
    event = event_at(club, eight)
    tasks.sweep_events()
    onlines(event).update(started=timezone.now() - timedelta(seconds=600))
    step(olga, event, "pause")
    assert tournaments.absentees() == []
    step(olga, event, "resume")
    assert len(tournaments.absentees()) == 8


def test_the_organiser_ends_the_event_early(club, eight, olga):  # noqa: F811
    event = event_at(club, eight, rounds=3)
    tasks.sweep_events()
    step(olga, event, "finish-now")
    event.refresh_from_db()
    assert event.status == Tournament.FINISHED and event.next_round_at is None
    assert not onlines(event).filter(status="running").exists()
    assert all(r.games == 1 for r in tournaments.stage_standings(event.stages.get()))
    assert tasks.sweep_events() == 0


def test_a_player_cannot_pause_or_end_the_event(club, eight, alice):  # noqa: F811
    event = event_at(club, eight, starts_in=3600)
    assert step(eight[0], event, "pause").status_code == 403
    event.refresh_from_db()
    assert not event.paused


def test_an_event_run_by_hand_has_no_pause(club, olga):
    event = tournaments.create(club, name="By hand", stages=[{"kind": "swiss", "rounds": 1}])
    page = step(olga, event, "pause").content.decode()
    assert "Only an online event with a start time runs, and pauses, itself." in page
