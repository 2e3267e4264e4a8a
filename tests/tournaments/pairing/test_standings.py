from fractions import Fraction

import pytest

from tournaments.pairing import GameResult, PairingError, placement_points, placings, standings


def test_it_places_by_total_then_best_rounds() -> None:
    totals = {1: 60, 2: 60, 3: 60, 4: 36}
    rounds = {1: [30, 20, 10, 0], 2: [30, 15, 15, 0], 3: [20, 20, 20, 0], 4: [36, 0, 0, 0]}
    assert placings(totals, rounds) == {1: 1, 2: 2, 3: 3, 4: 4}
    # Without round scores a tie is shared, numbered as in sport.
    assert placings(totals) == {1: 1, 2: 1, 3: 1, 4: 4}
    assert placings({1: 50, 2: 50, 3: 40}, {1: [25, 25], 2: [25, 25], 3: [40, 0]}) == {
        1: 1,
        2: 1,
        3: 3,
    }


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ({1: 1, 2: 2, 3: 3, 4: 4}, {1: 3, 2: 2, 3: 1, 4: 0}),
        ({1: 1, 2: 1, 3: 3, 4: 4}, {1: 2.5, 2: 2.5, 3: 1, 4: 0}),
        ({1: 1, 2: 2, 3: 2, 4: 2}, {1: 3, 2: 1, 3: 1, 4: 1}),
        ({1: 1, 2: 1, 3: 1, 4: 1}, {1: 1.5, 2: 1.5, 3: 1.5, 4: 1.5}),
        ({1: 1, 2: 2, 3: 3}, {1: 3, 2: 1.5, 3: 0}),
        ({1: 1, 2: 2, 3: 2}, {1: 3, 2: 0.75, 3: 0.75}),
        ({1: 2, 2: 1}, {1: 0, 2: 3}),
        ({1: 1, 2: 1}, {1: 1.5, 2: 1.5}),
    ],
)
def test_it_shares_placing_points(places: dict[int, int], expected: dict[int, float]) -> None:
    assert placement_points(places) == {p: Fraction(v) for p, v in expected.items()}


def test_it_refuses_impossible_places() -> None:
    with pytest.raises(PairingError) as error:
        placement_points({1: 1, 2: 3})
    assert error.value.code == "bad-places"


def test_it_computes_every_tie_break_value() -> None:
    results = [
        GameResult.from_scores(1, {1: 90, 2: 60, 3: 30}, {1: [45, 45], 2: [35, 25], 3: [30, 0]}),
        GameResult.from_scores(1, {4: 50, 5: 70}, {4: [25, 25], 5: [40, 30]}),
        # 1 and 5 tie on 40; 5's best round (30) beats 1's (20).
        GameResult.from_scores(2, {1: 40, 5: 40}, {1: [20, 20], 5: [30, 10]}),
        # 2 and 3 share first place: (3 + 1.5) / 2 each.
        GameResult.from_scores(2, {2: 80, 3: 80, 4: 20}, {2: [40, 40], 3: [40, 40], 4: [20, 0]}),
    ]
    rows = standings(results)
    assert [(r.rank, r.player) for r in rows] == [(1, 5), (2, 2), (3, 1), (4, 3), (5, 4)]
    got = {
        r.player: (r.points, r.wins, r.relative_score, r.opponents_strength, r.best_round, r.games)
        for r in rows
    }
    assert got == {
        # points, wins, mean of score/table average, mean opponents' points, best round, games
        1: (3.0, 1, pytest.approx(1.25), pytest.approx(4.0), 45, 2),
        2: (3.75, 1, pytest.approx(7 / 6), pytest.approx(1.875), 40, 2),
        3: (2.25, 1, pytest.approx(11 / 12), pytest.approx(2.625), 40, 2),
        4: (0.0, 0, pytest.approx(7 / 12), pytest.approx(4.0), 25, 2),
        5: (6.0, 2, pytest.approx(13 / 12), pytest.approx(1.5), 40, 2),
    }


def test_it_breaks_a_points_tie_on_wins_before_relative_score() -> None:
    results = [
        GameResult(1, {1: 61, 2: 60, 3: 20, 4: 19}, {1: 1, 2: 2, 3: 3, 4: 4}),
        GameResult(2, {1: 3, 2: 98, 3: 99, 4: 100}, {1: 4, 2: 3, 3: 2, 4: 1}),
    ]
    rows = standings(results)
    # Everyone has 3 points; 4 and 1 won a game. Relative scores (own / table average):
    # 4: (19/40 + 100/75) / 2, 1: (61/40 + 3/75) / 2,
    # 2: (60/40 + 98/75) / 2, 3: (20/40 + 99/75) / 2.
    assert [(r.player, r.points, r.wins) for r in rows] == [
        (4, 3.0, 1),
        (1, 3.0, 1),
        (2, 3.0, 0),
        (3, 3.0, 0),
    ]
    assert [r.relative_score for r in rows] == pytest.approx(
        [0.90417, 0.7825, 1.40333, 0.91], abs=1e-5
    )
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_it_falls_through_to_opponents_strength_and_best_round() -> None:
    # 1 and 2 each win a 2-player game 60-40 (same points, wins and relative score).
    # 1 beat 3, who then won again; 2 beat 4, who then lost again: 1 met the stronger field.
    results = [
        GameResult.from_scores(1, {1: 60, 3: 40}),
        GameResult.from_scores(1, {2: 60, 4: 40}),
        GameResult.from_scores(2, {3: 60, 5: 40}),
        GameResult.from_scores(2, {6: 60, 4: 40}),
    ]
    rows = {r.player: r for r in standings(results)}
    assert rows[1].opponents_strength == 3.0
    assert rows[2].opponents_strength == 0.0
    assert rows[1].rank < rows[2].rank
    # With opponents' strength left out the next tie-break, best round, is level too: shared.
    shared = {
        r.player: r.rank
        for r in standings(results, order=("points", "wins", "relative_score", "best_round"))
    }
    assert shared[1] == shared[2]


def test_it_shares_a_rank_when_everything_is_level() -> None:
    results = [
        GameResult.from_scores(1, {1: 50, 2: 50}),
        GameResult.from_scores(1, {3: 30, 4: 70}),
    ]
    rows = standings(results, players=[1, 2, 3, 4, 9])
    assert [(r.player, r.rank) for r in rows] == [(4, 1), (1, 2), (2, 2), (3, 4), (9, 5)]
    late = rows[-1]
    assert (late.points, late.games, late.relative_score) == (0.0, 0, 0.0)


def test_tournament_best_round_is_a_round_not_a_game_total() -> None:
    """A game of 40 + 36 + 38 + 34 = 148 has a best round of 40; a game without rounds adds none."""
    results = [
        GameResult.from_scores(1, {1: 148, 2: 100}, {1: [40, 36, 38, 34], 2: [25, 25, 25, 25]}),
        GameResult.from_scores(2, {1: 60, 2: 61}),
    ]
    best = {r.player: r.best_round for r in standings(results)}
    assert best == {1: 40, 2: 25}


@pytest.mark.parametrize(
    ("places", "others", "expected"),
    [
        # Third of four behind two AI players: a third's point, not a win's three.
        ({1: 3, 2: 4}, [1, 2], {1: 1, 2: 0}),
        # Sharing first with an AI player: half of first and second.
        ({1: 1, 2: 3}, [1, 4], {1: 2.5, 2: 1}),
        ({1: 1}, [2, 3, 4], {1: 3}),
    ],
)
def test_ai_players_take_their_places_and_no_points(
    places: dict[int, int], others: list[int], expected: dict[int, float]
) -> None:
    assert placement_points(places, others=others) == {p: Fraction(v) for p, v in expected.items()}


def test_a_table_s_ai_players_count_in_its_average_and_are_nobody_s_opponent() -> None:
    """Players 1 and 2 finish third and fourth behind two AI players (38 and 28)."""
    result = GameResult(
        round=1, scores={1: 15, 2: 6}, places={1: 3, 2: 4}, stand_ins=[(1, 38), (2, 28)]
    )
    rows = {r.player: r for r in standings([result])}
    assert (rows[1].points, rows[1].wins, rows[1].games) == (1, 0, 1)
    assert rows[1].relative_score == pytest.approx(15 / ((15 + 6 + 38 + 28) / 4))
    assert rows[2].points == 0
    assert rows[1].opponents_strength == 0  # player 2's points: the AI players have none
