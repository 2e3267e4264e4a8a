import random
import re

import pytest

from games import actions
from games.ctg import engine
from games.models import Table
from tests.games.conftest import open_table
from tests.games.leaks import scan

pytestmark = pytest.mark.django_db

# alice and bob play; charlie watches (public table); anonymous visitors watch too.


def page(client, user, table):
    if user is not None:
        client.force_login(user)
    else:
        client.logout()
    response = client.get(f"/play/t/{table.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_each_player_his_own_hand_and_spectators_none(
    client, running_table, alice, bob, charlie
):
    state = running_table.state()
    for user, viewer in [(alice, 0), (bob, 1), (charlie, None), (None, None)]:
        html = page(client, user, running_table)
        assert scan(html, state, viewer) == []
        assert ('data-zone="hand"' in html) == (viewer is not None)


def test_it_offers_only_legal_decisions_to_the_decider(client, running_table, alice, bob):
    state = running_table.state()
    html = page(client, alice, running_table)
    offered = {text for text in engine.view(state, 0)["legal_texts"]}
    for text in offered:
        assert f'data-action="{text}"' in html
    # The piles themselves are buttons of the decision form: tap a pile to draw.
    assert 'class="card back tap" form="decision" name="action" value="draw D1"' in html
    assert "data-action=" not in page(client, bob, running_table)


def test_it_hides_club_only_tables_from_outsiders(client, alice, charlie):
    from accounts.models import Club, Membership

    club = Club.objects.create(name="Kyoto", slug="kyoto")
    Membership.objects.create(club=club, user=alice, role="organiser")
    table = open_table(alice, visibility=Table.CLUB, club=club)
    client.force_login(charlie)

    response = client.get(f"/play/t/{table.pk}/")

    assert response.status_code == 404
    assert b"members of its club" in response.content


def test_it_answers_a_refused_htmx_move_with_the_rule_in_place(client, running_table, alice):
    client.force_login(alice)
    response = client.post(
        f"/play/t/{running_table.pk}/play/",
        {"action": "lay 20 2", "version": running_table.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    running_table.refresh_from_db()
    assert running_table.version == 0


def test_it_gives_a_stale_page_the_fresh_board_with_already_played(client, running_table, alice):
    client.force_login(alice)
    state = running_table.state()
    text = engine.action_text(state.legal_actions()[0], state.names)
    url = f"/play/t/{running_table.pk}/play/"

    first = client.post(url, {"action": text, "version": 0}, HTTP_HX_REQUEST="true")
    second = client.post(url, {"action": text, "version": 0}, HTTP_HX_REQUEST="true")

    assert first.status_code == 204
    assert second.status_code == 409
    body = second.content.decode()
    assert "already played" in body
    assert 'id="board" hx-swap-oob="true"' in body


def test_it_refuses_garbage_moves_with_a_4xx(client, running_table, alice, charlie):
    url = f"/play/t/{running_table.pk}/play/"
    client.force_login(alice)
    assert client.post(url, {"action": "fly away", "version": 0}).status_code == 302
    assert client.post(url, {"action": "draw D1"}, HTTP_HX_REQUEST="true").status_code == 400
    client.force_login(charlie)
    assert (
        client.post(url, {"action": "draw D1", "version": 0}, HTTP_HX_REQUEST="true").status_code
        == 403
    )
    running_table.refresh_from_db()
    assert running_table.version == 0


def discarding(texts: list[str]) -> str:
    """A turn that only draws from the draw piles and discards, onto X1 whenever the
    empty-pile rule allows it: X1 holds two cards after three turns, whatever the deal."""
    for wanted in ("discard .* X1", "draw D", "discard "):
        if found := [text for text in texts if re.match(wanted, text)]:
            return found[0]
    raise AssertionError(f"neither a draw nor a discard among {texts}")


def test_it_lists_a_discard_pile_top_card_first_for_anyone_watching(client, running_table):
    table = running_table
    for _ in range(12):
        if len(engine.public_view(table.state())["discard_piles"]["X1"]) == 2:
            break
        state = table.state()
        texts = [engine.action_text(action, state.names) for action in state.legal_actions()]
        actions.play(table.pk, state.decider, discarding(texts), table.version)
        table.refresh_from_db()
    pile = engine.public_view(table.state())["discard_piles"]["X1"]
    assert len(pile) == 2, f"X1 holds {pile} after {table.version} moves"
    response = client.get(f"/play/t/{table.pk}/discard-pile/X1/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Discard pile X1" in html and "Back to the table" in html
    shown = [int(value) for value in re.findall(r'data-card="(\d+)"', html)]
    assert shown == pile[::-1]
    assert client.get(f"/play/t/{table.pk}/discard-pile/D1/").status_code == 404


def test_it_has_no_discard_pile_before_the_game_starts(client, alice):
    table = open_table(alice)
    assert client.get(f"/play/t/{table.pk}/discard-pile/X1/").status_code == 404


@pytest.mark.parametrize(
    "variants", [(), ("ninja",), ("imperial-tasks",), ("imperial-tasks", "ninja")]
)
def test_it_leaks_nothing_in_any_page_over_random_games(client, alice, bob, charlie, variants):
    options = {"imperial_tasks": "imperial-tasks" in variants, "ninja": "ninja" in variants}
    table = open_table(
        alice, seats_count=3, rounds=3 if options["imperial_tasks"] else 1, **options
    )
    actions.take_seat(table.pk, bob)
    actions.take_seat(table.pk, charlie)
    actions.start(table.pk, alice)
    rng = random.Random(len(variants))
    viewers = [(alice, 0), (bob, 1), (charlie, 2), (None, None)]
    step = 0
    while True:
        table.refresh_from_db()
        if table.status != Table.RUNNING:
            break
        state = table.state()
        if step % 5 == 0 or table.pause_until is not None:
            for user, viewer in viewers:
                assert scan(page(client, user, table), state, viewer) == [], (step, viewer)
        if table.pause_until is not None:  # a round's end, seen by everyone
            for user in (alice, bob, charlie):
                actions.continue_round(table.pk, user)
            continue
        action = rng.choice(state.legal_actions())
        actions.play(
            table.pk, state.decider, engine.action_text(action, state.names), table.version
        )
        step += 1
    assert table.status == Table.FINISHED
    client.force_login(alice)
    assert client.get(f"/play/t/{table.pk}/result/").status_code == 200
