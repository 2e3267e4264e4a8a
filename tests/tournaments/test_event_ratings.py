"""Ratings of a rated online event: people are rated for the games they played, the AI
players for none. A player whose seat an AI player took (he never came, he left, or the
organiser gave his seat away) is not rated as if he had played the AI's game: the seat is
the AI's in the played game, and his event score is the event's rule (last place there).

p1 … p4 (test_online_tables) sit at one table of Call to Glory; p1 never comes.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from leagues import rating_jobs
from leagues.models import PlayedSeat, RatingHistory
from tests.tournaments.test_online_tables import eight  # noqa: F401
from tournaments import actions as tournaments
from tournaments import tasks
from tournaments.models import Stage, Tournament, TournamentTable

pytestmark = pytest.mark.django_db


def rated_event(club, players):
    event = tournaments.create(
        club,
        name="Rated night",
        game="ctg",
        mode=Tournament.ONLINE,
        max_table=4,
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        rated=True,
        starts_at=timezone.now() - timedelta(seconds=1),
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
    )
    for user in players:
        tournaments.register(event, user, checked_in=True)
    tasks.sweep_events()
    return event, TournamentTable.objects.get(round__stage__tournament=event)


@pytest.mark.parametrize("how", ["absent", "replaced"])
def test_a_player_an_ai_played_for_is_not_rated_for_that_game(club, eight, how):  # noqa: F811
    people = eight[:4]
    event, table = rated_event(club, people)
    gone = people[0]
    if how == "absent":
        assert tournaments.mark_absent(table, gone.pk)
    else:
        Tournament.objects.filter(pk=event.pk).update(allow_ai=True)
        tournaments.fill_with_ai(TournamentTable.objects.get(pk=table.pk), gone.pk)
    tournaments.adjudicate(table)
    table.refresh_from_db()
    game = table.game
    assert rating_jobs.recompute_from(None, game="ctg") == 1

    rated = set(RatingHistory.objects.filter(game=game).values_list("user_id", flat=True))
    assert rated == {u.pk for u in people[1:]}
    seat = PlayedSeat.objects.get(game=game, seat=table.seats.get(user=gone).position)
    assert seat.user_id is None and seat.guest_name  # the AI's seat, by its name
    # His event score is the event's: last at the table when absent, no place when the
    # organiser gave his seat away.
    result = tournaments.table_result(table)
    assert result is not None
    if how == "absent":
        assert result.places[gone.pk] == 4 and result.scores[gone.pk] == 0
    else:
        assert gone.pk not in result.places
    rows = {r.player: r for r in tournaments.stage_standings(event.stages.get())}
    assert rows[gone.pk].games == (1 if how == "absent" else 0)


def test_the_people_who_played_are_rated_as_at_any_table(club, eight):  # noqa: F811
    _event, table = rated_event(club, eight[:4])
    tournaments.adjudicate(table)
    table.refresh_from_db()
    rating_jobs.recompute_from(None, game="ctg")
    rated = set(RatingHistory.objects.filter(game=table.game).values_list("user_id", flat=True))
    assert rated == {u.pk for u in eight[:4]}
