import pytest

from games import actions
from games.models import Table
from games.orc import engine
from tests.games.orc_helpers import orc_table, people, set_deal

pytestmark = pytest.mark.django_db

# alice hosts; bob, charlie and dave play; none is the wizard but alice (seat 0, round 1).


def test_it_puts_a_slap_down_at_the_deal_as_it_stands(alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    set_deal(table, 5.5)
    actions.play_for(table.pk, bob, "desert P3", None)
    table.refresh_from_db()
    assert table.record["rounds"][0]["actions"] == ["bob: desert P3 @5"]
    assert engine.from_record(table.record).dealt == 5


def test_it_refuses_a_deserter_after_the_last_card(alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    set_deal(table, 80.2)
    with pytest.raises(actions.Refused) as refused:
        actions.play_for(table.pk, bob, "desert P3", None)
    assert "Too late" in refused.value.message
    assert Table.objects.get(pk=table.pk).record["rounds"][0]["actions"] == []


def test_it_refuses_a_slap_that_names_its_own_moment(alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    set_deal(table, 5.5)
    with pytest.raises(actions.Refused):
        actions.play_for(table.pk, bob, "desert P3 @2", None)
