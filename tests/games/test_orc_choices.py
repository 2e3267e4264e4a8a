"""Decisions made of choices (issue 38): a spy names a player, then a kind of card, where the
page offered one list of every pair; mercenaries are ticked card by card, and the page shows
the army's strength as the ticked cards would make it. Both are forms that work without
JavaScript; the server checks the move they make as any other.
"""

import html
import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import actions
from games.models import Table
from games.orc import engine
from games.records import first_actions
from tests.conftest import start_daphne, stop_daphne, url_of, use_redis_layer
from tests.games.orc_helpers import people, random_positions, table_at
from tests.games.test_browser_play import session_cookie
from tests.games.test_browser_table import open_page

pytestmark = pytest.mark.django_db

# alice hosts and deals round 1; bob, charlie and dave play.
PLAYERS = ["alice", "bob", "charlie", "dave"]
KINDS = [code for code in engine.CODES if not code.startswith("SP")]


def at(pending: str, accept=lambda record, lines, n, state: True):
    """A table at the first position of a random game where `pending` is due and `accept`
    holds; with its users, position, record and lines, and n (the lines played)."""
    users = people(*PLAYERS)
    for record, lines, n, state in random_positions(PLAYERS):
        if state.pending == pending and accept(record, lines, n, state):
            table, state = table_at(users, first_actions(record, lines, n))
            return users, table, state, record, lines, n
    raise AssertionError(f"no random game reaches a {pending} decision")


def page(client, user, table) -> str:
    client.force_login(user)
    return client.get(f"/play/t/{table.pk}/").content.decode()


def post(client, user, table, **fields):
    client.force_login(user)
    data = {"version": table.version} | fields
    return client.post(f"/play/t/{table.pk}/play/", data, HTTP_HX_REQUEST="true")


def last_line(table) -> str:
    table.refresh_from_db()
    return [line for r in table.record["rounds"] for line in r["actions"]][-1]


def test_it_offers_a_spy_a_player_then_a_kind_of_card_not_a_list_of_every_pair(client):
    users, table, state, *_ = at("spy")
    holder, n = state.decider, state.spy_n
    html_ = page(client, users[holder], table)

    assert '<select name="action"' not in html_
    targets = re.findall(r'<input type="radio" name="target" value="(\w+)"', html_)
    assert targets == [name for name in PLAYERS if name != PLAYERS[holder]]
    kinds = re.findall(r'<input type="radio" name="part" value="(\w+)"', html_)
    assert sorted(kinds) == sorted(KINDS), "every kind but the spies, once"
    assert f'value="spy {n}" data-action="spy {n}"' in html_
    assert f'value="spy {n} pass" data-action="spy {n} pass"' in html_
    # The others see no choice of his.
    other = next(u for i, u in enumerate(users) if i != holder)
    assert 'name="target"' not in page(client, other, table)


def test_a_spy_s_choices_make_his_move(client):
    users, table, state, *_ = at("spy")
    holder, n = state.decider, state.spy_n
    target = next(name for name in PLAYERS if name != PLAYERS[holder])
    answer = post(client, users[holder], table, action=f"spy {n}", target=target, part="GI")
    assert answer.status_code == 204
    assert last_line(table) == f"{PLAYERS[holder]}: spy {n} {target} GI"


def test_a_spy_passes_with_the_pass_button_alone(client):
    users, table, state, *_ = at("spy")
    holder, n = state.decider, state.spy_n
    assert 'id="decision-pass"' in page(client, users[holder], table)
    assert post(client, users[holder], table, action=f"spy {n} pass").status_code == 204
    assert last_line(table) == f"{PLAYERS[holder]}: spy {n} pass"


@pytest.mark.parametrize(
    "fields",
    [
        {"target": "nobody", "part": "GI"},  # no such player
        {"target": "bob", "part": "SP2"},  # spies cannot be named
        {"target": "bob"},  # no card
        {"part": "GI"},  # no player
        {"target": "bob", "part": "GI", "action": "spy 9"},  # not the spy due
    ],
)
def test_it_refuses_a_spy_s_choices_that_make_no_move_with_a_400(client, fields):
    users, table, state, *_ = at("spy", lambda *position: PLAYERS[position[3].decider] != "bob")
    before = table.record
    answer = post(
        client, users[state.decider], table, **({"action": f"spy {state.spy_n}"} | fields)
    )
    assert answer.status_code == 400
    table.refresh_from_db()
    assert table.record == before


def sends_without_a_change(record, lines, n, state) -> bool:
    """The decider's send is next, and no commando takes from his army nor does his flying
    machine join it in that battle: its revealed strength is the one his send made."""
    me = PLAYERS[state.decider]
    for r, line in lines[n + 1 :]:
        name, text = line.split(": ", 1)
        if r != lines[n][0] or text.startswith("people"):
            break
        if text.startswith(f"commando {me} ") or (name == me and text.startswith("fly GR")):
            return False
    return lines[n][1].startswith(f"{me}: send")


def test_it_shows_each_mercenary_as_a_toggle_and_the_strength_the_battle_then_gives(client):
    users, table, state, record, lines, n = at("send", sends_without_a_change)
    seat = state.decider
    html_ = page(client, users[seat], table)

    boxes = re.findall(r'<input type="checkbox" name="part" value="(\w+)"', html_)
    hand = state.hands[seat]
    assert sorted(boxes) == sorted(
        code for code in ("GI", "TR", "WM", "GR") for _ in range(hand[engine.CODES.index(code)])
    ), "one toggle per mercenary card he may send"
    strengths = json.loads(html.unescape(re.search(r'data-strengths="([^"]*)"', html_)[1]))
    shown_now = re.search(r'id="would-be" data-strength="(\d+)"', html_)[1]
    assert int(shown_now) == strengths["0-0-0-0"]

    # The send the game's record made, ticked box by box as the page posts it.
    sent = lines[n][1].split(": send", 1)[1].split()
    answer = post(client, users[seat], table, action="send", part=sent)
    assert answer.status_code == 204
    assert last_line(table) == lines[n][1]
    # The battle, fought to its end as the record goes on, gives his army that strength.
    battle = engine.from_record(record)
    fought = battle.history[state.rnd].battles[state.battle]
    key = "-".join(str(sent.count(code)) for code in ("GI", "TR", "WM", "GR"))
    assert strengths[key] == fought.strength[seat]


def test_only_the_sender_is_given_the_strengths_of_his_choices(client):
    users, table, state, *_ = at("send")
    for i, user in enumerate(users):
        assert ("data-strengths" in page(client, user, table)) == (i == state.decider)
    client.logout()
    assert "data-strengths" not in client.get(f"/play/t/{table.pk}/").content.decode()


def test_it_refuses_mercenaries_he_does_not_hold_with_a_400(client):
    users, table, state, *_ = at(
        "send", lambda *position: position[3].hands[position[3].decider][13] < 3
    )
    answer = post(client, users[state.decider], table, action="send", part=["GI"] * 3)
    assert answer.status_code == 400
    assert Table.objects.get(pk=table.pk).record == table.record


@pytest.fixture
def server(redis_channel_layer):
    # The board pushed from this process reaches the page through Redis.
    daphne = start_daphne(use_redis_layer)
    yield url_of(daphne)
    stop_daphne(daphne)


def push_again(table_id: int) -> None:
    try:
        actions.push_board(Table.objects.get(pk=table_id))
    finally:
        connection.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_mercenaries_ticked_stay_ticked_when_a_push_redraws_the_board(server, request):
    def holds_mercenaries(record, lines, n, state) -> bool:
        hand = state.hands[state.decider]
        return any(hand[engine.CODES.index(code)] for code in ("GI", "TR", "WM", "GR"))

    users, table, state, *_ = at("send", holds_mercenaries)
    seat = state.decider
    cookie = session_cookie(users[seat], server)
    browser = request.getfixturevalue("browser")
    page_ = open_page(browser, cookie, f"{server}/play/t/{table.pk}/")
    form = page_.locator("form#decision")
    strengths = json.loads(form.get_attribute("data-strengths"))
    box = form.locator("input[type=checkbox]").first
    box.check()
    code = box.get_attribute("value")
    key = "-".join(str(int(c == code)) for c in ("GI", "TR", "WM", "GR"))
    assert page_.inner_text("#would-be") == str(strengths[key])

    # Another player's move, a clock, a dealer taking over: the board comes again.
    page_.evaluate("document.querySelector('form#decision').dataset.before = '1'")
    with ThreadPoolExecutor(1) as orm:  # the ORM from a thread of its own: not Playwright's
        orm.submit(push_again, table.pk).result()
    page_.wait_for_function("!document.querySelector('form#decision').dataset.before")
    assert form.locator("input[type=checkbox]").first.is_checked()
    assert form.locator("input[type=checkbox]:checked").count() == 1
    assert page_.inner_text("#would-be") == str(strengths[key])
