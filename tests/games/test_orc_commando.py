"""The commando's card is the site's to draw (ORC-RULES.md §4.4 [online]): its holder names a
player and a group, never a card, and the site takes one card of that group at random, with
the table's secret seed. The record keeps the card drawn, so replays stay exact.
"""

import re
from collections import Counter
from types import SimpleNamespace

import pytest

from games.models import Table
from games.orc import engine
from games.orc.game import DE_L_ORC
from games.records import first_actions
from games.registry import MoveRefused
from tests.games.leaks import answers
from tests.games.orc_helpers import people, random_positions, table_at
from tests.orc.engine.helpers import act, to_battle

# The chi-square statistic beyond which a fair draw lands once in a thousand, by the degrees
# of freedom (the group's kinds of card less one).
CHI2_0_001 = {1: 10.83, 2: 13.82, 3: 16.27}
SEEDS = range(3000)

# ann deals; bob holds the commando gremlin; cy committed three Barbarians and six
# mercenaries of three kinds; dee one Barbarian.
PEOPLE = {"B2": 2, "B6": 1}
MERCENARIES = {"GI": 1, "TR": 2, "GR": 3}


def commando_position() -> engine.State:
    cy = [code for group in (PEOPLE, MERCENARIES) for code, n in group.items() for _ in range(n)]
    state = to_battle(4, {1: ["CG"], 2: cy, 3: ["B2"]}, people="B")
    act(state, "cy: send GI TR TR GR GR GR")
    assert state.pending == "commando" and state.decider == 1
    return state


def drawn(holder) -> Counter:
    """The card taken at a table of each seed when the holder decides with `holder`."""
    base = commando_position()
    taken = Counter()
    for seed in SEEDS:
        state = base.clone()
        DE_L_ORC.realtime.catch_up(SimpleNamespace(seed=seed), state)
        holder(state)
        taken[state.log[-1][1].code] += 1
    return taken


def assert_uniform(taken: Counter, group: dict[str, int]) -> None:
    """Each card of `group` (code -> copies) as likely as the others: Pearson's chi-square."""
    n, cards = sum(taken.values()), sum(group.values())
    assert set(taken) <= set(group), taken
    chi2 = sum((taken[code] - n * k / cards) ** 2 / (n * k / cards) for code, k in group.items())
    assert chi2 < CHI2_0_001[len(group) - 1], f"{dict(taken)}: chi-square {chi2:.1f}"


@pytest.mark.parametrize(("group", "cards"), [("people", PEOPLE), ("mercenary", MERCENARIES)])
def test_it_draws_each_card_of_the_group_as_often_as_the_others(group, cards):
    assert_uniform(drawn(lambda state: DE_L_ORC.apply(state, f"commando cy {group}", 1)), cards)


def test_it_draws_alike_whatever_card_the_holder_names_first():
    # A holder who asks for the giant, and names the group only when refused.
    def greedy(state):
        try:
            DE_L_ORC.apply(state, "commando cy mercenary GI", 1)
        except MoveRefused:
            DE_L_ORC.apply(state, "commando cy mercenary", 1)

    assert_uniform(drawn(greedy), MERCENARIES)


def test_it_refuses_a_commando_naming_a_card_in_the_same_words_whatever_was_committed():
    base = commando_position()
    words = set()
    for code in engine.CODES:
        for group in ("people", "mercenary"):
            for target in ("cy", "dee", "ann", "bob"):
                state = base.clone()
                with pytest.raises(MoveRefused) as refused:
                    DE_L_ORC.apply(state, f"commando {target} {group} {code}", 1)
                assert state.signature() == base.signature()
                words.add((refused.value.code, refused.value.message))
    assert len(words) == 1


# ----------------------------------------------------------------------------- at the table
# alice hosts and deals round 1; bob, charlie and dave play.

PLAYERS = ["alice", "bob", "charlie", "dave"]


def mercenaries_against(state) -> list[int]:
    """The seats other than the commando's holder that committed mercenaries."""
    return [s for s in state.others if s != state.decider and sum(state.army[s][12:])]


def commando_table():
    """A table at the first commando decision of a random game where another player sent
    mercenaries; with its position."""
    users = people(*PLAYERS)
    for record, lines, n, state in random_positions(PLAYERS):
        if state.pending == "commando" and mercenaries_against(state):
            table, state = table_at(users, first_actions(record, lines, n))
            return users, table, state
    raise AssertionError("no random game reaches a commando decision")


@pytest.mark.django_db
def test_it_answers_a_commando_that_names_a_card_400_and_takes_nothing(client, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = settings.RATE_LIMIT_POSTS_PER_ADDRESS = 10**6
    users, table, state = commando_table()
    holder = PLAYERS[state.decider]
    moves = [
        f"commando {name} {group} {code}"
        for name in PLAYERS
        for group in ("people", "mercenary")
        for code in engine.CODES
    ]
    got = answers(client, table.pk, {holder: users[state.decider]}, moves, table.version)
    assert {status for status, _words in got.values()} == {400}
    assert {words for _status, words in got.values()} == {
        "The commando takes a card at random: name a player and a group, not a card."
    }
    client.force_login(users[state.decider])
    response = client.post(
        f"/play/t/{table.pk}/play/",
        {"action": moves[-1], "version": table.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert Table.objects.get(pk=table.pk).record == table.record


@pytest.mark.django_db
def test_it_takes_a_card_of_the_named_group_and_keeps_it_in_the_record(client):
    users, table, state = commando_table()
    holder = state.decider
    target = mercenaries_against(state)[0]
    committed = {engine.CODES[c] for c in range(12, len(engine.CODES)) if state.army[target][c]}
    client.force_login(users[holder])
    text = f"commando {PLAYERS[target]} mercenary"
    move = {"action": text, "version": table.version}
    response = client.post(f"/play/t/{table.pk}/play/", move, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    table.refresh_from_db()
    lines = [line for rnd in table.record["rounds"] for line in rnd["actions"]]
    line = next(line for line in reversed(lines) if " commando " in f" {line}")
    name, taken = line.split(": ")[0], line.rsplit(" ", 1)[1]
    assert (name, line.rsplit(" ", 1)[0]) == (PLAYERS[holder], f"{PLAYERS[holder]}: {text}")
    assert taken in committed
    # The record replays to the table's position, card for card.
    assert engine.from_record(table.record).signature() == table.state().signature()


@pytest.mark.django_db
def test_it_offers_the_commando_as_a_player_and_a_group(client):
    users, table, state = commando_table()
    client.force_login(users[state.decider])
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    offered = re.findall(r'(?:data-action|value)="(commando[^"]*)"', html)
    assert offered and "commando pass" in offered
    for text in offered:
        assert re.fullmatch(r"commando (pass|\S+ (people|mercenary))", text), text
