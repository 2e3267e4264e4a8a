"""Personas: alice and bob are members of the private club "Kyoto"; charlie is in no club.

Games here are stored the way the site stores them: online games as a finished Table with
its record and a PlayedGame through record_result, pad games through record_result too.
"""

from datetime import UTC, datetime

import pytest

from accounts.models import Club, Membership
from games.ctg import engine
from games.models import Seat as TableSeat
from games.models import Table
from leagues.models import League
from leagues.results import of_rounds, record_result


@pytest.fixture
def club(alice, bob):
    club = Club.objects.create(name="Kyoto", slug="kyoto")
    Membership.objects.create(club=club, user=alice, role=Membership.ORGANISER)
    Membership.objects.create(club=club, user=bob)
    return club


@pytest.fixture
def league(club):
    return League.objects.create(club=club, name="Spring")


def when(day: int) -> datetime:
    return datetime(2026, 3, day, 20, 0, tzinfo=UTC)


def pad_game(players, scores, *, day=1, club=None, league=None, rated=True, **options):
    """A score-pad game: per player, the list of round scores (placings from the totals)."""
    return record_result(
        of_rounds(scores),
        players=players,
        played_at=when(day),
        club=club,
        league=league,
        rated=rated,
        source="pad",
        **options,
    )


def online_game(users, *, seed=1, rounds=1, variants=(), day=1, club=None, rated=False):
    """A finished online game between users, played out at random by the engine."""
    names = [u.username for u in users]
    options = engine.Options(len(users), rounds, frozenset(variants))
    state = engine.random_game(options, seed, names)
    result = engine.result(state)
    table = Table.objects.create(
        host=users[0],
        club=club,
        visibility="club" if club else "public",
        seats_count=len(users),
        options={
            "rounds": rounds,
            "imperial_tasks": "imperial-tasks" in variants,
            "ninja": "ninja" in variants,
        },
        rated=rated,
        status=Table.FINISHED,
        record=engine.to_record(state),
        result=result,
        finished=when(day),
    )
    for position, user in enumerate(users):
        TableSeat.objects.create(table=table, position=position, user=user, name=user.username)
    game = record_result(
        of_rounds(
            [[r["scores"][n] for r in result["rounds"]] for n in names],
            placings=[result["placings"][n] for n in names],
        ),
        players=list(users),
        played_at=when(day),
        club=club,
        options=table.options,
        rated=rated,
        external_ref=f"online:{table.pk}",
        table=table,
    )
    return table, game
