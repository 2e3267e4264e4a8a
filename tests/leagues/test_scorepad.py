"""Score-pad checks (RULES.md §5–§7) on real rounds, and properties over random legal ones."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ctg.engine import Options, random_game, to_record
from games.ctg.engine.cards import TYPE_OF_VALUE
from games.ctg.engine.pad import (
    ROUND_MAX,
    TYPE_VALUES,
    check_round,
    decompositions,
    mask_types,
    placings,
    possible_bonuses,
)

NAMES = ["Ann", "Bob", "Cy", "Dee"]
TASKS = frozenset({"imperial-tasks"})
NINJA = frozenset({"ninja"})
# A random legal game (seed 39) whose first round pays a task bonus on a set of one card.
NINJA_GAME = Options(2, 3, TASKS | NINJA)


def codes(problems):
    return [(p.code, p.players) for p in problems]


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # The rules' worked example: 18+12+9+8+7+6 and 20+16.
        ([60, 36], []),
        ([36, 0], []),
        # Two players with 20 each: 20 and 6+14 (or 8+12).
        ([20, 20], []),
        ([20, 20, 20], []),
        ([20, 20, 20, 20], [("not-disjoint", (0, 1, 2, 3))]),
        # All nine types on the table: the most a round can hold.
        ([110, 0], [("too-many-types", (0,))]),
        ([60, 50], []),
        ([50, 40, 20], []),
        ([30, 30, 30, 20], []),
        ([99, 0], [("not-a-sum", (0,))]),
        ([5, 0], [("not-a-sum", (0,))]),
        ([11, 0, 0], [("not-a-sum", (0,))]),
        ([60, 51], [("over-110", (0, 1))]),
        # 6 and 7 are only themselves: two players cannot both have them.
        ([13, 13], [("not-disjoint", (0, 1))]),
        ([6, 6, 0], [("not-disjoint", (0, 1))]),
        # 4 players: at most 4 types each; 65 needs at least 5.
        ([65, 0, 0, 0], [("too-many-types", (0,))]),
        ([65, 0, 0], []),
        # 4 players, two at four types each would have ended the round earlier.
        ([30, 30, 0, 0], []),
        ([-1, 0], [("negative", (0,))]),
    ],
)
def test_it_checks_real_rounds(scores, expected):
    assert codes(check_round(1, scores)) == expected


def test_it_names_the_round_the_scores_and_why():
    (problem,) = check_round(3, [20, 20, 20, 20])
    message = problem.message(NAMES)
    assert message.startswith("Round 3: Ann's 20, Bob's 20, Cy's 20 and Dee's 20")
    assert "each type lies before at most one player" in message
    (problem,) = check_round(2, [12, 99])
    assert problem.message(NAMES).startswith("Round 2: Bob's 99 cannot be right")
    assert "not a sum of different card values" in problem.message(NAMES)


def test_it_allows_at_most_one_player_at_the_type_limit():
    # 49 = 7+12+14+16 and 53 = 6+9+18+20 need four types each: with 4 players the round
    # ended when the first of them laid a fourth type.
    assert codes(check_round(1, [49, 53, 0, 0])) == [("not-disjoint", (0, 1))]
    assert check_round(1, [49, 53, 0]) == []


def test_it_knows_which_scores_have_which_types():
    assert sorted(sorted(mask_types(m)) for m in decompositions(20)) == [[6, 14], [8, 12], [20]]
    assert decompositions(ROUND_MAX) and sum(TYPE_VALUES) == 110
    assert decompositions(111) == ()


@pytest.mark.parametrize(
    ("scores", "bonuses", "expected"),
    [
        ([20, 14, 0], [10, 0, 0], []),  # an A card on a set of two: 2 × 5
        ([20, 14, 0], [8, 12, 0], []),
        ([20, 14, 0], [7, 0, 0], [("bonus", (0,))]),  # no deck pays 7
        ([20, 14, 0], [0, 0, 6], [("bonus-without-types", (2,))]),
        ([20, 14], [11, 0], [("bonus", (0,))]),
        ([20, 14], [25, 0], []),  # 5 × 5, or 10 + 15
    ],
)
def test_it_checks_task_bonuses(scores, bonuses, expected):
    assert codes(check_round(1, scores, bonuses)) == expected


def test_it_bounds_the_bonus_by_reveals():
    # Two reveals: at most two sets pay, each at most 5 points × 20 cards.
    assert max(possible_bonuses(2)) == 200
    assert 1 not in possible_bonuses(4)


def test_it_accepts_a_task_bonus_on_a_set_a_ninja_cut_to_one_card():
    # Round 1 of NINJA_GAME: bob lays two 9s, ann's miniature takes one, and bob's own
    # reveal B9 pays him 4 × 1; ann's C14 pays her 3 × 2 for her two Ninjas.
    assert check_round(1, [88, 9], [6, 4], ninja=True) == []
    # Without the Ninja no set is ever below two cards, so 4 cannot be right.
    (problem,) = check_round(1, [88, 9], [6, 4])
    assert codes([problem]) == [("bonus", (1,))]
    assert "times a set of at least 2 cards" in problem.message(NAMES)
    (problem,) = check_round(1, [88, 9], [6, 2], ninja=True)
    assert "a Ninja miniature may leave one" in problem.message(NAMES)


def test_it_takes_the_ninja_case_from_a_real_game():
    state = random_game(NINJA_GAME, 39, ["ann", "bob"])
    actions = to_record(state)["rounds"][0]["actions"]
    assert "ann: ninja bob 9" in actions
    assert actions[-2:] == ["ann: reveal C14", "bob: reveal B9"]
    first = state.history[0]
    assert (first.scores, first.bonus) == ((94, 13), (6, 4))
    assert (1, TYPE_OF_VALUE[9], 1) in first.sets  # bob's 9s: one card left


@pytest.mark.parametrize(
    ("scores", "bonuses", "expected"),
    [
        ([88, 9], [6, 3], []),  # C9 on a single 9: 3 × 1
        ([88, 9], [6, 7], []),  # two reveals on single cards: 4 + 3
        ([88, 9], [6, 2], [("bonus", (1,))]),  # no deck pays 2, whatever the set
        ([20, 9, 0], [6, 1, 0], [("bonus", (1,))]),
        ([88, 0], [6, 4], [("bonus-without-types", (1,))]),
    ],
)
def test_it_checks_task_bonuses_with_the_ninja(scores, bonuses, expected):
    assert codes(check_round(1, scores, bonuses, ninja=True)) == expected


@pytest.mark.parametrize("variants", [TASKS, TASKS | NINJA], ids=["tasks", "tasks-ninja"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_accepts_every_round_the_engine_plays(players, variants):
    ninja = "ninja" in variants
    for seed in range(40):
        state = random_game(Options(players, 3, variants), seed)
        for round_no, played in enumerate(state.history, 1):
            sets = [s - b for s, b in zip(played.scores, played.bonus, strict=True)]
            problems = check_round(round_no, sets, list(played.bonus), ninja=ninja)
            assert problems == [], (seed, round_no, sets, played.bonus, played.sets)


@st.composite
def legal_rounds(draw):
    players = draw(st.sampled_from([2, 3, 4]))
    limit = {2: 6, 3: 5, 4: 4}[players]
    types = list(TYPE_VALUES)
    random.Random(draw(st.integers(0, 2**32))).shuffle(types)
    owners = [draw(st.integers(-1, players - 1)) for _ in types]
    hands = [[t for t, o in zip(types, owners, strict=True) if o == p] for p in range(players)]
    # Trim to the rules' limits: below the limit, except at most one player at it.
    full_taken = False
    for hand in hands:
        cap = limit if not full_taken else limit - 1
        del hand[cap:]
        full_taken = full_taken or len(hand) == limit
    return [sum(h) for h in hands]


@settings(max_examples=300, deadline=None)
@given(legal_rounds())
def test_it_accepts_every_legal_round(scores):
    assert check_round(1, scores) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 120), min_size=2, max_size=4))
def test_it_never_accepts_more_than_a_round_holds(scores):
    if sum(scores) > ROUND_MAX:
        assert check_round(1, scores)


@pytest.mark.parametrize(
    ("rounds", "expected"),
    [
        ([[60], [36]], [1, 2]),
        ([[30, 30], [40, 20]], [2, 1]),  # 60 each: best round 40 wins
        ([[30, 30], [30, 30], [20, 10]], [1, 1, 3]),
        ([[20, 20, 10], [20, 15, 15], [30, 0, 20]], [2, 3, 1]),
        ([[20, 20, 10], [25, 15, 10]], [2, 1]),
    ],
)
def test_it_places_players_with_the_rules_tie_breaks(rounds, expected):
    assert placings(rounds) == expected
