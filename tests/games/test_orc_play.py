import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.models import Table
from games.orc import engine
from tests.games.orc_helpers import orc_table, people, said, set_deal

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


def test_it_opens_a_de_l_orc_table_with_its_pace_from_the_form(client, alice):
    client.force_login(alice)
    form = {
        "game": "orc",
        "seats_count": 5,
        "pace": "0.8",
        "visibility": "public",
        "seat_order": "random",
        "clock": "live",
        "timeout_policy": "ai",
    }
    response = client.post("/play/new/", form)
    table = Table.objects.get()
    assert response.status_code == 302
    assert (table.game, table.seats_count, table.options) == ("orc", 5, {"pace": 0.8})


def test_it_offers_de_l_orc_for_four_to_seven_players_only(client, alice):
    client.force_login(alice)
    form = {
        "game": "orc",
        "seats_count": 3,
        "visibility": "public",
        "seat_order": "random",
        "clock": "none",
        "timeout_policy": "ai",
    }
    response = client.post("/play/new/", form)
    assert response.status_code == 200
    assert "3 is not one of the available choices" in response.content.decode()
    assert not Table.objects.exists()


def test_it_shows_the_piles_as_dealt_and_no_card_still_to_come(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    deal = set_deal(table, 12.5)
    actions.play_for(table.pk, bob, "desert P3", None)
    client.force_login(bob)
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    # The deal goes on meanwhile: a loaded machine may draw the page a card or two later.
    by_now = (timezone.now() - deal.started) / timedelta(seconds=deal.pace)
    deck = table.record["rounds"][0]["deck"]
    shown = re.findall(r'class="orc-card g-\w" data-card="(\w+)"', html)
    assert 12 <= len(shown) <= by_now
    assert sorted(shown) == sorted(deck[: len(shown)])
    assert 'data-owner="bob"' in html
    assert f"{len(shown)} of 80 army cards dealt" in html
    assert 'data-slap="shield P1"' in html


def test_it_explains_an_armys_strength_by_its_parts():
    from games.orc.board import strength_parts

    army = {"B2": 2, "B6": 1, "BC": 1, "GI": 1, "WM": 2, "GR": 1}
    # people (2 + 2 + 6) × 2 = 20, giant 10, one machine served 9, gremlin 1, flying +5
    parts = strength_parts(army, "B", 45)
    assert parts[0] == "people 10, doubled by its chief: 20"
    assert "war machines served by a gremlin: 1 of 2: 9" in parts
    assert parts[-1] == "flying machine: +5"
    assert strength_parts({"B2": 3, "BC": 2, "GI": 1}, "B", 0) == [
        "two chiefs fight each other: the army is worth 0"
    ]


def test_it_replays_a_finished_game_card_by_card_with_the_piles_as_they_were(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    game = engine.random_game(4, seed=5, names=["alice", "bob", "charlie", "dave"])
    record = engine.to_record(game)
    Table.objects.filter(pk=table.pk).update(
        record=record, status=Table.FINISHED, result=engine.result(game)
    )
    first = record["rounds"][0]["actions"][0]
    at = int(first.rsplit("@", 1)[1])
    client.force_login(bob)
    # Each army card is a step; the first slap comes right after the card it went down at.
    html = client.get(f"/history/replay/{table.pk}/?step={at + 1}").content.decode()
    assert f"<code>{said(first, record['players'])}</code>" in html
    shown = re.findall(r'data-zone="pile" data-pile="(\d+)">(.*?)</ol>', html, re.S)
    cards = sum(len(re.findall(r"data-card=", inner)) for _, inner in shown)
    assert cards == at, "the piles as they were when the first player card went down"
    last = client.get(f"/history/replay/{table.pk}/").content.decode()
    assert "The game is over." in last


def test_it_opens_a_rematch_with_the_same_game_pace_and_ai_players(alice):
    bob, charlie = people("bob", "charlie")
    table = orc_table(alice, [bob, charlie], ["expert"], pace=2.0)
    Table.objects.filter(pk=table.pk).update(status=Table.FINISHED)
    following = actions.rematch(table.pk, bob)
    assert (following.game, following.options, following.seats_count) == ("orc", {"pace": 2.0}, 4)
    assert [s.ai_level for s in following.seats.all()] == ["", "expert"]


def test_it_tells_how_many_mercenaries_were_sent_but_not_which_until_the_reveal(client, alice):
    from games.orc.replay import position as orc_position
    from tests.games.leaks import scan_orc

    users = [alice, *people("bob", "charlie", "dave")]
    names = [u.username for u in users]
    table = orc_table(alice, users[1:])
    record = engine.to_record(engine.random_game(4, seed=5, names=names))
    # The first moment someone has sent mercenaries face down and another is still to send.
    state = next(
        state
        for n in range(1, 200)
        if (state := orc_position(record, n)).pending == "send"
        and state.log[-1][1].verb == "send"
        and state.log[-1][1].cards
    )
    sender, cards = state.log[-1][1].seat, state.log[-1][1].cards
    Table.objects.filter(pk=table.pk).update(record=engine.to_record(state))
    watcher = next(seat for seat in range(1, 4) if seat != sender)
    client.force_login(users[watcher])
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    n = len(cards)
    if n:
        assert f"{names[sender]} sends {n} mercenar{'y' if n == 1 else 'ies'} face down." in html
    else:
        assert f"{names[sender]} sends no mercenary." in html
    sent = said(f"{names[sender]}: send {' '.join(cards)}", names)
    assert f"{sent}<" not in html
    assert scan_orc(html, record, watcher) == []
    # The sender reads his own.
    client.force_login(users[sender])
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    assert f"{sent}<" in html
