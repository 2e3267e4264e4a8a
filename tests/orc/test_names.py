"""De l'Orc's names as the site shows them: every card and people has one."""

import pytest

from games.orc import names
from games.orc.engine import CODES, PEOPLES

pytestmark = pytest.mark.django_db(databases=[])


def test_every_card_and_people_has_a_name():
    shown = {code: names.card(code) for code in set(CODES)}
    assert shown["B6"] == "Barbarian 6" and shown["MC"] == "Monster chief"
    assert shown["SP3"] == "Spy 3" and shown["WM"] == "Gremlin war machine"
    assert len(set(shown.values())) == len(shown) == 22
    assert [names.people(p) for p in PEOPLES] == ["Barbarians", "Monsters", "Skeletons", "Dwarves"]
    assert names.battle(4) == "Battle 4"
