"""What De l'Orc's table tells a newcomer: what happens now, each card's strength, and the
deal's pushes in the viewer's own language.

alice hosts; bob, charlie and dave play with her. alice sits first, so she is round 1's
wizard.
"""

import pytest

from games.orc import dealer
from games.orc.board import render_update
from tests.games.orc_helpers import orc_table, people, set_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice):
    return orc_table(alice, people("bob", "charlie", "dave"))


def test_it_names_the_cards_of_a_deal_push_in_each_viewers_language(table):
    set_deal(table, 3.5)
    event = dealer.event(table, table.state(), [1])
    event["piles"] = {"1": ["GI", "shield:bob", "DC", "GR"]}

    german = render_update(event, 1, "de")
    english = render_update(event, 1, "en")

    for html, words in [
        (german, ["Riese", "Zwergenhäuptling", "Schild: bob"]),
        (english, ["Giant", "Dwarf chief", "shield: bob"]),
    ]:
        assert all(f">{word}<" in html for word in words), html
