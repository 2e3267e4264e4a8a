"""What each seat and the public see (§3.8, §6): hands are public, commitments are not.

Personas: ann is the wizard; bob, cy and dee play; a spectator gets the public view.
"""

from __future__ import annotations

import json

from games.orc.engine import State, public_view, view
from games.orc.engine.cards import INDEX

from .helpers import act, acts, after_recruitment, game, to_battle


def test_it_shows_the_piles_and_player_cards_of_the_deal() -> None:
    s = game(4, first=["GI", "TR"], start_after=30)
    acts(s, ["bob: desert P1 @1", "cy: desert P2 @1"])
    s.deal(12)
    p = public_view(s)
    # The rest of the deck is in code order: seven B2, then B6 from k = 10 on.
    assert p["deal"]["piles"][0] == ["GI", "desert:bob", "B6"]
    assert p["deal"]["piles"][1] == ["desert:cy", "TR", "B6"]
    assert p["deal"]["piles"][2] == ["B2", "B6"] and p["deal"]["piles"][3] == ["B2"]
    assert p["deal"]["dealt"] == 12 and p["deal"]["start_after"] is None
    assert [pl["deserters"] for pl in p["players"]] == [0, 1, 1, 2]


def test_it_shows_the_start_point_only_once_the_start_card_is_down() -> None:
    s = game(4, start_after=40)
    s.deal(39)
    assert public_view(s)["deal"]["start_after"] is None
    s.deal(40)
    assert public_view(s)["deal"]["start_after"] == 40


def test_it_gives_the_deal_options_to_each_player_and_none_to_the_wizard() -> None:
    s = game(4, start_after=40)
    s.deal(5)
    bob = view(s, 1)["recruit"]
    assert bob["desert_from"] == 5 and bob["piles"] == 9
    assert view(s, 0)["recruit"] is None
    s.deal(40)
    assert view(s, 1)["recruit"]["shield_from"] == 40


def test_it_hides_the_start_point_from_every_seat_until_the_start_card_is_down() -> None:
    s = game(4, start_after=40)
    s.deal(39)
    assert all(view(s, seat)["recruit"]["shield_from"] is None for seat in (1, 2, 3))


def test_it_shows_every_hand_to_everyone() -> None:
    s = after_recruitment(4, {1: ["GI", "B2", "SP1"], 2: ["M6", "GR"]})
    p = public_view(s)
    assert p["players"][1]["hand"] == {"B2": 1, "GI": 1, "SP1": 1}
    assert p["players"][2]["hand"] == {"M6": 1, "GR": 1}
    assert view(s, 3)["players"] == p["players"]


def hidden_pair() -> tuple[State, State]:
    """The same battle where bob committed a giant, or a troll, with the other in hand."""
    one = to_battle(4, {1: ["GI", "TR", "B2"], 2: ["GR"], 3: ["M2"]})
    other = to_battle(4, {1: ["GI", "TR", "B2"], 2: ["GR"], 3: ["M2"]})
    act(one, "bob: send GI")
    act(other, "bob: send TR")
    return one, other


def test_it_hides_which_cards_were_committed_until_the_reveal() -> None:
    one, other = hidden_pair()
    p = public_view(one)
    bob = p["players"][1]
    assert bob["committed"] == {"people": 1, "mercenary": 1}
    assert bob["hand"] == {"B2": 1, "GI": 1, "TR": 1} and bob["army"] is None
    assert bob["strength"] is None
    assert p == public_view(other)
    for seat in (0, 2, 3):
        assert view(one, seat) == view(other, seat)
    assert view(one, 1)["my_army"] == {"B2": 1, "GI": 1}
    assert view(other, 1)["my_army"] == {"B2": 1, "TR": 1}


def test_it_shows_the_armies_after_the_reveal() -> None:
    s = to_battle(4, {1: ["FM", "GR", "B6"], 2: ["B2", "TR"]})
    acts(s, ["bob: send", "cy: send TR"])
    assert s.pending == "fly"
    p = public_view(s)
    assert p["players"][2]["army"] == {"B2": 1, "TR": 1} and p["players"][2]["strength"] == 7
    assert p["players"][1]["committed"] is None


def test_it_lists_the_options_to_the_decider_alone() -> None:
    s = to_battle(4, {1: ["CG"], 2: ["B2", "GI"], 3: ["B6"]})
    act(s, "cy: send GI")
    assert s.decider == 1
    assert view(s, 1)["legal"] == [
        "commando pass",
        "commando cy people",
        "commando cy mercenary",
        "commando dee people",
    ]
    assert view(s, 2)["legal"] == [] and "legal" not in public_view(s)


def test_it_keeps_views_json_safe_and_counts_set_aside_cards() -> None:
    s = to_battle(4, {1: ["GI", "GI"], 2: ["B2"]})
    p = public_view(s)
    assert json.loads(json.dumps(p)) == p
    # Bob's two giants left (§3.10): everything not in a hand is set aside.
    assert p["set_aside"]["GI"] == 6 and s.aside[INDEX["GI"]] == 6


def test_it_reads_a_pile_as_the_deals_end_would() -> None:
    from games.orc.engine import pile_outcome

    # The lowest shield takes; a deserter removes the army card under it, past shields.
    assert pile_outcome(["GI", "shield:bob", "desert:cy", "B2", "shield:dee"]) == ("bob", [0])
    # A deserter on a deserter, or on an empty pile, removes nothing.
    assert pile_outcome(["desert:bob", "TR", "desert:cy", "desert:dee"]) == (None, [1])
    assert pile_outcome([]) == (None, [])
    assert pile_outcome(["M6", "B2", "desert:cy", "shield:cy", "shield:bob"]) == ("cy", [1])
