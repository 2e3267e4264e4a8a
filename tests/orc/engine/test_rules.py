"""Every rule and ruling of ORC-RULES.md, one table or case at a time.

Personas: ann (seat 0) is round 1's wizard; bob, cy and dee play (and eve, fay, gus in
bigger games). Unless a test says otherwise bob is ann's champion.
"""

from __future__ import annotations

import random

import pytest

from games.orc.engine import (
    Action,
    IllegalAction,
    NotationError,
    State,
    new_game,
    parse_action,
    parse_move,
    placings,
)
from games.orc.engine.cards import COPIES, N_CODES
from games.orc.engine.playout import random_game
from games.orc.engine.state import Battle, RoundResult, army_strength

from .helpers import (
    FULL,
    NAMES,
    act,
    acts,
    after_recruitment,
    counts,
    deck_with,
    game,
    hand,
    legal,
    place_shields,
    to_battle,
)


def refused(state: State, line: str, rule: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        act(state, line)
    assert rule in info.value.message, info.value.message
    return info.value


# ---------------------------------------------------------------- §1 components


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d[:-1], "80 army cards"),
        (lambda d: [*d[:-1], "GI"], "6 GI"),
        (lambda d: [*d[:-1], "XX"], "card codes"),
        (lambda d: ["SP1" if c == "GR" else c for c in d], "8 GR"),
    ],
)
def test_it_accepts_only_a_deck_of_the_80_army_cards(change: object, reason: str) -> None:
    deck = change(list(FULL))  # type: ignore[operator]
    with pytest.raises(ValueError, match=reason):
        new_game(NAMES[:4], decks=[(deck, 30)])


def test_it_accepts_the_80_cards_in_any_order() -> None:
    deck = list(FULL)
    random.Random(1).shuffle(deck)
    assert new_game(NAMES[:4], decks=[(deck, 30)]).pending == "recruit"


# ---------------------------------------------------------------- §2 a game


@pytest.mark.parametrize(("players", "ok"), [(3, False), (4, True), (7, True), (8, False)])
def test_it_seats_4_to_7_players(players: int, ok: bool) -> None:
    names = [*NAMES, "hal"][:players]
    if ok:
        assert new_game(names, seed=1).n == players
    else:
        with pytest.raises(ValueError, match="§2"):
            new_game(names, seed=1)


@pytest.mark.parametrize(("players", "piles"), [(4, 9), (5, 11), (6, 13), (7, 14)])
def test_it_lays_out_piles_per_player_count(players: int, piles: int) -> None:
    s = game(players, start_after=30)
    s.deal(30)
    assert legal(s, 1)[-1] == f"shield P{piles} @30"
    refused(s, f"bob: shield P{piles + 1} @30", "§2")
    refused(s, "bob: shield P0 @30", "§2")


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_it_passes_the_wizard_to_the_left_each_round(players: int) -> None:
    s = random_game(players, 11)
    assert [r.wizard for r in s.history] == [r % players for r in range(len(s.history))]


# ---------------------------------------------------------------- §3.1-3.6 the deal


def test_it_keeps_the_wizard_out_of_recruitment() -> None:
    s = game(4, start_after=27)
    refused(s, "ann: desert P1 @1", "§3.1")
    refused(s, "ann: shield P1 @30", "§3.1")
    assert s.recruit_options(0).deserters == 0 and 0 not in s.deciders()


@pytest.mark.parametrize(("players", "deserters"), [(4, 2), (5, 2), (6, 1), (7, 1)])
def test_it_hands_out_deserters_by_player_count(players: int, deserters: int) -> None:
    s = game(players)
    assert s.recruit_options(1).deserters == deserters
    for k in range(deserters):
        act(s, f"bob: desert P1 @{k + 1}")
    refused(s, f"bob: desert P1 @{deserters + 1}", "§3.1")


def test_it_deals_round_robin_onto_the_piles() -> None:
    from games.orc.engine.views import pile_contents

    s = game(4, first=["GI", "TR", "WM", "GR", "FM", "CG", "SP1", "SP2", "SP3", "SP4"])
    s.deal(10)
    assert pile_contents(s, 1) == ["GI", "SP4"]
    assert pile_contents(s, 2) == ["TR"] and pile_contents(s, 9) == ["SP3"]


@pytest.mark.parametrize(("start_after", "ok"), [(26, False), (27, True), (53, True), (54, False)])
def test_it_puts_the_start_card_after_27_to_53_cards(start_after: int, ok: bool) -> None:
    if ok:
        assert game(4, start_after=start_after).start_after == start_after
    else:
        with pytest.raises(ValueError, match=r"§3\.2"):
            game(4, start_after=start_after)


def test_it_draws_the_start_point_from_27_to_53() -> None:
    starts = {new_game(NAMES[:4], seed=seed).start_after for seed in range(300)}
    assert min(starts) >= 27 and max(starts) <= 53 and len(starts) > 20


def test_it_allows_deserters_from_the_first_card_even_on_an_empty_pile() -> None:
    s = game(4)
    refused(s, "bob: desert P1 @0", "§3.4")
    act(s, "bob: desert P5 @1")
    assert s.dealt == 1


def test_it_allows_shields_only_once_the_start_card_is_down() -> None:
    s = game(4, start_after=40)
    refused(s, "bob: shield P1 @39", "§3.5")
    assert s.recruit_options(1).shield_from == 40
    act(s, "bob: shield P1 @40")


def test_it_allows_both_shields_or_both_deserters_on_one_pile() -> None:
    s = game(4, start_after=30)
    acts(s, ["bob: desert P2 @3", "bob: desert P2 @3", "cy: shield P4 @30", "cy: shield P4 @31"])
    assert s.pile_cards[1] == [(3, 0, 1), (3, 0, 1)] and len(s.pile_cards[3]) == 2


def test_it_never_lets_the_deal_go_back() -> None:
    s = game(4)
    act(s, "bob: desert P1 @20")
    refused(s, "cy: desert P1 @19", "§8")
    with pytest.raises(IllegalAction):
        s.deal(10)


def test_it_stops_deserters_at_the_last_card_and_keeps_shields_due() -> None:
    s = game(4)
    refused(s, "bob: desert P1 @80", "§3.6")
    s.deal(80)
    refused(s, "bob: desert P1 @79", "§3.6")
    assert s.recruit_options(1).deserters == 0 and s.recruit_options(1).shields == 2
    assert s.deciders() == [1, 2, 3] and s.decider is None
    refused(s, "ann: champion bob", "§3.7")
    assert legal(s, 1)[0] == "shield P1 @80"


def test_it_places_a_late_shield_on_the_first_pile_without_one() -> None:
    s = game(4)
    s.deal(80)
    assert s.placing_default(1) == s.legal_actions(1)[0]
    acts(s, ["bob: shield P1 @80", "bob: shield P2 @80", "cy: shield P4 @80"])
    default = s.placing_default(2)
    assert default is not None and (default.pile, default.at) == (3, 80)
    assert s.placing_default(1) is None


def test_it_falls_back_to_pile_1_when_every_pile_has_a_shield() -> None:
    s = game(7)
    s.deal(80)
    # 12 shields cannot cover 14 piles in play; poke a shield onto every pile.
    s.pile_cards = [[(80, 1, 1)] for _ in range(s.npiles)]
    default = s.placing_default(2)
    assert default is not None and default.pile == 1


# ---------------------------------------------------------------- §3.7-3.8 enchantment, piles

SINGLES = ["FM", "CG", "SP1", "SP2", "SP3", "SP4"]  # on pile 1 at k = 1, 10, 19, 28, 37, 46


def pile1_deck() -> list[str]:
    rest = list(FULL)
    for c in SINGLES:
        rest.remove(c)
    deck = []
    for i in range(80):
        if i % 9 == 0 and i // 9 < len(SINGLES):
            deck.append(SINGLES[i // 9])
        else:
            deck.append(rest.pop(0))
    return deck


def resolve(lines: list[str]) -> tuple[dict[str, str], set[str]]:
    """Play `lines`, put every other shield on pile 9, name bob: where each single went."""
    s = new_game(NAMES[:4], decks=[(pile1_deck(), 27)])
    acts(s, lines)
    for seat in (1, 2, 3):
        for _ in range(s.sh_left[seat]):
            act(s, f"{NAMES[seat]}: shield P9 @80")
    act(s, "ann: champion bob")
    where = {c: NAMES[seat] for seat in range(4) for c in SINGLES if hand(s, seat).get(c)}
    return where, {c for c in SINGLES if c not in where}


@pytest.mark.parametrize(
    ("lines", "owner", "removed"),
    [
        # A deserter removes the army card directly below it.
        (["bob: desert P1 @10", "bob: shield P1 @50"], "bob", {"CG"}),
        # A deserter played later removes the card then on top.
        (["bob: desert P1 @46", "cy: shield P1 @50"], "cy", {"SP4"}),
        # A deserter on a shield removes the army card under the shield.
        (["bob: shield P1 @28", "cy: desert P1 @28"], "bob", {"SP2"}),
        # A deserter on a deserter has no effect.
        (["bob: desert P1 @10", "cy: desert P1 @10", "dee: shield P1 @50"], "dee", {"CG"}),
        # Looking past a shield onto a deserter: no effect either.
        (["bob: desert P1 @28", "cy: shield P1 @28", "dee: desert P1 @28"], "cy", {"SP2"}),
        # The lowest shield takes the pile; later shields are set aside.
        (["bob: shield P1 @30", "cy: shield P1 @40"], "bob", set()),
        (["cy: shield P1 @30", "bob: shield P1 @30"], "cy", set()),
        # Cards dealt after the shields still belong to the pile.
        (["dee: shield P1 @27", "bob: desert P1 @46"], "dee", {"SP4"}),
    ],
)
def test_it_resolves_a_pile_from_the_bottom_up(
    lines: list[str], owner: str, removed: set[str]
) -> None:
    where, gone = resolve(lines)
    assert gone == removed
    assert set(where.values()) == {owner}


def test_it_sets_aside_a_pile_without_a_shield() -> None:
    where, gone = resolve(["bob: desert P1 @10"])
    assert where == {} and gone == set(SINGLES)


def test_it_ignores_a_deserter_with_nothing_below() -> None:
    deck = deck_with(["B2", "FM"])  # FM is pile 2's first card, dealt at k = 2
    s = new_game(NAMES[:4], decks=[(deck, 27)])
    acts(s, ["bob: desert P2 @1", "bob: shield P2 @30"])
    place_shields(s, {"bob": (9,), "cy": (9, 9), "dee": (9, 9)})
    act(s, "ann: champion cy")
    assert hand(s, 1).get("FM") == 1


def test_it_lets_only_the_wizard_name_another_player_champion() -> None:
    s = game(4)
    place_shields(s, {"bob": (1, 1), "cy": (2, 2), "dee": (3, 3)})
    assert s.decider == 0 and s.pending == "champion"
    refused(s, "bob: champion cy", "§3.7")
    refused(s, "ann: champion ann", "§3.7")
    act(s, "ann: champion dee")
    assert s.history[-1].champion == 3


def test_it_waits_for_the_last_card_before_the_enchantment() -> None:
    s = game(4, start_after=30)
    place_shields(s, {"bob": (1, 1), "cy": (2, 2), "dee": (3, 3)}, at=30)
    assert s.pending == "recruit" and s.deciders() == [1, 2, 3]  # deserters may still come
    refused(s, "ann: champion bob", "§3.7")
    act(s, "bob: desert P4 @79")
    s.deal(80)
    assert s.pending == "champion" and s.deciders() == [0]
    act(s, "ann: champion bob")
    assert sum(s.card_counts()) == 80 and sum(map(sum, s.hands)) > 0


# ---------------------------------------------------------------- §3.9-3.10 spies, giants


def test_it_lets_a_spy_take_a_named_card_or_nothing() -> None:
    s = after_recruitment(4, {1: ["SP1", "SP2"], 2: ["M6", "GI"], 3: []})
    assert s.decider == 1 and s.pending == "spy"
    act(s, "bob: spy 1 cy M6")
    act(s, "bob: spy 2 dee M6")
    assert hand(s, 1) == {"M6": 1} and hand(s, 2) == {"GI": 1}


def test_it_runs_the_spies_in_order_and_skips_those_nobody_holds() -> None:
    s = after_recruitment(4, {1: ["SP3"], 2: ["SP1"], 3: ["GI"]})
    refused(s, "bob: spy 3 pass", "§3.9")
    act(s, "cy: spy 1 pass")
    refused(s, "bob: spy 2 pass", "§3.9")
    act(s, "bob: spy 3 dee GI")
    assert s.pending == "people" and hand(s, 1) == {"GI": 1}


@pytest.mark.parametrize(
    ("line", "rule"),
    [("bob: spy 1 cy SP2", "§3.9"), ("bob: spy 1 bob GI", "§3.9"), ("cy: spy 1 pass", "§3.9")],
)
def test_it_refuses_naming_a_spy_oneself_or_out_of_turn(line: str, rule: str) -> None:
    s = after_recruitment(4, {1: ["SP1"], 2: ["SP2"]})
    refused(s, line, rule)


def test_it_lets_a_spy_name_the_wizard_for_nothing() -> None:
    s = after_recruitment(4, {1: ["SP1", "GI"]})
    act(s, "bob: spy 1 ann GI")
    assert hand(s, 1) == {"GI": 1} and hand(s, 0) == {}


@pytest.mark.parametrize(
    ("bob_has", "cy_gets", "bob_keeps"),
    [
        # Only the spied copy: nothing happens.
        ([], 0, 1),
        # A spied and an unspied copy: the unspied one goes.
        (["M6"], 1, 1),
    ],
)
def test_it_never_lets_a_spied_card_be_spied_again(
    bob_has: list[str], cy_gets: int, bob_keeps: int
) -> None:
    s = after_recruitment(4, {1: ["SP1", *bob_has], 2: ["SP2"], 3: ["M6"]})
    act(s, "bob: spy 1 dee M6")
    act(s, "cy: spy 2 bob M6")
    assert hand(s, 2).get("M6", 0) == cy_gets and hand(s, 1)["M6"] == bob_keeps


def test_it_sets_every_spy_aside_after_the_spies() -> None:
    s = after_recruitment(4, {1: ["SP1", "SP4", "GR"], 2: ["SP2"]})
    acts(s, ["bob: spy 1 pass", "cy: spy 2 pass", "bob: spy 4 pass"])
    assert hand(s, 1) == {"GR": 1} and hand(s, 2) == {}


@pytest.mark.parametrize(("giants", "kept"), [(1, 1), (2, 0), (3, 0)])
def test_it_sends_away_two_or_more_giants(giants: int, kept: int) -> None:
    s = after_recruitment(4, {1: ["GI"] * giants})
    assert s.hands[1][13] == kept


def test_it_counts_giants_after_the_spies() -> None:
    s = after_recruitment(4, {1: ["SP1", "GI"], 2: ["GI"]})
    act(s, "bob: spy 1 cy GI")
    assert hand(s, 1) == {} and hand(s, 2) == {}


# ---------------------------------------------------------------- §4.1-4.3 people, mercenaries


def test_it_lets_the_wizard_name_each_people_once_and_forces_the_last() -> None:
    s = after_recruitment(4, {})
    assert s.decider == 0 and legal(s) == ["people B", "people M", "people S", "people D"]
    refused(s, "bob: people B", "§4.1")
    done = act(s, "ann: people S")
    assert "ann: people S" in done
    act(s, "ann: people B")
    refused(s, "ann: people S", "§4.1")
    done = act(s, "ann: people D")
    # Nobody holds a mercenary, so every send and battle 4's people are forced too.
    assert "ann: people M" in done and s.game_over is False and s.round == 2


def test_it_commits_every_card_of_the_people() -> None:
    s = to_battle(4, {1: ["B2", "B6", "BC", "M2", "GI"], 2: ["M6"]}, people="B")
    assert hand(s, 1) == {"M2": 1, "GI": 1}
    assert s.army[1][:3] == [1, 1, 1]


@pytest.mark.parametrize(
    ("players", "battle", "first"),
    [(4, 1, "bob"), (4, 2, "cy"), (4, 3, "dee"), (4, 4, "bob"), (7, 4, "eve"), (5, 4, "eve")],
)
def test_it_rotates_who_sends_mercenaries_first(players: int, battle: int, first: str) -> None:
    # Every player holds a gremlin, so nobody's send is forced.
    s = after_recruitment(players, {seat: ["GR"] for seat in range(1, players)})
    for b in range(1, battle):
        act(s, f"ann: people {'BMSD'[b - 1]}")
        for seat in list(s.order):
            act(s, f"{NAMES[seat]}: send")
    if battle < 4:
        act(s, f"ann: people {'BMSD'[battle - 1]}")
    assert NAMES[s.decider or 0] == first
    assert NAMES[s.order[0]] == first and len(s.order) == players - 1


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("bob: send FM", "send-not-mercenary"),
        ("bob: send CG", "send-not-mercenary"),
        ("bob: send B2", "send-not-mercenary"),
        ("bob: send GI GI", "send-not-held"),
        ("bob: send TR", "send-not-held"),
        ("cy: send", "not-your-decision"),
    ],
)
def test_it_sends_only_held_giants_trolls_war_machines_and_gremlins(line: str, code: str) -> None:
    s = to_battle(4, {1: ["GI", "FM", "CG", "GR", "WM"], 2: ["GR"]})
    assert refused(s, line, "§4.3").code == code


def test_it_keeps_unsent_mercenaries_for_later_battles() -> None:
    s = to_battle(4, {1: ["GI", "TR"], 2: ["GR"], 3: ["GR"]})
    acts(s, ["bob: send GI", "cy: send", "dee: send GR"])
    assert hand(s, 1) == {"TR": 1} and hand(s, 2) == {"GR": 1}
    act(s, "ann: people M")
    assert s.order[0] == 2 and s.army[1][14] == 0


def test_it_forces_the_send_of_a_player_without_mercenaries() -> None:
    s = after_recruitment(4, {1: ["GI"], 2: ["FM", "CG"], 3: ["GR"]})
    done = act(s, "ann: people B")
    assert done == ["ann: people B"]
    done = act(s, "bob: send")
    assert done == ["bob: send", "cy: send"] and s.decider == 3


# ---------------------------------------------------------------- §4.4 commando


def commando_game() -> State:
    s = to_battle(4, {1: ["CG", "GR"], 2: ["B6", "GI"], 3: ["B2"]})
    acts(s, ["bob: send", "cy: send GI"])
    return s


def test_it_offers_the_commando_once_everyone_has_committed() -> None:
    s = commando_game()
    assert s.pending == "commando" and s.decider == 1
    assert legal(s) == [
        "commando pass",
        "commando cy people",
        "commando cy mercenary",
        "commando dee people",
    ]


def test_it_takes_the_named_card_and_sets_both_aside() -> None:
    s = commando_game()
    act(s, "bob: commando cy mercenary GI")
    battle = s.history[-1].battles[0]
    assert battle.strength == {1: 0, 2: 6, 3: 2} and hand(s, 1) == {"GR": 1}
    assert s.aside[17] == 1


def test_it_draws_the_commando_card_at_random_when_left_open() -> None:
    s = commando_game()
    done = s.apply(Action(1, "commando", target=2, group="people"))
    assert done[0].code == "B6" and s.log[-1][1] == done[0]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("bob: commando dee mercenary GR", "commando-empty"),
        ("bob: commando cy people B2", "commando-card"),
        ("bob: commando cy mercenary GR", "commando-card"),
        ("bob: commando bob people B2", "commando-self"),
        ("bob: commando ann people B2", "commando-empty"),
        ("cy: commando dee people B2", "not-your-decision"),
    ],
)
def test_it_takes_only_a_card_another_player_committed(line: str, code: str) -> None:
    s = commando_game()
    assert refused(s, line, "§4.4").code == code


def test_it_reads_a_players_commando_decision_as_a_player_and_a_group() -> None:
    assert parse_move("commando cy mercenary", NAMES[:4], 1) == Action(
        1, "commando", target=2, group="mercenary"
    )
    assert parse_move("commando pass", NAMES[:4], 1) == Action(1, "commando")
    # Every other decision reads as in a record.
    for text in ("champion cy", "spy 2 dee B6", "people M", "send GI GR", "fly GR", "desert P3 @5"):
        assert parse_move(text, NAMES[:4], 1) == parse_action(text, NAMES[:4], 1)
    for text in (
        "commando cy army",
        "commando cy",
        "commando cy people B2 B6",
        "commando  cy people",
    ):
        with pytest.raises(NotationError):
            parse_move(text, NAMES[:4], 1)


def test_it_refuses_a_players_commando_naming_a_card_whatever_was_committed() -> None:
    """§4.4 [online]: the site draws the card; refusing only the cards not committed would
    tell the holder which ones were."""
    giant, troll = commando_game(), to_battle(4, {1: ["CG", "GR"], 2: ["B6", "TR"], 3: ["B2"]})
    acts(troll, ["bob: send", "cy: send TR"])
    refusals = set()
    for state in (giant, troll):
        for code in ("B2", "B6", "BC", "GI", "TR", "WM", "GR", "FM", "SP1"):
            for text in (f"commando cy mercenary {code}", f"commando dee people {code}"):
                with pytest.raises(IllegalAction) as info:
                    state.apply(parse_move(text, state.names, 1))
                refusals.add((info.value.code, info.value.message))
    assert refusals == {
        (
            "commando-card-named",
            "§4.4: the site draws the card taken; a commando names a player and a group",
        )
    }


def test_it_keeps_the_commando_after_a_pass() -> None:
    s = commando_game()
    act(s, "bob: commando pass")
    act(s, "ann: people M")
    assert hand(s, 1)["CG"] == 1


def test_it_skips_the_commando_when_nobody_else_committed() -> None:
    s = to_battle(4, {1: ["CG", "GR"], 2: ["M6"], 3: ["GR"]})
    acts(s, ["bob: send GR", "dee: send"])
    assert s.pending == "people"
    e = refused(s, "bob: commando dee mercenary GR", "§4.4")
    assert e.code == "commando-not-arising"


# ---------------------------------------------------------------- §4.5 strength


@pytest.mark.parametrize(
    ("army", "strength"),
    [
        (["B2", "B2", "B6"], 10),
        (["BC"], 0),
        (["B2", "B6", "BC"], 16),
        (["B6", "BC", "GI"], 22),
        (["B2", "BC", "BC", "GI", "TR"], 0),
        (["GI", "TR", "GR"], 16),
        (["WM"], 0),
        (["WM", "GR"], 10),
        (["WM", "WM", "GR"], 10),
        (["WM", "WM", "GR", "GR"], 20),
        (["WM", "GR", "GR", "GR"], 12),
        (["M6", "GI"], 10),
    ],
)
def test_it_reckons_an_army(army: list[str], strength: int) -> None:
    assert army_strength(counts(army), 0) == strength
    mercs = [c for c in army if c in ("GI", "TR", "WM", "GR")]
    s = to_battle(4, {1: army}, people="B")
    if mercs:
        act(s, f"bob: send {' '.join(mercs)}")
    assert s.history[-1].battles[0].strength[1] == strength


# ---------------------------------------------------------------- §4.6 flying machine


def test_it_adds_the_flying_machine_after_the_reveal() -> None:
    s = to_battle(4, {1: ["FM", "GR", "GR", "B2"], 2: ["B6"]})
    act(s, "bob: send")
    assert s.pending == "fly" and s.revealed and s.strength[1] == 2
    assert legal(s) == ["fly pass", "fly GR", "fly GR GR"]
    refused(s, "bob: fly GI", "§4.6")
    refused(s, "bob: fly GR GR GR", "§4.6")
    act(s, "bob: fly GR GR")
    assert s.history[-1].battles[0].strength == {1: 8, 2: 6, 3: 0}
    assert hand(s, 1) == {}


@pytest.mark.parametrize(
    ("hands", "sends", "why"),
    [
        ({1: ["FM", "WM", "GR", "GR"]}, ["bob: send WM"], "war machine"),
        ({1: ["FM", "WM", "GR"]}, ["bob: send WM GR"], "war machine"),
        ({1: ["FM", "GI"]}, ["bob: send"], "alone"),
    ],
)
def test_it_keeps_the_flying_machine_out_when_it_cannot_fly(
    hands: dict[int, list[str]], sends: list[str], why: str
) -> None:
    s = to_battle(4, hands)
    acts(s, sends)
    assert s.pending == "people"
    e = refused(s, "bob: fly GR", "§4.6")
    assert why in e.message and e.code == "fly-not-arising"


def test_it_lets_the_flying_machine_join_an_empty_army_or_two_chiefs() -> None:
    s = to_battle(4, {1: ["FM", "GR", "BC", "BC"], 2: ["M2"]})
    act(s, "bob: send")
    act(s, "bob: fly GR")
    assert s.history[-1].battles[0].strength[1] == 5
    s = to_battle(4, {1: ["FM", "GR"], 2: ["B2"]})
    act(s, "bob: send")
    act(s, "bob: fly GR")
    assert s.history[-1].battles[0].winners == [1]


def test_it_flies_once_the_commando_took_the_war_machine() -> None:
    s = to_battle(4, {1: ["FM", "WM", "GR", "GR"], 2: ["CG"]})
    act(s, "bob: send WM")
    act(s, "cy: commando bob mercenary WM")
    assert s.pending == "fly"


# ---------------------------------------------------------------- §4.7 points


@pytest.mark.parametrize(
    ("hands", "winners"),
    [
        ({1: ["B6"], 2: ["B2"], 3: []}, [1]),
        ({1: ["B6"], 2: ["B6"], 3: ["B2"]}, [1, 2]),
        ({1: ["B6"], 2: ["B6"], 3: ["B6"]}, [1, 2, 3]),
        ({1: [], 2: [], 3: []}, []),
        ({1: ["BC", "BC", "B6"], 2: []}, []),
    ],
)
def test_it_scores_the_strongest_ties_in_full_and_zero_for_nobody(
    hands: dict[int, list[str]], winners: list[int]
) -> None:
    s = to_battle(4, hands, champion=2)
    battle = s.history[-1].battles[0]
    assert battle.winners == winners and battle.points == 2
    expected = [0, 0, 0, 0]
    for w in winners:
        expected[w] = 2
    expected[0] = 2 if 2 in winners else 0  # ann scores what cy, her champion, scores
    assert s.totals == expected == s.history[-1].scores


def test_it_scores_2_1_1_2_over_the_four_battles() -> None:
    s = after_recruitment(4, {1: ["B2", "M2", "S2", "D2"]}, champion=3)
    for p in "BMS":
        act(s, f"ann: people {p}")
    assert [b.points for b in s.history[0].battles] == [2, 1, 1, 2]
    assert s.totals == [0, 6, 0, 0]


# ---------------------------------------------------------------- §4.8, §5 end of round and game


def test_it_returns_every_card_at_the_end_of_the_round() -> None:
    s = after_recruitment(4, {1: ["GI", "TR", "B2"], 2: ["GR"]})
    while s.round == 1:
        if s.pending == "people":
            act(s, f"ann: people {'BMSD'[s.fought.index(False)]}")
        else:
            act(s, f"{NAMES[s.decider or 0]}: send")
    # The game was given one deck: it waits for the next one.
    assert s.round == 2 and s.wizard == 1 and s.pending is None and not s.game_over
    assert all(not any(h) for h in s.hands)
    assert s.card_counts() == list(COPIES)
    s.add_round(deck_with([]), 40)
    assert s.pending == "recruit" and s.deciders() == [2, 3, 0]


@pytest.mark.parametrize(("players", "target"), [(4, 8), (5, 8), (6, 7), (7, 6)])
def test_it_ends_the_game_after_the_round_someone_reaches_the_target(
    players: int, target: int
) -> None:
    s = after_recruitment(players, {1: ["B2", "M2"]}, champion=2)
    s.totals[1] = target - 4
    for p in "BMS":
        act(s, f"ann: people {p}")
    assert s.totals[1] == target - 1 and s.round == 2 and not s.game_over
    s = after_recruitment(players, {1: ["B2", "M2"]}, champion=2)
    s.totals[1] = target - 3
    for p in "BMS":
        act(s, f"ann: people {p}")
    assert s.totals[1] == target and s.game_over and s.decider is None


def rounds_of(*battles: list[int]) -> list[RoundResult]:
    return [RoundResult(0, 1, [Battle(0, {}, w, 2) for w in battles], [])]


@pytest.mark.parametrize(
    ("totals", "battles", "places"),
    [
        # Most points wins.
        ([9, 3, 5, 1], [[0]], [1, 3, 2, 4]),
        # Tied: the last battle some but not all of them won decides.
        ([9, 9, 1, 1], [[1], [0]], [1, 2, 3, 3]),
        ([9, 9, 1, 1], [[0], [2]], [1, 2, 3, 4]),
        # A battle both won does not separate them; the one before does.
        ([9, 9, 1, 1], [[1], [0, 1]], [2, 1, 3, 3]),
        # Never separated: they share the place (sport style 1, 1, 3).
        ([9, 9, 5, 1], [[2]], [1, 1, 3, 4]),
        # Three tied: winners go ahead, the rest are separated further back.
        ([8, 8, 8, 1], [[2], [1], [0, 1]], [2, 1, 3, 4]),
        ([8, 8, 8, 1], [[0, 1], [2]], [2, 2, 1, 4]),
    ],
)
def test_it_breaks_ties_by_the_last_battle_won(
    totals: list[int], battles: list[list[int]], places: list[int]
) -> None:
    assert placings(rounds_of(*battles), totals) == places


def test_it_does_not_count_the_wizards_points_as_a_battle_won() -> None:
    # ann scored through her champion bob; cy won the last battle himself.
    history = [RoundResult(0, 1, [Battle(0, {}, [1], 2), Battle(1, {}, [2], 1)], [])]
    assert placings(history, [2, 2, 3, 0]) == [3, 2, 1, 4]
    assert placings(history, [5, 1, 5, 0]) == [2, 3, 1, 4]


def test_it_plays_every_card_exactly_once_per_round() -> None:
    for seed in range(20):
        s = random_game(5, seed)
        assert s.card_counts() == [COPIES[c] for c in range(N_CODES)]
