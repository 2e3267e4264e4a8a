"""Ratings against numbers computed directly with openskill for the same placings."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from leagues.ratings import (
    RatedGame,
    Skill,
    display,
    expected_places,
    rate,
    replay,
)

OPENSKILL = PlackettLuce()


def with_openskill(skills, places):
    teams = [[OPENSKILL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    return [(t[0].mu, t[0].sigma) for t in OPENSKILL.rate(teams, ranks=list(places))]


def assert_same(ours, theirs):
    assert [(s.mu, s.sigma) for s in ours] == [
        (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9)) for mu, sigma in theirs
    ]


@pytest.mark.parametrize(
    "places",
    [
        [1, 2],
        [2, 1],
        [1, 1],
        [1, 2, 3],
        [1, 1, 3],
        [1, 2, 2],
        [1, 1, 1],
        [3, 1, 2],
        [1, 2, 3, 4],
        [1, 1, 3, 4],
        [1, 2, 2, 4],
        [2, 1, 1, 4],
        [1, 1, 1, 1],
        [4, 3, 2, 1],
    ],
)
def test_it_matches_openskill_for_fresh_players(places):
    skills = [Skill() for _ in places]
    assert_same(rate(skills, places), with_openskill(skills, places))


def test_it_matches_openskill_for_established_players_with_ties():
    skills = [Skill(31.2, 2.1, 40), Skill(22.0, 5.5, 3), Skill(25.0, 8.3, 0), Skill(18.4, 1.2, 99)]
    places = [2, 1, 2, 4]
    ours = rate(skills, places)
    assert_same(ours, with_openskill(skills, places))
    assert [s.games for s in ours] == [41, 4, 1, 100]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(5, 45), st.floats(0.5, 9), st.integers(1, 4)), min_size=2, max_size=4
    )
)
def test_it_matches_openskill_for_any_game(players):
    skills = [Skill(mu, sigma) for mu, sigma, _ in players]
    places = [place for _, _, place in players]
    assert_same(rate(skills, places), with_openskill(skills, places))


def test_it_replays_a_season_like_openskill_does():
    games = [
        RatedGame(1, (("ann", 1), ("bob", 2), ("cy", 3))),
        RatedGame(2, (("bob", 1), ("cy", 1), (None, 3))),  # a guest in seat 3
        RatedGame(3, (("cy", 1), ("ann", 2))),
        RatedGame(4, (("ann", 1), ("bob", 1), ("cy", 1), ("dee", 4))),
    ]
    state: dict = {}
    list(replay(games, state))

    direct = {name: OPENSKILL.rating() for name in ["ann", "bob", "cy", "dee"]}
    for game in games:
        teams = [[direct[p]] if p else [OPENSKILL.rating()] for p, _ in game.seats]
        new = OPENSKILL.rate(teams, ranks=[place for _, place in game.seats])
        for (p, _), team in zip(game.seats, new, strict=True):
            if p:
                direct[p] = team[0]
    for name, rating in direct.items():
        assert state[name].mu == pytest.approx(rating.mu, abs=1e-9)
        assert state[name].sigma == pytest.approx(rating.sigma, abs=1e-9)
    assert state["ann"].games == 3 and state["dee"].games == 1


def test_it_shows_a_new_player_as_1000_and_provisional():
    assert display(25.0, 25.0 / 3.0) == 1000
    assert Skill().display == 1000 and Skill().provisional
    assert not Skill(games=10).provisional


def test_it_predicts_expected_places_with_openskill():
    skills = [Skill(20, 2), Skill(30, 2), Skill(25, 2)]
    teams = [[OPENSKILL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    assert expected_places(skills) == [r for r, _ in OPENSKILL.predict_rank(teams)] == [3, 1, 2]


def test_it_refuses_a_game_of_one():
    with pytest.raises(ValueError):
        rate([Skill()], [1])
