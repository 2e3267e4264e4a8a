"""The hand on the table page: the cards just drawn are marked, for their drawer only.

alice and bob play a quick game at alice's table; alice draws first.
"""

import re

import pytest

from games import actions
from games.ctg import engine
from tests.games.test_result_page import get

pytestmark = pytest.mark.django_db


def hand_cards(html: str) -> dict[str, str]:
    """Each card of the hand shown, by value: the markup of its place in the hand."""
    hand = html[html.index('data-zone="hand"') :]
    hand = hand[: hand.index("</section>")]
    places = re.split(r'(?=<div class="hand-card)', hand)[1:]
    return {re.search(r'data-card="(\d+)"', p).group(1): p for p in places}


def drawn_marks(html: str) -> dict[str, str]:
    """The cards marked as just drawn, by value, with the words on the mark."""
    marks = {}
    for value, place in hand_cards(html).items():
        mark = re.search(r'class="drawn-mark"[^>]*>(.*?)</span>', place, re.S)
        if mark:
            marks[value] = re.sub(r"<[^>]+>", "", mark.group(1)).strip()
    return marks


def new_cards(before: dict[str, int], after: dict[str, int]) -> dict[str, str]:
    """The marks a hand should show: what came into it, by value."""
    came = {v: n - before.get(v, 0) for v, n in after.items() if n > before.get(v, 0)}
    return {v: "new" if n == 1 else f"{n} new" for v, n in came.items()}


def play(table, user, text):
    actions.play_for(table.pk, user, text, table.version)
    table.refresh_from_db()


def discard_a_card(table, user):
    state = table.state()
    seat = state.decider
    play(table, user, next(t for t in engine.view(state, seat)["legal_texts"] if "discard" in t))


def test_it_marks_the_cards_just_drawn_in_the_drawer_s_hand(running_table, alice, bob):
    table = running_table
    url = table.get_absolute_url()
    assert table.state().decider == 0
    assert drawn_marks(get(alice, url)) == {}

    # Both discard piles are empty: the second card can only come from D2, and does at once.
    before = engine.view(table.state(), 0)["hand"]
    play(table, alice, "draw D1")
    assert table.state().pending == "action"
    after = engine.view(table.state(), 0)["hand"]
    assert drawn_marks(get(alice, url)) == new_cards(before, after) != {}
    assert drawn_marks(get(bob, url)) == {}  # bob's hand holds none of alice's cards

    discard_a_card(table, alice)
    assert drawn_marks(get(alice, url)) == {}  # her turn is over
    play(table, bob, "draw D1")
    play(table, bob, "draw D2")
    discard_a_card(table, bob)

    # Now she has a choice of second pile: the first card is marked while she chooses.
    before = engine.view(table.state(), 0)["hand"]
    play(table, alice, "draw D2")
    assert table.state().pending == "second-draw"
    middle = engine.view(table.state(), 0)["hand"]
    assert len(drawn_marks(get(alice, url))) == 1
    assert drawn_marks(get(alice, url)) == new_cards(before, middle)
    play(table, alice, "draw X1")
    assert drawn_marks(get(alice, url)) == new_cards(before, engine.view(table.state(), 0)["hand"])


def test_it_says_new_in_the_player_s_language(running_table, alice):
    table = running_table
    play(table, alice, "draw D1")
    alice.preferred_language = "de"
    alice.save()
    marks = drawn_marks(get(alice, table.get_absolute_url()))
    assert set(marks.values()) <= {"neu", "2 neu"} and marks
