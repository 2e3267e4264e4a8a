"""Views: ann (seat 0) sees her own hand and tasks; bob and spectators see only what is public."""

from __future__ import annotations

import json
import random

from games.ctg.engine import Options, determinize, new_game, public_view, view
from games.ctg.engine.cards import task_text
from games.ctg.engine.state import DRAW1

from .helpers import NAMES, act, deck_with, put


def test_it_shows_a_seat_its_own_hand_and_tasks_only() -> None:
    s = new_game(
        Options(2, 3, frozenset({"imperial-tasks"})),
        NAMES[:2],
        seed=1,
        tasks=[["A7", "B12", "C18"], ["A6", "B9", "C20"]],
    )
    put(s, hands={0: {20: 2, 6: 1}, 1: {18: 3}}, x1=[7, 9], x2=[8], phase=DRAW1)
    ann, bob = view(s, 0), view(s, 1)
    assert ann["hand"] == {"6": 1, "20": 2} and ann["tasks"] == ["A7", "B12", "C18"]
    assert bob["hand"] == {"18": 3} and bob["tasks"] == ["A6", "B9", "C20"]
    assert ann["hand_sizes"] == bob["hand_sizes"] == [3, 3]
    assert ann["discard_piles"] == {"X1": [7, 9], "X2": [8]}
    assert ann["draw_piles"] == {"D1": 52, "D2": 52}
    assert ann["legal_texts"] == ["draw D1", "draw D2", "draw X1", "draw X2"]
    assert bob["legal_actions"] == [] and bob["decider"] == 0 and bob["pending"] == "draw"
    assert '"18"' not in json.dumps(ann)  # bob's monks appear nowhere in ann's view
    spectator = public_view(s)
    assert not {"hand", "tasks", "legal_actions", "seat"} & set(spectator)
    assert spectator["task_counts"] == [3, 3]


def test_it_tracks_cards_known_from_discard_piles() -> None:
    s = put(
        new_game(Options(2, 1), NAMES[:2], seed=1), hands={0: {20: 2}}, x1=[20], x2=[9], phase=DRAW1
    )
    act(s, "draw X1")
    act(s, "draw X2")
    assert public_view(s)["known"][0] == {"9": 1, "20": 1}
    act(s, "lay 20 3")
    # Three farmers left the hand: the one others saw may be among them.
    assert public_view(s)["known"][0] == {"9": 1}


def test_it_lowers_known_counts_as_cards_of_the_type_leave() -> None:
    s = put(
        new_game(Options(2, 1), NAMES[:2], seed=1),
        hands={0: {20: 2}},
        x1=[20, 20],
        x2=[20],
        phase=DRAW1,
    )
    act(s, "draw X1")
    act(s, "draw X2")
    act(s, "discard 20 X2")  # X2 was drawn empty: the empty-pile rule
    assert public_view(s)["known"][0] == {"20": 1}


def test_it_shows_miniatures_and_the_pending_bury() -> None:
    s = put(
        new_game(Options(3, 4, frozenset({"ninja"})), NAMES[:3], seed=1),
        hands={0: {20: 4}},
        table={20: (1, 3), 14: (2, 3)},
        x1=[6],
        x2=[7],
        minis=[1, 0, 1],
    )
    act(s, "lay 20 4")
    v = public_view(s)
    assert v["bury"] == {"seat": 1, "type": 20, "count": 3, "then": "after-action"}
    assert v["decider"] == 1 and v["pending"] == "bury"
    assert v["miniatures"] == {
        "supply": 2,
        "held": [1, 0, 1],
        "ready": [1, 0, 1],
        "usable_now": False,
    }
    assert view(s, 1)["legal_texts"] == ["bury X1", "bury X2"]
    assert view(s, 0)["legal_texts"] == []


def test_it_determinizes_only_what_the_seat_cannot_see() -> None:
    s = new_game(
        Options(2, 3, frozenset({"imperial-tasks"})),
        NAMES[:2],
        seed=1,
        tasks=[["A7", "B12", "C18"], ["A6", "B9", "C20"]],
    )
    put(s, hands={0: {20: 2}, 1: {18: 3, 9: 1}}, x1=[9], x2=[8], phase=DRAW1)
    s.known[1][1] = 0
    s.known[1][3] = 1  # bob is known to hold a shogun
    seen = {tuple(s.hands[1]), tuple(sorted(task_text(c) for c in s.tasks[1]))}
    for k in range(20):
        d = determinize(s, 0, random.Random(k))
        assert view(d, 0) == view(s, 0)
        assert d.hands[0] == s.hands[0] and sum(d.hands[1]) == 4 and d.hands[1][3] >= 1
        bob_tasks = sorted(task_text(c) for c in d.tasks[1])
        assert [t[0] for t in bob_tasks] == ["A", "B", "C"]
        assert not {"A7", "B12", "C18"} & set(bob_tasks)
        seen.add(tuple(d.hands[1]))
        seen.add(tuple(bob_tasks))
    assert len(seen) > 4


def test_it_tells_the_seat_on_turn_the_cards_it_drew_this_turn() -> None:
    s = new_game(Options(2, 1), NAMES[:2], decks=[deck_with([6, 6, 6, 7, 7, 7, 18])])
    put(s, hands={0: {20: 2}}, x1=[9], x2=[8], phase=DRAW1)
    assert view(s, 0)["drawn"] == []
    act(s, "draw D1")  # D1's top card: the seventh of the deck, after the hands' six
    assert view(s, 0)["drawn"] == [18]
    act(s, "draw X1")
    assert view(s, 0)["drawn"] == [18, 9]
    # Only to the drawer: bob and spectators see what is public, the Monk nowhere.
    assert view(s, 1)["drawn"] == [] and "drawn" not in public_view(s)
    act(s, "discard 20 X1")  # X1 was drawn empty: the empty-pile rule
    assert view(s, 0)["drawn"] == [] and view(s, 1)["drawn"] == []  # bob's turn now
