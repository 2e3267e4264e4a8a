"""The AI decides from its seat's view: what others hide cannot change its choices.

Two tables that differ only in what a seat may not know -- the cards still to be dealt
and the start point before it shows, or which mercenaries another player committed face
down -- must get the same reactions and decisions from that seat.
"""

from __future__ import annotations

import pytest

from games.orc.ai import LEVELS, decide, react
from games.orc.engine import new_game, view
from tests.orc.engine.helpers import FULL, act, to_battle

NAMES = ("ann", "bob", "cy", "dee", "eve")
ALL = ["random", *LEVELS]


def two_decks(dealt: int) -> tuple[list[str], list[str]]:
    """Two decks alike in their first `dealt` cards and different after."""
    first = FULL[::-1]
    rest = first[dealt:]
    second = first[:dealt] + rest[::-1]
    assert first != second and first[:dealt] == second[:dealt]
    return first, second


@pytest.mark.parametrize("level", ALL)
def test_it_reacts_the_same_whatever_the_deck_still_holds(level: str) -> None:
    first, second = two_decks(40)
    reactions = 0
    for dealt in (10, 33, 40):
        # The start card comes later in one game than in the other: unseen by both at 33.
        a = new_game(NAMES, decks=[(first, 30 if dealt == 40 else 35)])
        b = new_game(NAMES, decks=[(second, 30 if dealt == 40 else 50)])
        a.deal(dealt)
        b.deal(dealt)
        for seat in range(1, 5):
            va, vb = view(a, seat), view(b, seat)
            # Nothing in a seat's view tells where the start card lies before it shows.
            assert va == vb
            for seed in range(20):
                ra = react(level, va, seed=seed)
                assert ra == react(level, vb, seed=seed)
                reactions += ra is not None
    assert reactions > 0


HANDS = {
    1: ["B6", "B2", "GI", "TR", "GR", "WM"],
    2: ["B6", "B2", "TR", "TR", "GR", "CG"],
    3: ["B2", "B2", "B2", "GR", "GR", "WM", "FM"],
    4: ["BC", "B2", "GR", "TR"],
}


@pytest.mark.parametrize("level", ALL)
def test_it_decides_the_same_whatever_others_committed_face_down(level: str) -> None:
    # bob sends first: a giant in one game, a troll in the other; cy cannot tell which.
    a = to_battle(5, HANDS, people="B")
    b = to_battle(5, HANDS, people="B")
    act(a, "bob: send GI")
    act(b, "bob: send TR")
    assert a.army[1] != b.army[1]
    assert a.decider == b.decider == 2
    va, vb = view(a, 2), view(b, 2)
    assert va == vb
    choices = {decide(level, va, seed=s, iterations=40) for s in range(8)}
    assert choices == {decide(level, vb, seed=s, iterations=40) for s in range(8)}
    # The commando's holder, after everyone sent, cannot tell either.
    for s in (a, b):
        act(s, "cy: send TR")
        act(s, "dee: send GR")
        act(s, "eve: send")
    assert a.pending == b.pending == "commando" and a.decider == 2
    va, vb = view(a, 2), view(b, 2)
    assert va == vb
    for seed in range(8):
        assert decide(level, va, seed=seed, iterations=40) == decide(
            level, vb, seed=seed, iterations=40
        )
