"""No-shows and players who leave, in an event that runs itself: whoever has no page of his
running table open past the event's wait is played by an AI player, placed last there, and
not drawn again until he checks in again.

p1 … p8 (test_online_tables) play; a player is at his table while presence marks him so,
as his open table page does (games.consumers.TableConsumer).
"""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import presence
from games.groups import table_group
from tests.tournaments.test_online_tables import eight  # noqa: F401
from tests.tournaments.test_runs_itself import end_every_table, event_at, onlines
from tournaments import actions as tournaments
from tournaments import tasks
from tournaments.models import Entry, Tournament, TournamentSeat, TournamentTable

pytestmark = pytest.mark.django_db


def at_tables(event, users):
    """These players have their table of the round open."""
    for online in onlines(event).filter(status="running"):
        for seat in online.seats.all():
            if seat.user_id in {u.pk for u in users}:
                presence.mark(table_group(online.pk), seat.user_id)


def later(event, seconds):
    """`seconds` after the round's tables started."""
    started = max(t.started for t in onlines(event).filter(status="running"))
    return started + timedelta(seconds=seconds)


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_it_gives_a_no_show_seat_to_an_ai_player_after_the_wait(club, eight, game):  # noqa: F811
    event = event_at(club, eight, game=game)
    tasks.sweep_events()
    no_show = eight[0]
    at_tables(event, eight[1:])
    assert tournaments.absentees(later(event, 59)) == []
    found = tournaments.absentees(later(event, 61))
    assert [p for _t, p in found] == [no_show.pk]

    assert tasks.sweep_absentees() == 0  # not yet: the wait runs from the start
    for table, player in found:
        assert tournaments.mark_absent(table, player)
        assert not tournaments.mark_absent(table, player)  # once only
    seat = TournamentSeat.objects.get(table__round__stage__tournament=event, user=no_show)
    assert seat.replaced and seat.absent
    entry = Entry.objects.get(tournament=event, user=no_show)
    assert entry.absent and not entry.checked_in


def test_the_sweep_finds_a_player_who_left_mid_game(club, eight):  # noqa: F811
    event = event_at(club, eight, interval=0)
    tasks.sweep_events()
    onlines(event).update(started=timezone.now() - timedelta(seconds=120))
    at_tables(event, eight)
    assert tasks.sweep_absentees() == 0
    # p2 closes his page: his mark lapses.
    presence.forget(table_group(onlines(event).get(seats__user=eight[1]).pk), eight[1].pk)
    assert tasks.sweep_absentees() == 1
    assert Entry.objects.get(tournament=event, user=eight[1]).absent


def test_an_absent_player_is_last_at_his_table_and_not_drawn_again(club, eight):  # noqa: F811
    event = event_at(club, eight, interval=0)
    tasks.sweep_events()
    table = TournamentTable.objects.filter(round__stage__tournament=event, seats__user=eight[0])
    table = table.get()
    tournaments.mark_absent(table, eight[0].pk)
    end_every_table(event)
    table.refresh_from_db()
    result = tournaments.table_result(
        TournamentTable.objects.prefetch_related("seats", "game__seats").get(pk=table.pk)
    )
    assert result.places[eight[0].pk] == len(table.players)
    assert result.scores[eight[0].pk] == 0
    # Every seat once: the AI player in his seat takes no place of its own.
    assert len(result.places) + len(result.stand_ins) == len(table.players)
    assert sorted(result.places.values())[-1] == len(table.players)
    rows = {r.player: r for r in tournaments.stage_standings(event.stages.get())}
    assert rows[eight[0].pk].points == 0

    assert tournaments.advance(event.pk, now=timezone.now() + timedelta(seconds=1))
    seated = {s.user_id for t in onlines(event, 2) for s in t.seats.all()}
    assert eight[0].pk not in seated and len(seated) == 7


def test_an_absent_player_checks_back_in_for_the_next_round(club, eight):  # noqa: F811
    event = event_at(club, eight, interval=0)
    tasks.sweep_events()
    table = TournamentTable.objects.get(round__stage__tournament=event, seats__user=eight[0])
    tournaments.mark_absent(table, eight[0].pk)
    client = Client()
    client.force_login(eight[0])
    page = client.get(event.get_absolute_url()).content.decode()
    assert "I am back: check me in" in page
    client.post(f"{event.get_absolute_url()}check-in/")
    assert Entry.objects.get(tournament=event, user=eight[0]).checked_in
    end_every_table(event)
    tournaments.advance(event.pk, now=timezone.now() + timedelta(seconds=1))
    assert onlines(event, 2).filter(seats__user=eight[0]).exists()


def test_an_event_that_does_not_place_absentees_last_gives_them_no_place(club, eight):  # noqa: F811
    event = event_at(club, eight, rounds=1)
    Tournament.objects.filter(pk=event.pk).update(absentee_place="none")
    tasks.sweep_events()
    table = TournamentTable.objects.get(round__stage__tournament=event, seats__user=eight[0])
    tournaments.mark_absent(table, eight[0].pk)
    end_every_table(event)
    result = tournaments.table_result(
        TournamentTable.objects.prefetch_related("seats", "game__seats").get(pk=table.pk)
    )
    assert eight[0].pk not in result.places


def test_a_table_whose_last_player_is_away_ends_with_its_scores(club, eight):  # noqa: F811
    event = event_at(club, eight, interval=0)
    tasks.sweep_events()
    table = TournamentTable.objects.get(round__stage__tournament=event, seats__user=eight[0])
    for player in table.players:
        assert tournaments.mark_absent(table, player)
    table.refresh_from_db()
    # Ended as an organiser's adjudication ends it: closed, with its result.
    assert table.game is not None
    result = tournaments.table_result(
        TournamentTable.objects.prefetch_related("seats", "game__seats").get(pk=table.pk)
    )
    assert set(result.places.values()) == {1}  # all absent, sharing the places
    # ... and none of them won that table.
    rows = {r.player: r for r in tournaments.stage_standings(event.stages.get())}
    assert {rows[p].wins for p in table.players} == {0}
