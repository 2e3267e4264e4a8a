"""What De l'Orc's table tells a newcomer: what happens now, each card's strength, and the
deal's pushes in the viewer's own language.

alice hosts; bob, charlie and dave play with her. alice sits first, so she is round 1's
wizard. The engine's positions (ann, bob, cy, dee; ann the wizard) are shown as the page
would name them, capitalised.
"""

import random
import re

import pytest

from games import actions
from games.orc import dealer, engine
from games.orc.board import now_line, render_update
from games.orc.engine.cards import N_CARDS
from games.orc.engine.playout import random_decision, random_recruitment
from tests.games.orc_helpers import orc_table, people, set_deal

NAMES = ["ann", "bob", "cy", "dee"]
SHOWN = {name: name.capitalize() for name in NAMES}
DECISIONS = ("champion", "spy", "people", "send", "commando", "fly")


def positions() -> dict[str, engine.State]:
    """A position of each kind a round passes through: the deal under way, its placing step
    and one of each turn decision, from random games of four."""
    found: dict[str, engine.State] = {}
    for seed in range(40):
        state = engine.new_game(NAMES, seed=seed)
        rng = random.Random(seed)
        while state.pending is not None and not state.game_over:
            if state.pending == "recruit":
                found.setdefault("deal", state.clone())
                placing = state.clone()
                placing.deal(N_CARDS)
                found.setdefault("placing", placing)
                for action in random_recruitment(state, rng):
                    state.apply(action)
                if state.pending == "recruit":
                    state.deal(N_CARDS)
                continue
            kind = state.pending
            if kind == "people" and state.battle == 1:
                kind = "people-1-point"
            found.setdefault(kind, state.clone())
            state.apply(random_decision(state, rng))
        if all(kind in found for kind in DECISIONS):
            return found
    raise AssertionError(f"no game of the seeds tried came to {set(DECISIONS) - set(found)}")


@pytest.fixture(scope="module")
def position():
    return positions()


def line(state: engine.State, viewer: int | None) -> str:
    view = engine.view(state, viewer) if viewer is not None else engine.public_view(state)
    return now_line(view, viewer, SHOWN)


def test_it_tells_each_player_what_the_deal_asks_of_him(position):
    deal = position["deal"]
    assert line(deal, 0).startswith("You are the wizard: the cards are dealt for you")
    assert "Once the start card has appeared, claim piles with your shields" in line(deal, 1)
    assert line(deal, None).startswith("Ann, the wizard, deals the army cards")
    placing = position["placing"]
    assert line(placing, 1).startswith("Every army card is down: put your last shields")
    assert line(placing, 0) == (
        "Every army card is down: waiting for the players still holding shields."
    )


@pytest.mark.parametrize(
    ("kind", "decider_says", "others_hear"),
    [
        ("champion", "You are the wizard: name a champion.", "{wizard}, the wizard, names a"),
        ("spy", "You hold spy {spy}: ask another player for a card.", "{name} holds spy {spy}"),
        ("people", "You are the wizard: choose the people of battle 1 (2 points).", "{wizard},"),
        ("people-1-point", "choose the people of battle 2 (1 point).", "of battle 2 (1 point)."),
        ("send", "Battle {battle}, the {people}: all yours fight", "{name} chooses mercenaries"),
        ("commando", "Your commando gremlin may take a card", "{name} may send the commando"),
        ("fly", "Your flying machine may join your army", "{name} may add the flying machine"),
    ],
)
def test_it_tells_the_decider_what_to_decide_and_the_others_whom_they_wait_for(
    position, kind, decider_says, others_hear
):
    state = position[kind]
    view = engine.public_view(state)
    words = {
        "wizard": SHOWN[view["wizard"]],
        "name": SHOWN[view["decider"]],
        "spy": view["spy"],
        "battle": view["battle"],
        "people": {"B": "Barbarians", "M": "Monsters", "S": "Skeletons", "D": "Dwarves"}.get(
            view["people"]
        ),
    }
    decider = state.decider
    other = next(s for s in range(4) if s not in (decider, state.wizard))
    assert decider_says.format(**words) in line(state, decider)
    assert others_hear.format(**words) in line(state, other)
    assert others_hear.format(**words) in line(state, None)


def test_it_reminds_the_wizard_in_the_battles_whose_points_he_scores(position):
    state = position["send"]
    champion = engine.result(state)["rounds"][-1]["champion"]
    assert line(state, state.wizard).endswith(
        f"You fight no battle: you score what {SHOWN[champion]} scores."
    )


def test_it_says_nothing_once_the_game_is_over():
    state = engine.random_game(4, seed=3, names=NAMES)
    assert state.game_over
    assert line(state, 1) == ""


# ----------------------------------------------------------------------------- the page


@pytest.fixture
def table(alice):
    return orc_table(alice, people("bob", "charlie", "dave"))


@pytest.mark.django_db
def test_the_table_shows_the_line_and_each_cards_strength_in_the_players_language(client, table):
    set_deal(table, 20.5)
    client.force_login(table.seats.get(position=1).user)

    page = client.get(table.get_absolute_url()).content.decode()
    assert '<p class="now" data-now="recruit">Put a deserter on a pile' in page
    assert 'title="Strength: ' in page

    client.cookies["django_language"] = "de"
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'data-now="recruit">Lege einen Deserteur' in page
    assert 'title="Stärke: ' in page


@pytest.mark.django_db
def test_it_names_the_cards_of_a_deal_push_in_each_viewers_language(table):
    set_deal(table, 3.5)
    event = dealer.event(table, table.state(), [1])
    event["piles"] = {"1": ["GI", "shield:bob", "DC", "GR"]}

    german = render_update(event, 1, "de")
    english = render_update(event, 1, "en")

    for html, words, shield in [
        (german, ["Riese", "Zwergenhäuptling"], "Schild"),
        (english, ["Giant", "Dwarf chief"], "shield"),
    ]:
        assert all(f">{word}<" in html for word in words), html
        assert f'>{shield}: </span><span class="owner">bob</span>' in html
    assert 'title="Stärke: 10; ' in german and 'title="Strength: 10; ' in english


@pytest.mark.django_db
def test_the_wizard_names_his_champion_with_the_sites_buttons_told_what_it_means(client, table):
    set_deal(table, 80.5)
    players = [seat.user for seat in table.seats.order_by("position")]
    for user in players[1:]:  # the placing step: every shield goes down
        for _ in range(2):
            actions.play_for(table.pk, user, "shield P1", None)
    client.force_login(players[0])

    html = client.get(table.get_absolute_url()).content.decode()
    assert 'data-now="champion">You are the wizard: name a champion.' in html
    decision = re.search(r'<form id="decision".*?</form>', html, re.S).group(0)
    buttons = re.findall(r"<button[^>]*>", decision)
    assert len(buttons) == 3 and all('type="submit"' in b for b in buttons)
