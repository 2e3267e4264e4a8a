"""What just happened: the last move is marked where it changed the table; sets name their
owner; cards known to be in a hand are not mixed with sets.

alice (seat 0) and bob (seat 1) play a quick game; the seed gives alice a set to lay.
"""

import re

import pytest
from django.test import Client

from games import actions
from games.ctg import engine
from games.ctg.game import CALL_TO_GLORY, table_deck
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


def first_turn_lay(seed: int) -> str | None:
    """The set alice can lay after drawing D1 (and D2) on her first turn, if any."""
    table = Table(seed=seed, seats_count=2, options={"rounds": 1})
    state = engine.new_game(
        CALL_TO_GLORY.engine_options(table), ["alice", "bob"], decks=[table_deck(table.seed, 0)]
    )
    for text in ("draw D1", "draw D2"):
        if text in engine.view(state, 0)["legal_texts"]:
            state.apply(engine.parse_action(text, state.names), 0)
    lays = [t for t in engine.view(state, 0)["legal_texts"] if t.startswith("lay")]
    return lays[0] if lays else None


@pytest.fixture
def table(alice, bob):
    seed = next(s for s in range(1, 300) if first_turn_lay(s))
    table = open_table(alice)
    Table.objects.filter(pk=table.pk).update(seed=seed)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table


def move(table, text):
    table.refresh_from_db()
    if text in engine.view(table.state(), 0)["legal_texts"]:
        actions.play(table.pk, 0, text, table.version)
    table.refresh_from_db()


def board(user, table):
    client = Client()
    client.force_login(user)
    return client.get(table.get_absolute_url()).content.decode()


def marked(html):
    return re.findall(r'class="[^"]*last-move[^"]*"[^>]*>', html)


def test_it_marks_the_pile_drawn_from_and_then_the_set_laid(table, alice, bob):
    assert marked(board(bob, table)) == []  # nothing has happened yet
    move(table, "draw D1")
    move(table, "draw D2")

    html = board(bob, table)
    assert [m for m in marked(html) if "pile" in m] == [m for m in marked(html)]
    assert 'data-pile="D2"' in marked(html)[0]
    assert "Last move: alice draws from D2" in html

    lay = first_turn_lay(table.seed)
    move(table, lay)
    value = lay.split()[1]
    html = board(bob, table)
    sets = re.search(r'<div class="sets" data-zone="sets" data-seat="0".*?</div>', html, re.S)
    assert f'<span class="set last-move"><span class="card v{value}"' in sets.group(0)
    assert not any("pile" in m for m in marked(html))


def test_it_marks_the_discard_pile_a_card_went_onto(table, alice):
    move(table, "draw D1")
    move(table, "draw D2")
    state = table.state()
    discard = next(t for t in engine.view(state, 0)["legal_texts"] if t.startswith("discard"))
    move(table, discard)

    html = board(alice, table)
    pile = discard.split()[-1]
    assert any(f'data-pile="{pile}"' in m and "discard" in m for m in marked(html))


def test_it_names_whose_sets_they_are_and_keeps_known_cards_apart(table, alice, bob):
    move(table, "draw D1")
    move(table, "draw D2")
    discard = next(t for t in engine.view(table.state(), 0)["legal_texts"] if "X1" in t)
    move(table, discard)
    move(table, "end")
    table.refresh_from_db()
    assert "draw X1" in engine.view(table.state(), 1)["legal_texts"]
    actions.play(table.pk, 1, "draw X1", table.version)  # bob takes it face up

    html = board(alice, table)
    for seat, name in enumerate(["alice", "bob"]):
        assert f'<h3 class="zone-label" id="sets-{seat}">Sets of {name}</h3>' in html
    corner = re.search(r'<article[^>]*data-seat="1">.*?</article>', html, re.S).group(0)
    sets = re.search(r'<div class="sets".*?</div>', corner, re.S).group(0)
    known = re.search(r'<div class="known" data-zone="known".*?</div>', corner, re.S).group(0)
    assert f'data-card="{discard.split()[1]}"' in known and "data-card" not in sets
    assert "known to all" in known
