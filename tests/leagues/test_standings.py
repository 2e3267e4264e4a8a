"""Points schemes and tie-breaks of league tables."""

from fractions import Fraction as F

import pytest

from leagues.standings import Game, Seat, game_points, table


def game(*seats):
    """seats: (player, place, rounds...)"""
    return Game(tuple(Seat(p, place, tuple(rounds)) for p, place, *rounds in seats))


@pytest.mark.parametrize(
    ("scheme", "places", "expected"),
    [
        ("fair", [1, 2, 3, 4], [3, 2, 1, 0]),
        ("fair", [1, 2, 3], [3, F(3, 2), 0]),
        ("fair", [1, 2], [3, 0]),
        ("fair", [1, 1, 3, 4], [F(5, 2), F(5, 2), 1, 0]),
        ("fair", [1, 2, 2], [3, F(3, 4), F(3, 4)]),
        ("fair", [1, 1], [F(3, 2), F(3, 2)]),
        ("fair", [1, 1, 1], [F(3, 2), F(3, 2), F(3, 2)]),
        ("winner", [1, 2, 3], [1, 0, 0]),
        ("winner", [1, 1, 3, 4], [F(1, 2), F(1, 2), 0, 0]),
        ("borda", [1, 2, 3, 4], [3, 2, 1, 0]),
        ("borda", [1, 2, 3], [2, 1, 0]),
        ("borda", [1, 2, 2], [2, F(1, 2), F(1, 2)]),
    ],
)
def test_it_gives_placement_points_and_shares_ties(scheme, places, expected):
    assert game_points(scheme, places) == expected


def test_it_counts_games_wins_average_best_round_and_form():
    rows = table(
        [
            game(("ann", 1, 40, 30), ("bob", 2, 20, 20), ("cy", 3, 10, 10)),
            game(("ann", 2, 30), ("bob", 1, 50)),
        ],
        participants=["ann", "bob", "cy", "dee"],
    )
    by = {r.player: r for r in rows}
    assert by["ann"].points == 3 and by["bob"].points == F(9, 2)
    # bob leads on points: 1.5 + 3
    assert rows[0].player == "bob"
    assert by["ann"].games == 2 and by["ann"].wins == 1
    assert by["ann"].average == F(70 + 30, 2)
    assert by["ann"].best_round == 40
    assert by["ann"].form == [(2, 2), (1, 3)]
    # table averages: 130/3 and 40
    assert by["ann"].ratio == (F(70) / F(130, 3) + F(30) / 40) / 2
    assert by["dee"].games == 0 and by["dee"].position == 4


def test_it_keeps_only_the_last_five_in_form():
    games = [game(("ann", 1 + i % 2, 10), ("bob", 2 - i % 2, 8)) for i in range(7)]
    by = {r.player: r for r in table(games)}
    assert by["ann"].form == [(1, 2), (2, 2), (1, 2), (2, 2), (1, 2)]


def test_it_breaks_ties_on_wins_before_ratio():
    # ann: a win and a last (3 + 0); bob: two seconds (1.5 + 1.5)
    rows = table(
        [
            game(("ann", 1, 30), ("bob", 2, 29), ("cy", 3, 0)),
            game(("ann", 3, 0), ("bob", 2, 40), ("cy", 1, 41)),
        ]
    )
    by = {r.player: r for r in rows}
    assert by["ann"].points == by["bob"].points == 3
    assert by["ann"].position < by["bob"].position


def test_it_breaks_ties_on_score_ratio():
    # Equal points and wins; bob scored more relative to his tables.
    rows = table(
        [
            game(("ann", 1, 30), ("x", 2, 29)),
            game(("bob", 1, 60), ("y", 2, 10)),
        ]
    )
    assert [r.player for r in rows[:2]] == ["bob", "ann"]
    assert rows[0].position == 1 and rows[1].position == 2


def test_it_uses_head_to_head_among_the_tied_only():
    # ann and bob: equal points, wins and ratio; ann beat bob when they met.
    games = [
        game(("ann", 1, 30), ("bob", 2, 10)),
        game(("bob", 1, 30), ("cy", 2, 10)),
        game(("cy", 1, 30), ("ann", 2, 10)),
    ]
    rows = table(games, tie_breaks=["points", "wins", "h2h"])
    # A perfect cycle: everyone 3 points, 1 win, and 1 head-to-head win: all share 1st.
    assert [r.position for r in rows] == [1, 1, 1]
    games.append(game(("ann", 1, 15), ("bob", 2, 14)))
    games.append(game(("bob", 1, 20), ("cy", 2, 5)))
    rows = table(games, tie_breaks=["points", "wins", "h2h"])
    by = {r.player: r for r in rows}
    # ann and bob tie on 6 points and 2 wins; ann beat bob both times they met.
    assert by["ann"].points == by["bob"].points == 6
    assert by["ann"].position == 1 and by["bob"].position == 2 and by["cy"].position == 3


def test_it_breaks_remaining_ties_on_best_round_then_shares():
    games = [
        game(("ann", 1, 40), ("x", 2, 0)),
        game(("bob", 1, 20, 20), ("y", 2, 0, 0)),
        game(("cy", 1, 20, 20), ("z", 2, 0, 0)),
    ]
    rows = table(games, tie_breaks=["points", "wins", "best_round"])
    assert [(r.player, r.position) for r in rows[:3]] == [("ann", 1), ("bob", 2), ("cy", 2)]


def test_it_follows_the_chosen_tie_break_order():
    games = [
        game(("ann", 1, 20, 20), ("x", 2, 10, 10)),
        game(("bob", 1, 50), ("y", 2, 0)),
    ]
    assert table(games, tie_breaks=["points", "best_round"])[0].player == "bob"
    assert table(games, tie_breaks=["points", "ratio"])[0].player == "bob"
    assert table(games, tie_breaks=["points", "average"])[0].player == "bob"
    assert table(games, tie_breaks=["points"])[0].position == 1
    assert table(games, tie_breaks=["points"])[1].position == 1
