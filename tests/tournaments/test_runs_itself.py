"""An online event with a start time runs its rounds itself: the first drawn at the start
from the players checked in, every table opened and started at once, the next round drawn
an interval after the last table of the one before ends, and the event over after its last.

olga organises Tenno; p1 … p8 (test_online_tables) check in; nobody presses a button.
"""

import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.test import Client
from django.utils import timezone

from games.models import Table
from tests.tournaments.test_online_tables import eight  # noqa: F401
from tournaments import actions as tournaments
from tournaments import tasks
from tournaments.models import Stage, Tournament, TournamentRound, TournamentTable

pytestmark = pytest.mark.django_db

LARGEST = {"ctg": 4, "orc": 7}
OPTIONS = {"ctg": {"game_length": "quick"}, "orc": {}}


def event_at(club, players, *, game="ctg", starts_in=-1.0, rounds=2, interval=60):
    event = tournaments.create(
        club,
        name="Runs itself",
        game=game,
        mode=Tournament.ONLINE,
        max_table=LARGEST[game],
        options=OPTIONS[game],
        seeding=Tournament.RANDOM,
        allow_ai=True,
        rated=False,
        starts_at=timezone.now() + timedelta(seconds=starts_in),
        round_interval=interval,
        stages=[{"kind": Stage.SWISS, "rounds": rounds}],
    )
    for user in players:
        tournaments.register(event, user, checked_in=True)
    return event


def onlines(event, number=None):
    found = Table.objects.filter(tournament_table__round__stage__tournament=event)
    if number is not None:
        found = found.filter(tournament_table__round__number=number)
    return found


def end_every_table(event):
    """Each running table of the event ends with the scores it has, as an organiser would."""
    for table in TournamentTable.objects.filter(
        round__stage__tournament=event, online_table__status=Table.RUNNING
    ):
        tournaments.adjudicate(table)


def test_it_waits_for_its_start_time(club, eight):  # noqa: F811
    event = event_at(club, eight, starts_in=60)
    assert event.next_round_at == event.starts_at
    assert tasks.sweep_events() == 0
    assert not TournamentRound.objects.filter(stage__tournament=event).exists()


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_it_draws_and_starts_every_table_at_its_start_time(club, eight, game):  # noqa: F811
    event = event_at(club, eight, game=game)
    assert tasks.sweep_events() == 1
    event.refresh_from_db()
    assert event.status == Tournament.RUNNING and event.next_round_at is None
    started = onlines(event, 1)
    sizes = sorted(t.seats_count for t in started)
    assert sizes == ([4, 4] if game == "ctg" else [8 - 4, 4]) or sum(sizes) == 8
    assert {t.status for t in started} == {Table.RUNNING}
    # Run again, or twice at once: nothing more is drawn.
    assert tasks.sweep_events() == 0
    assert tournaments.advance(event.pk) is False


def test_it_draws_only_the_players_checked_in(club, eight):  # noqa: F811
    event = event_at(club, eight)
    late = tournaments.register(event, eight[0], checked_in=False)
    tournaments.set_presence(late, checked_in=False)
    tasks.sweep_events()
    seated = {s.user_id for t in onlines(event, 1) for s in t.seats.all()}
    assert eight[0].pk not in seated and len(seated) == 7


def test_it_tries_again_when_too_few_players_checked_in(club, eight):  # noqa: F811
    event = event_at(club, eight[:1])
    assert tasks.sweep_events() == 0
    event.refresh_from_db()
    assert event.status == Tournament.REGISTRATION
    assert event.next_round_at > timezone.now()


def test_it_draws_the_next_round_an_interval_after_the_last_table_ends(club, eight):  # noqa: F811
    event = event_at(club, eight, interval=60)
    tasks.sweep_events()
    first, second = TournamentTable.objects.filter(round__stage__tournament=event)
    tournaments.adjudicate(first)
    event.refresh_from_db()
    assert event.next_round_at is None  # one table still plays

    before = timezone.now()
    tournaments.adjudicate(second)
    event.refresh_from_db()
    due = event.next_round_at
    assert before + timedelta(seconds=59) <= due <= timezone.now() + timedelta(seconds=61)
    assert tournaments.advance(event.pk, now=due - timedelta(seconds=1)) is False
    assert tournaments.advance(event.pk, now=due) is True
    assert {t.status for t in onlines(event, 2)} == {Table.RUNNING}


def test_it_ends_itself_after_its_last_round(club, eight):  # noqa: F811
    event = event_at(club, eight, rounds=1)
    tasks.sweep_events()
    end_every_table(event)
    event.refresh_from_db()
    assert event.status == Tournament.FINISHED and event.next_round_at is None
    assert tasks.sweep_events() == 0


def test_it_shows_the_countdown_and_each_player_his_table(club, eight):  # noqa: F811
    event = event_at(club, eight, interval=90)
    client = Client()
    client.force_login(eight[0])
    page = client.get(event.get_absolute_url()).content.decode()
    assert "The first round is drawn in" in page

    tasks.sweep_events()
    mine = onlines(event, 1).filter(seats__user=eight[0]).get()
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Your table is ready" in page and f'data-href="{mine.get_absolute_url()}"' in page

    end_every_table(event)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "The next round is drawn in" in page and "Your table is ready" not in page


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_draw_one_round(club, eight):  # noqa: F811
    # Due a while ago, with no timer set going in this process.
    event = event_at(club, eight, starts_in=3600)
    Tournament.objects.filter(pk=event.pk).update(next_round_at=timezone.now())
    results = []
    barrier = threading.Barrier(2)

    def work():
        barrier.wait()
        try:
            results.append(tournaments.advance(event.pk))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, True]
    assert TournamentRound.objects.filter(stage__tournament=event).count() == 1


def test_a_round_that_cannot_be_seated_says_how_many_more_players_it_waits_for(club, eight):  # noqa: F811
    event = event_at(club, eight[:1])  # a table of Call to Glory seats two at least
    assert tasks.sweep_events() == 0
    event.refresh_from_db()
    assert event.waiting_for == 1
    client = Client()
    client.force_login(eight[0])
    page = client.get(event.get_absolute_url()).content.decode()
    assert "The first round cannot be seated: waiting for 1 more player to check in." in page
    assert "The first round is drawn in" not in page

    # p2 checks in: the draw is due at once, not at the next retry.
    tournaments.check_in(event, eight[1])
    event.refresh_from_db()
    assert event.next_round_at <= timezone.now()
    assert tasks.sweep_events() == 1
    event.refresh_from_db()
    assert event.waiting_for == 0 and event.status == Tournament.RUNNING
    page = client.get(event.get_absolute_url()).content.decode()
    assert "cannot be seated" not in page


def test_a_later_round_short_of_players_waits_and_the_organiser_may_end_the_event(
    club,
    olga,
    eight,  # noqa: F811
):
    event = event_at(club, eight[:2], interval=0)
    tasks.sweep_events()
    table = TournamentTable.objects.get(round__stage__tournament=event)
    tournaments.mark_absent(table, eight[1].pk)  # p2 leaves: p1 alone is checked in
    end_every_table(event)
    assert tasks.sweep_events() == 0
    event.refresh_from_db()
    assert event.waiting_for == 1 and event.status == Tournament.RUNNING
    organiser = Client()
    organiser.force_login(olga)
    page = organiser.get(event.get_absolute_url()).content.decode()
    assert "The next round cannot be seated: waiting for 1 more player to check in." in page
    assert "end the event now with its standings so far" in page

    response = organiser.post(
        f"{event.get_absolute_url()}step/", {"step": "finish-now"}, follow=True
    )
    assert response.status_code == 200
    event.refresh_from_db()
    assert event.status == Tournament.FINISHED
    page = response.content.decode()
    assert "these are the final standings" in page and "cannot be seated" not in page
