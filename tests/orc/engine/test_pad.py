"""§7: the score pad of a game played at the table.

Personas: ann, bob, cy and dee at a physical table; ann deals first.
"""

from __future__ import annotations

import pytest

from games.orc.engine import PadError, PadRound, result, score_pad
from games.orc.engine.playout import random_game

from .helpers import NAMES

P4 = list(NAMES[:4])


def rnd(wizard: str, champion: str, *battles: tuple[str, ...]) -> PadRound:
    return PadRound(wizard, champion, tuple(battles))


# Round 1: bob wins everything (6) and ann scores with him; round 2: cy and dee share.
GAME = [
    rnd("ann", "bob", ("bob",), ("bob",), ("bob",), ("bob",)),
    rnd("bob", "cy", ("cy", "dee"), (), ("ann",), ("cy",)),
]


def test_it_adds_up_each_round_with_the_wizard_scoring_his_champions_points() -> None:
    pad = score_pad(P4, GAME)
    assert pad["rounds"][0]["scores"] == {"ann": 6, "bob": 6, "cy": 0, "dee": 0}
    assert pad["rounds"][1]["scores"] == {"ann": 1, "bob": 4, "cy": 4, "dee": 2}
    assert pad["totals"] == {"ann": 7, "bob": 10, "cy": 4, "dee": 2}
    assert pad["placings"] == {"bob": 1, "ann": 2, "cy": 3, "dee": 4}
    assert [b["points"] for b in pad["rounds"][1]["battles"]] == [2, 1, 1, 2]


@pytest.mark.parametrize(
    ("rounds", "round_no", "rule"),
    [
        ([rnd("zed", "bob", (), (), (), ())], 1, "§7"),
        ([rnd("ann", "ann", ("bob",), ("bob",), ("bob",), ("bob",))], 1, "§3.7"),
        ([rnd("ann", "zed", ("bob",), ("bob",), ("bob",), ("bob",))], 1, "§3.7"),
        ([rnd("ann", "bob", ("ann",), ("bob",), ("bob",), ("bob",))], 1, "§4"),
        ([rnd("ann", "bob", ("bob", "bob"), ("bob",), ("bob",), ("bob",))], 1, "§4.7"),
        ([rnd("ann", "bob", ("bob",), ("bob",), ("bob",))], 1, "§4"),
        ([GAME[0], rnd("cy", "bob", (), (), (), ("bob",))], 2, "§2"),
        ([*GAME, rnd("cy", "bob", (), (), (), ())], 3, "§5"),
        ([rnd("ann", "bob", (), (), (), ("bob",))], 1, "§5"),
    ],
)
def test_it_refuses_a_pad_that_breaks_a_rule(
    rounds: list[PadRound], round_no: int, rule: str
) -> None:
    with pytest.raises(PadError) as info:
        score_pad(P4, rounds)
    assert info.value.round == round_no and info.value.reason.startswith(rule)


def test_it_agrees_with_the_engine_on_a_whole_game() -> None:
    for players, seed in [(4, 1), (5, 2), (6, 3), (7, 4)]:
        game = result(random_game(players, seed))
        names = list(game["totals"])
        entered = [
            PadRound(r["wizard"], r["champion"], tuple(tuple(b["winners"]) for b in r["battles"]))
            for r in game["rounds"]
        ]
        pad = score_pad(names, entered)
        assert pad["totals"] == game["totals"] and pad["placings"] == game["placings"]
        assert [r["scores"] for r in pad["rounds"]] == [r["scores"] for r in game["rounds"]]


def test_a_pad_being_entered_may_stop_before_the_target() -> None:
    pad = score_pad(P4, GAME[:1], finished=False)
    assert pad["unfinished"] is True and "placings" not in pad
    assert pad["totals"] == {"ann": 6, "bob": 6, "cy": 0, "dee": 0}
    assert score_pad(P4, [], finished=False)["rounds"] == []
    # Once the target is reached it is over, finished or not.
    assert score_pad(P4, GAME, finished=False)["placings"]["bob"] == 1
    with pytest.raises(PadError) as info:
        score_pad(P4, [*GAME, rnd("cy", "bob", (), (), (), ())], finished=False)
    assert (info.value.round, info.value.code) == (3, "ended")


@pytest.mark.parametrize(
    ("rounds", "code", "params"),
    [
        ([rnd("zed", "bob", (), (), (), ())], "wizard", {}),
        ([rnd("ann", "ann", (), (), (), ())], "champion", {}),
        ([rnd("ann", "bob", (), (), ("ann",), ())], "winner", {"battle": 3}),
        ([rnd("ann", "bob", (), ("cy", "cy"), (), ())], "twice", {"battle": 2}),
        ([GAME[0], rnd("cy", "bob", (), (), (), ())], "rotation", {"wizard": "bob"}),
        ([GAME[0]], "unfinished", {"target": 8}),
    ],
)
def test_each_refusal_has_a_code_and_its_numbers(rounds, code, params) -> None:
    with pytest.raises(PadError) as info:
        score_pad(P4, rounds)
    assert (info.value.code, info.value.params) == (code, params)
