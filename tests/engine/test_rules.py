"""Every rule and ruling of RULES.md, one table or case at a time.

Personas: ann (seat 0) starts round 1, then bob, cy, dee clockwise.
"""

from __future__ import annotations

import pytest

from games.ctg.engine import IllegalAction, Options, State, new_game, parse_action
from games.ctg.engine.state import (
    ACT,
    AFTER,
    BURY,
    DRAW1,
    OVER,
    REVEAL,
    RoundResult,
    next_start,
    placings,
)

from .helpers import NAMES, act, deck_with, game, hand, legal, piles, put, table

# ---------------------------------------------------------------- setup (§2, §3)


@pytest.mark.parametrize(("players", "d1", "d2"), [(2, 52, 52), (3, 51, 50), (4, 49, 49)])
def test_it_splits_the_draw_piles(players: int, d1: int, d2: int) -> None:
    assert game(players).draw_pile_sizes() == (d1, d2)


def test_it_deals_one_card_at_a_time_from_the_start_player() -> None:
    deck = deck_with([6, 7, 8, 9, 12, 14, 16, 18, 20])
    s = new_game(Options(3, 1), NAMES[:3], decks=[deck])
    assert hand(s, 0) == {6: 1, 9: 1, 16: 1}
    assert hand(s, 1) == {7: 1, 12: 1, 18: 1}
    assert hand(s, 2) == {8: 1, 14: 1, 20: 1}


def test_it_forms_d1_from_the_front_of_the_rest() -> None:
    deck = deck_with([6, 6, 6, 6, 6, 6, 20])
    s = new_game(Options(2, 1), NAMES[:2], decks=[deck])
    act(s, "draw D1")
    assert hand(s, 0)[20] == 1


@pytest.mark.parametrize(
    ("players", "rounds", "variants", "ok"),
    [
        (2, 4, (), True),
        (3, 1, (), True),
        (4, 4, ("ninja",), True),
        (2, 3, ("imperial-tasks",), True),
        (2, 3, (), False),
        (2, 4, ("imperial-tasks",), False),
        (5, 4, (), False),
        (1, 4, (), False),
        (2, 4, ("chess",), False),
    ],
)
def test_it_checks_the_options(
    players: int, rounds: int, variants: tuple[str, ...], ok: bool
) -> None:
    if ok:
        Options(players, rounds, frozenset(variants))
    else:
        with pytest.raises(ValueError):
            Options(players, rounds, frozenset(variants))


@pytest.mark.parametrize("names", [["ann", "ann"], ["ann", ""], ["a:b", "bob"], [" ann", "bob"]])
def test_it_refuses_bad_player_names(names: list[str]) -> None:
    with pytest.raises(ValueError):
        new_game(Options(2, 1), names, seed=1)


# ---------------------------------------------------------------- action 1 (§4)


def test_it_forces_the_second_draw_of_the_first_turn() -> None:
    s = game(2)
    assert legal(s) == ["draw D1", "draw D2"]
    assert act(s, "draw D1") == ["ann: draw D2"]
    assert s.phase == ACT


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        ("draw X1", "draw X1", "draw-same-pile"),
        ("draw D1", "draw D1", "draw-same-pile"),
        ("draw D1", "draw X2", "draw-empty-pile"),
    ],
)
def test_it_refuses_bad_draws(first: str, second: str, code: str) -> None:
    s = put(game(2), x1=[6, 7], x2=[], phase=DRAW1)
    act(s, first)
    with pytest.raises(IllegalAction) as e:
        act(s, second)
    assert e.value.code == code
    assert "§4 Action 1" in e.value.message


def test_it_shows_a_card_drawn_from_a_discard_pile() -> None:
    s = put(game(2), x1=[6, 20], x2=[7], phase=DRAW1)
    act(s, "draw X1")
    assert s.known[0][8] == 1
    act(s, "draw D1")
    act(s, "discard 20 X1")
    assert s.known[0][8] == 0


@pytest.mark.parametrize("text", ["lay 20 2", "discard 20 X1"])
def test_it_refuses_action_2_before_drawing(text: str) -> None:
    s = put(game(2), hands={0: {20: 3}}, x1=[6], x2=[7], phase=DRAW1)
    with pytest.raises(IllegalAction) as e:
        act(s, text)
    assert e.value.code == "draw-first"


# ---------------------------------------------------------------- action 2a (§4)


@pytest.mark.parametrize(
    ("players", "held", "on_table", "text", "code"),
    [
        (2, {12: 2}, {}, "lay 12 2", None),
        (3, {12: 2}, {}, "lay 12 2", "set-three-dots"),
        (4, {16: 3}, {}, "lay 16 2", "set-three-dots"),
        (3, {14: 3}, {}, "lay 14 3", None),
        (4, {20: 2}, {}, "lay 20 2", None),
        (2, {20: 2}, {}, "lay 20 1", "set-too-small"),
        (2, {20: 2}, {}, "lay 20 3", "not-in-hand"),
        (2, {20: 3}, {20: (1, 3)}, "lay 20 3", "set-not-larger"),
        (2, {20: 4}, {20: (1, 3)}, "lay 20 4", None),
        (2, {20: 4}, {20: (0, 3)}, "lay 20 3", "set-not-larger"),
        (2, {20: 4}, {20: (0, 3)}, "lay 20 4", None),
    ],
)
def test_it_applies_the_set_rules(
    players: int,
    held: dict[int, int],
    on_table: dict[int, tuple[int, int]],
    text: str,
    code: str | None,
) -> None:
    s = put(game(players), hands={0: held}, table=on_table, x1=[6], x2=[7])
    if code is None:
        act(s, text)
        v, n = int(text.split()[1]), int(text.split()[2])
        assert table(s)[v] == (0, n)
    else:
        with pytest.raises(IllegalAction) as e:
            act(s, text)
        assert e.value.code == code
        assert e.value.message.startswith("§4 2a")


def test_it_names_the_rule_for_three_dots() -> None:
    s = put(game(3), hands={0: {12: 2}}, x1=[6], x2=[7])
    with pytest.raises(IllegalAction) as e:
        act(s, "lay 12 2")
    assert e.value.message == "§4 2a: a set of 12 needs at least 3 cards with 3 or 4 players"


def test_it_lets_the_owner_choose_where_a_displaced_set_goes() -> None:
    s = put(game(3), hands={0: {20: 4}}, table={20: (2, 3)}, x1=[6], x2=[7])
    act(s, "lay 20 4")
    assert s.phase == BURY and s.decider == 2
    assert legal(s) == ["bury X1", "bury X2"]
    with pytest.raises(IllegalAction) as e:
        s.apply(parse_action("bury X1", s.names), seat=0)
    assert e.value.code == "not-your-decision"
    act(s, "bury X2")
    assert piles(s) == ([6], [7, 20, 20, 20])
    assert s.decider == 1 and s.phase == DRAW1


def test_it_makes_the_layer_bury_his_own_replaced_set() -> None:
    s = put(game(2), hands={0: {18: 3}}, table={18: (0, 2)}, x1=[6], x2=[7])
    act(s, "lay 18 3")
    assert s.decider == 0 and s.phase == BURY
    act(s, "bury X1")
    assert table(s) == {18: (0, 3)} and piles(s)[0] == [6, 18, 18]


def test_it_buries_automatically_when_the_empty_pile_rule_leaves_one_pile() -> None:
    s = put(game(2), hands={0: {20: 4}}, table={20: (1, 2)}, x1=[6], x2=[])
    assert act(s, "lay 20 4") == ["bob: bury X2"]
    assert piles(s) == ([6], [20, 20])


def test_it_allows_no_second_set_in_a_turn() -> None:
    s = put(
        game(2, variants=["ninja"]),
        hands={0: {20: 2, 18: 2}},
        table={6: (1, 2)},
        x1=[6],
        x2=[7],
        minis=[1, 0],
    )
    act(s, "lay 20 2")
    assert s.phase == AFTER
    with pytest.raises(IllegalAction) as e:
        act(s, "lay 18 2")
    assert e.value.code == "action2-done"


# ---------------------------------------------------------------- empty-pile rule (§4)


@pytest.mark.parametrize(
    ("started", "x1", "x2", "allowed"),
    [
        (0, [], [], ["X1"]),
        (1, [6], [], ["X2"]),
        (1, [], [], ["X2"]),  # X1 was drawn empty before the second discard: it still starts X2
        (2, [6], [], ["X2"]),
        (2, [], [6], ["X1"]),
        (2, [6], [7], ["X1", "X2"]),
        (2, [], [], ["X1", "X2"]),  # both drawn empty after both were started [ruling]
    ],
)
def test_it_applies_the_empty_pile_rule(
    started: int, x1: list[int], x2: list[int], allowed: list[str]
) -> None:
    s = put(game(2), hands={0: {20: 1, 9: 1}})
    s.xp = [[3] * len(x1), [3] * len(x2)]
    s.xstarted = started
    assert [t.split()[-1] for t in legal(s) if t.startswith("discard 20")] == allowed
    for pile in {"X1", "X2"} - set(allowed):
        with pytest.raises(IllegalAction) as e:
            act(s, f"discard 20 {pile}")
        assert e.value.code == "empty-pile-rule"


def test_it_starts_x1_then_x2() -> None:
    s = game(2, seed=3)
    act(s, "draw D1")
    (text,) = [t for t in legal(s) if t.startswith("discard")][:1]
    assert text.endswith("X1") and all(
        t.endswith("X1") for t in legal(s) if t.startswith("discard")
    )
    act(s, text)
    act(s, "draw D1")
    act(s, "draw D2")
    assert all(t.endswith("X2") for t in legal(s) if t.startswith("discard"))


# ---------------------------------------------------------------- end of round (§4)


@pytest.mark.parametrize(
    ("players", "types_before", "ends"),
    [(2, 4, False), (2, 5, True), (3, 3, False), (3, 4, True), (4, 2, False), (4, 3, True)],
)
def test_it_ends_the_round_on_enough_types(players: int, types_before: int, ends: bool) -> None:
    owned = {v: (0, 2) for v in (6, 7, 8, 9, 18)[:types_before]}
    s = put(game(players), hands={0: {20: 2}}, table=owned, x1=[6], x2=[7])
    act(s, "lay 20 2")
    assert (s.phase == OVER) == ends
    if ends:
        assert s.history[0].ended_by == "types"


@pytest.mark.parametrize(
    ("owned", "d_left", "ended_by"),
    [
        # 2 players: ann gets a 6th type, all nine lie out and D1 is empty: "types" first.
        ({6: 0, 7: 0, 8: 0, 9: 0, 12: 0, 14: 1, 16: 1, 18: 1}, (0, 5), "types"),
        ({6: 0, 7: 0, 8: 0, 9: 1, 12: 1, 14: 1, 16: 1, 18: 1}, (0, 5), "all-nine"),
        ({6: 0, 7: 0, 8: 0, 9: 1, 12: 1, 14: 1, 16: 1, 18: 1}, (5, 5), "all-nine"),
        ({6: 0}, (5, 0), "draw-pile"),
    ],
)
def test_it_names_the_first_end_condition(
    owned: dict[int, int], d_left: tuple[int, int], ended_by: str
) -> None:
    s = put(
        game(2),
        hands={0: {20: 2}},
        table={v: (o, 2) for v, o in owned.items()},
        x1=[6],
        x2=[7],
        d_left=d_left,
    )
    act(s, "lay 20 2")
    assert s.phase == OVER and s.history[0].ended_by == ended_by


def test_it_ignores_empty_discard_piles_for_the_end() -> None:
    s = put(game(2), hands={0: {20: 1}}, x1=[], x2=[7])
    act(s, "discard 20 X1")
    assert s.phase == DRAW1 and s.cur == 1


@pytest.mark.parametrize("use_miniature", [False, True])
def test_it_checks_the_end_only_when_the_turn_ends(use_miniature: bool) -> None:
    # ann's set completes all nine types; a miniature used after Action 2 can undo it.
    s = put(
        game(3, variants=["ninja"]),
        hands={0: {20: 2}},
        table={
            6: (0, 2),
            7: (0, 2),
            8: (1, 2),
            9: (1, 2),
            12: (1, 3),
            14: (2, 3),
            16: (2, 1),
            18: (2, 2),
        },
        x1=[6],
        x2=[7],
        minis=[1, 0, 0],
    )
    act(s, "lay 20 2")
    assert s.phase == AFTER and s.nowned == 9
    if use_miniature:
        act(s, "ninja cy 16")
        act(s, "bury X1")
        assert s.phase == DRAW1 and s.decider == 1
    else:
        act(s, "end")
        assert s.phase == OVER and s.history[0].ended_by == "all-nine"


# ---------------------------------------------------------------- scoring (§5, §6)


def test_it_scores_the_worked_example_60_to_36() -> None:
    s = put(
        game(2),
        hands={0: {6: 2}},
        table={18: (0, 3), 12: (0, 2), 9: (0, 4), 8: (0, 2), 7: (0, 2), 20: (1, 7), 16: (1, 3)},
        x1=[6],
        x2=[7],
    )
    act(s, "lay 6 2")
    assert s.history[0] == RoundResult(0, "types", (60, 36), (0, 0))
    assert s.totals == [60, 36]


def test_it_scores_values_not_cards_and_nothing_in_hand() -> None:
    s = put(
        game(2), hands={0: {9: 1}, 1: {20: 9}}, table={20: (0, 8)}, x1=[6], x2=[7], d_left=(0, 3)
    )
    act(s, "discard 9 X1")
    assert s.history[0].scores == (20, 0)


@pytest.mark.parametrize(
    ("totals", "last", "prev", "start"),
    [
        ([10, 5, 7], [10, 5, 7], 0, 1),  # fewest total points
        ([5, 5, 7], [5, 3, 7], 0, 1),  # tie: fewest points this round
        ([5, 5, 7], [3, 3, 7], 0, 1),  # still tied: first clockwise after the previous start
        ([5, 5, 7], [3, 3, 7], 1, 0),  # the previous start player comes last
        ([5, 7, 5, 5], [1, 1, 1, 1], 2, 3),
        ([5, 7, 5, 5], [1, 1, 1, 1], 3, 0),
    ],
)
def test_it_chooses_the_next_start_player(
    totals: list[int], last: list[int], prev: int, start: int
) -> None:
    assert next_start(totals, last, prev) == start


@pytest.mark.parametrize(
    ("rounds", "places"),
    [
        ([(50, 40, 30)], [1, 2, 3]),
        ([(50, 50, 30)], [1, 1, 3]),  # sport numbering
        ([(60, 40), (20, 40)], [1, 2]),  # tie on 80: highest single round wins
        ([(60, 40, 0), (20, 40, 80)], [2, 3, 1]),  # 80 each: 80 > 60 > 40 orders every place
        ([(30, 30), (20, 25), (10, 5)], [2, 1]),  # 60 each; best rounds 30 = 30, then 25 > 20
        ([(30, 20), (20, 30)], [1, 1]),  # all equal: shared
    ],
)
def test_it_places_players_with_the_tie_breaks(
    rounds: list[tuple[int, ...]], places: list[int]
) -> None:
    history = [RoundResult(0, "types", r) for r in rounds]
    totals = [sum(r[s] for r in rounds) for s in range(len(rounds[0]))]
    assert placings(history, totals) == places


def test_it_starts_the_next_round_with_the_lowest_scorer() -> None:
    s = put(
        game(2, rounds=4), hands={0: {20: 2}}, table={18: (1, 2)}, x1=[6], x2=[7], d_left=(0, 3)
    )
    act(s, "lay 20 2")
    assert s.round == 2 and s.start == 1 and s.decider == 1
    assert s.draw_pile_sizes() == (52, 52) and table(s) == {} and s.totals == [20, 18]


# ---------------------------------------------------------------- imperial tasks (§7)

TASKS = [["A7", "B12", "C18"], ["A6", "B9", "C20"], ["A9", "B16", "C14"]]


def test_it_scores_the_task_example_2_times_5() -> None:
    s = new_game(Options(3, 3, frozenset({"imperial-tasks"})), NAMES[:3], seed=5, tasks=TASKS)
    put(s, hands={0: {20: 1}}, table={7: (2, 2), 18: (0, 2)}, x1=[6], x2=[7], d_left=(0, 4))
    act(s, "discard 20 X1")
    assert s.phase == REVEAL and s.decider == 0
    assert legal(s) == ["reveal A7", "reveal B12", "reveal C18"]
    act(s, "reveal A7")
    assert s.bonus == [0, 0, 10]
    act(s, "reveal B9")
    act(s, "reveal C14")
    assert s.history[0].scores == (18, 0, 10 + 7)


def test_it_reveals_in_order_from_the_start_player_and_only_own_cards() -> None:
    s = new_game(Options(3, 3, frozenset({"imperial-tasks"})), NAMES[:3], seed=5, tasks=TASKS)
    put(s, hands={0: {20: 1}}, x1=[6], x2=[7], d_left=(0, 4))
    act(s, "discard 20 X1")
    with pytest.raises(IllegalAction) as e:
        s.apply(parse_action("reveal A6", s.names), seat=1)
    assert e.value.code == "not-your-decision"
    with pytest.raises(IllegalAction) as e:
        act(s, "reveal A6")
    assert e.value.code == "task-not-held"
    with pytest.raises(IllegalAction) as e:
        act(s, "draw D1")
    assert e.value.code == "reveal-pending"


def test_it_scores_a_task_per_card_of_the_set() -> None:
    s = new_game(Options(3, 3, frozenset({"imperial-tasks"})), NAMES[:3], seed=5, tasks=TASKS)
    put(s, hands={0: {20: 1}}, table={12: (1, 5), 20: (1, 3)}, x1=[6], x2=[7], d_left=(0, 4))
    act(s, "discard 20 X1")
    act(s, "reveal B12")  # 4 per card × 5 samurai for bob
    act(s, "reveal C20")  # 3 per card × 3 farmers for bob
    act(s, "reveal A9")
    assert s.history[0].scores == (0, 20 + 9 + 12 + 20, 0)


def test_it_reveals_the_last_task_card_automatically() -> None:
    s = new_game(Options(2, 3, frozenset({"imperial-tasks"})), NAMES[:2], seed=5, tasks=TASKS[:2])
    s.tasks = [[s.tasks[0][2]], [s.tasks[1][0]]]
    s.rnd = 2
    put(s, hands={0: {20: 1}}, x1=[6], x2=[7], d_left=(0, 4))
    forced = act(s, "discard 20 X1")
    assert forced == ["ann: reveal C18", "bob: reveal A6"]
    assert s.phase == OVER


def test_it_deals_one_task_of_each_deck_from_the_distribution() -> None:
    s = new_game(
        Options(4, 3, frozenset({"imperial-tasks"})),
        NAMES,
        seed=9,
        task_distribution={"A": (6, 7, 8, 9), "B": (6, 7, 8, 9), "C": (6, 7, 8, 9)},
    )
    for hand_ in s.tasks:
        assert sorted(c // 9 for c in hand_) == [0, 1, 2]
        assert all(c % 9 <= 3 for c in hand_)


# ---------------------------------------------------------------- the ninja (§8)


def ninja_game(players: int = 2) -> State:
    return game(players, rounds=4, variants=["ninja"])


def test_it_plays_the_ninja_example_with_2_players() -> None:
    s = game(2, rounds=4, variants=["ninja"])
    put(s, hands={0: {14: 2, 20: 2}, 1: {6: 1}}, table={18: (1, 4), 12: (1, 5)}, x1=[6], x2=[7])
    act(s, "lay 14 2")
    assert s.minis == [1, 0] and s.supply == 3
    assert s.decider == 1 and s.phase == DRAW1  # fresh miniature: no 'end' needed
    act(s, "draw D1")
    act(s, "draw D2")
    act(s, "discard 6 X1")
    assert "ninja bob 12" in legal(s) and "ninja bob 18" in legal(s)
    act(s, "ninja bob 12")
    assert s.decider == 1 and s.phase == BURY
    act(s, "bury X2")
    assert table(s)[12] == (1, 4) and s.minis == [0, 0] and s.supply == 4
    assert s.decider == 0 and s.phase == DRAW1
    act(s, "draw D1")
    act(s, "draw D2")
    act(s, "discard 20 X1")
    put(s, hands={1: {14: 3}}, phase=DRAW1, cur=1)
    act(s, "draw D1")
    act(s, "draw D2")
    act(s, "lay 14 3")
    assert s.decider == 0 and s.phase == BURY
    act(s, "bury X1")
    assert table(s)[14] == (1, 3) and s.minis == [0, 1]
    assert s.decider == 0  # bob's turn ended by itself: his miniature is fresh
    act(s, "draw D1")
    act(s, "draw D2")
    act(s, "discard 20 X1")
    assert s.decider == 1 and "ninja ann 14" not in legal(s)
    assert [t for t in legal(s) if t.startswith("ninja")] == []  # ann has no set left


def test_it_refuses_a_miniature_on_the_turn_it_was_taken() -> None:
    s = put(ninja_game(), hands={0: {14: 2, 20: 1}}, table={18: (1, 2)}, x1=[6], x2=[7])
    act(s, "lay 14 2")
    assert s.decider == 1
    s.cur, s.phase = 0, ACT  # pretend ann is still in that turn
    s.fresh = 1
    with pytest.raises(IllegalAction) as e:
        act(s, "ninja bob 18")
    assert e.value.code == "ninja-same-turn"


def test_it_takes_a_miniature_also_when_replacing_own_ninja_set() -> None:
    s = put(ninja_game(3), hands={0: {14: 4}}, table={14: (0, 3)}, x1=[6], x2=[7], minis=[0, 0, 0])
    act(s, "lay 14 4")
    act(s, "bury X1")
    assert s.minis == [1, 0, 0] and s.supply == 3


def test_it_takes_no_miniature_when_the_supply_is_empty() -> None:
    s = put(ninja_game(2), hands={0: {14: 2}}, x1=[6], x2=[7], minis=[0, 4])
    act(s, "lay 14 2")
    assert s.minis == [0, 4] and s.supply == 0


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("ninja ann 20", "ninja-own-set"),
        ("ninja bob 6", "ninja-no-set"),
    ],
)
def test_it_refuses_bad_miniature_targets(text: str, code: str) -> None:
    s = put(
        ninja_game(),
        hands={0: {9: 1}},
        table={20: (0, 2), 18: (1, 2)},
        x1=[6],
        x2=[7],
        minis=[1, 0],
    )
    with pytest.raises(IllegalAction) as e:
        act(s, text)
    assert e.value.code == code


def test_it_refuses_a_miniature_without_the_variant() -> None:
    s = put(game(2), hands={0: {9: 1}}, table={18: (1, 2)}, x1=[6], x2=[7])
    with pytest.raises(IllegalAction) as e:
        act(s, "ninja bob 18")
    assert e.value.code == "ninja-off"


def test_it_refuses_a_miniature_while_a_bury_waits() -> None:
    s = put(
        ninja_game(3),
        hands={0: {20: 4}},
        table={20: (1, 2), 18: (2, 2)},
        x1=[6],
        x2=[7],
        minis=[1, 0, 0],
    )
    act(s, "lay 20 4")
    assert s.phase == BURY
    assert all(not t.startswith("ninja") for t in legal(s))
    with pytest.raises(IllegalAction) as e:
        act(s, "ninja cy 18")
    assert e.value.code == "bury-pending"


def test_it_removes_a_set_reduced_to_nothing() -> None:
    s = put(
        ninja_game(), hands={0: {9: 1}}, table={6: (1, 1)}, x1=[6], x2=[], minis=[1, 0], phase=DRAW1
    )
    assert act(s, "ninja bob 6") == ["bob: bury X2"]  # the empty-pile rule forces X2
    assert table(s) == {} and s.phase == DRAW1 and s.decider == 0


def test_it_uses_current_sizes_after_a_miniature() -> None:
    s = put(ninja_game(), hands={0: {20: 3}}, table={20: (1, 3)}, x1=[6], x2=[7], minis=[1, 0])
    assert "lay 20 3" not in legal(s)
    act(s, "ninja bob 20")
    act(s, "bury X1")
    assert "lay 20 3" in legal(s)


def test_it_requires_end_only_while_a_miniature_is_usable() -> None:
    s = put(
        ninja_game(),
        hands={0: {9: 2}},
        table={20: (1, 3), 18: (1, 2)},
        x1=[6],
        x2=[7],
        minis=[2, 0],
    )
    act(s, "discard 9 X1")
    assert s.phase == AFTER and legal(s) == ["ninja bob 18", "ninja bob 20", "end"]
    act(s, "ninja bob 18")
    act(s, "bury X2")
    assert s.phase == AFTER
    act(s, "ninja bob 20")
    act(s, "bury X2")
    assert s.phase == DRAW1 and s.decider == 1  # no miniature left: the turn ended by itself
    with pytest.raises(IllegalAction) as e:
        act(s, "end")
    assert e.value.code == "end-not-now"


def test_it_keeps_miniatures_into_the_next_round() -> None:
    s = put(ninja_game(), hands={0: {14: 2}}, x1=[6], x2=[7], d_left=(0, 3))
    act(s, "lay 14 2")
    assert s.round == 2 and s.minis == [1, 0] and s.supply == 3
    assert s.fresh == 0


def test_it_lets_a_miniature_be_used_between_the_draws() -> None:
    s = put(
        ninja_game(),
        hands={0: {9: 1}},
        table={20: (1, 3)},
        x1=[6],
        x2=[7],
        minis=[1, 0],
        phase=DRAW1,
    )
    act(s, "draw D1")
    act(s, "ninja bob 20")
    act(s, "bury X1")
    assert s.pending == "second-draw" and "draw D1" not in legal(s)


# ---------------------------------------------------------------- turn order and errors


def test_it_refuses_a_player_out_of_turn() -> None:
    s = game(3)
    with pytest.raises(IllegalAction) as e:
        s.apply(parse_action("draw D1", s.names), seat=1)
    assert e.value.code == "not-your-turn" and "ann" in e.value.message


def test_it_refuses_actions_after_the_game() -> None:
    s = put(game(2), hands={0: {9: 1}}, x1=[6], x2=[7], d_left=(0, 3))
    act(s, "discard 9 X1")
    assert s.game_over and s.decider is None and legal(s) == []
    with pytest.raises(IllegalAction) as e:
        act(s, "draw D1")
    assert e.value.code == "game-over"
