"""A battle's reveal (ORC-RULES.md §4.5-§4.7): when the last commitment (and the commando) is
in, the table stops on every army face up, its strength worked out, the winners and points,
until the players continue or the pause runs out; and the replay has it as a step of its own.
"""

import re

import pytest
from django.utils import timezone

from games import actions
from games.models import Table
from games.orc import ai, engine
from games.orc.models import Deal
from games.orc.replay import Step, steps
from games.records import action_lines, first_actions
from tests.games.orc_helpers import people, random_positions, table_at

pytestmark = pytest.mark.django_db

# Four people, each of whom sees the reveal on his own board; alice is round 1's wizard.
PLAYERS = ["alice", "bob", "charlie", "dave"]


def before_a_reveal(battle: int = 1):
    """A table of four people one decision before the end of battle `battle` of round 1,
    with the position and that decision (the record's own)."""
    users = people(*PLAYERS)
    for record, lines, n, state in random_positions(PLAYERS):
        fought = len(state.history[0].battles) if state.rnd == 0 else None
        if state.pending in ("send", "commando", "fly") and fought == battle - 1:
            after = engine.from_record(first_actions(record, lines, n + 1))
            if len(after.history[0].battles) == battle:
                table, state = table_at(users, first_actions(record, lines, n))
                return users, table, state, lines[n][1].split(": ", 1)[1]
    raise AssertionError("no random game reaches that battle's end")


def board(client, user, table) -> str:
    client.force_login(user)
    return client.get(f"/play/t/{table.pk}/").content.decode()


def test_it_stops_on_the_reveal_with_every_army_face_up_for_each_viewer(client, settings):
    settings.REVEAL_PAUSE_SECONDS = 30
    users, table, state, move = before_a_reveal()
    actions.play(table.pk, state.decider, move, table.version)
    table.refresh_from_db()
    assert table.pause_until is not None and table.deadline is None
    fought = engine.from_record(table.record).history[0].battles[0]
    for user in users:
        html = board(client, user, table)
        reveal = re.search(r'<section class="reveal".*?</section>', html, re.S)
        assert reveal, f"{user.username} sees no reveal"
        shown = dict(re.findall(r'data-player="(\w+)".*?data-strength="(\d+)"', reveal[0], re.S))
        assert shown == {PLAYERS[s]: str(v) for s, v in fought.strength.items()}
        winners = re.search(r'data-winners="([^"]*)"', reveal[0])[1]
        assert winners == ",".join(PLAYERS[s] for s in fought.winners)
        # Every card of every army, by its count, face up.
        for s, army in fought.armies.items():
            entry = re.search(rf'data-player="{PLAYERS[s]}".*?</li>', reveal[0], re.S)[0]
            counted = re.findall(r'data-card="(\w+)" data-count="(\d+)"', entry)
            cards = {code: int(n) for code, n in counted}
            assert cards == {engine.CODES[c]: k for c, k in enumerate(army) if k}
        assert 'data-action="continue"' in html
        assert 'id="decision"' not in html, "nobody decides while the armies are shown"
    assert "The next battle begins in" in html


def test_it_goes_on_when_every_person_has_continued(client, settings):
    settings.REVEAL_PAUSE_SECONDS = 30
    users, table, state, move = before_a_reveal()
    actions.play(table.pk, state.decider, move, table.version)
    with pytest.raises(actions.Refused):
        view = engine.view(Table.objects.get(pk=table.pk).state(), 0)
        actions.play(table.pk, 0, ai.decide("heuristic", view, seed=1), table.version + 1)
    for user in users:
        actions.continue_round(table.pk, user)
    table.refresh_from_db()
    assert table.pause_until is None
    assert 'id="reveal"' not in board(client, users[0], table)


def test_it_starts_the_next_rounds_deal_only_once_the_round_is_seen(client, settings):
    settings.ROUND_PAUSE_SECONDS = 30
    users, table, state, move = before_a_reveal(battle=4)
    actions.play(table.pk, state.decider, move, table.version)
    table.refresh_from_db()
    assert table.pause_until is not None
    assert table.pause_until - timezone.now() > timezone.timedelta(seconds=20)
    deal = Deal.objects.get(table=table)
    assert deal.round == 1 and deal.started is None, "no card of round 2 before the pause ends"
    html = board(client, users[1], table)
    assert 'data-battle="4"' in html and "The next round begins in" in html
    for user in users:
        actions.continue_round(table.pk, user)
    deal.refresh_from_db()
    assert deal.started is not None


def test_it_replays_each_reveal_as_its_own_step(client):
    record = engine.to_record(engine.random_game(4, seed=5, names=PLAYERS))
    state = engine.from_record(record)
    replay = steps(record)
    reveals = [i for i, s in enumerate(replay) if isinstance(s, Step) and s.reveal]
    assert len(reveals) == sum(len(r.battles) for r in state.history)
    users = people(*PLAYERS)
    table, _state = table_at(users, record)
    Table.objects.filter(pk=table.pk).update(status=Table.FINISHED, result=engine.result(state))
    client.force_login(users[1])
    first = state.history[0].battles[0]
    html = client.get(f"/history/replay/{table.pk}/?step={reveals[0] + 1}").content.decode()
    reveal = re.search(r'<section class="reveal".*?</section>', html, re.S)[0]
    shown = dict(re.findall(r'data-player="(\w+)".*?data-strength="(\d+)"', reveal, re.S))
    assert shown == {PLAYERS[s]: str(v) for s, v in first.strength.items()}
    # The step before is the decision that ended the battle, without the reveal.
    before = client.get(f"/history/replay/{table.pk}/?step={reveals[0]}").content.decode()
    assert '<section class="reveal"' not in before


def test_it_sums_up_the_round_before_the_next_deal(client, settings):
    settings.ROUND_PAUSE_SECONDS = 30
    users, table, state, move = before_a_reveal(battle=4)
    record = table.record
    lines = record["rounds"][0]["actions"]
    champion = next(i for i, line in enumerate(lines) if " champion " in f" {line}")
    # What each took from the piles: his hand right after the champion, before any spy.
    after_champion = engine.from_record(first_actions(record, action_lines(record), champion + 1))
    actions.play(table.pk, state.decider, move, table.version)
    table.refresh_from_db()
    result = engine.result(engine.from_record(table.record))["rounds"][0]
    for user in users:
        html = board(client, user, table)
        end = re.search(r'<section class="round-end".*?</section>', html, re.S)
        assert end, f"{user.username} sees no summary of the round"
        for seat in range(1, 4):
            entry = re.search(rf'<li data-player="{PLAYERS[seat]}".*?</li>', end[0], re.S)[0]
            counted = re.findall(r'data-card="(\w+)" data-count="(\d+)"', entry)
            hand = after_champion.hands[seat]
            assert {c: int(n) for c, n in counted} == {
                engine.CODES[c]: k for c, k in enumerate(hand) if k
            }
        spies = [line for line in lines if ": spy " in line]
        assert end[0].count('data-fact="spy"') == len(spies)
        assert f"named {result['champion']} his champion" in end[0]
        # The four battles and each player's points and total.
        assert end[0].count("<li>Battle ") == 4
        for name, score in result["scores"].items():
            row = re.search(rf'<tr data-player="{name}">.*?</tr>', end[0], re.S)[0]
            assert f"<td>{score}</td>" in row
        assert 'data-action="continue"' in html and "The next round begins in" in html


def test_a_continue_from_a_reveal_that_is_over_does_not_pass_the_next(client, settings):
    # Two quick taps on Continue, or a page a push has not reached yet: the form names the
    # pause its page showed, and a later reveal still waits for its own Continue.
    settings.REVEAL_PAUSE_SECONDS = 30
    users, table, state, move = before_a_reveal()
    shown_before = table.version  # the page's position before this reveal
    actions.play(table.pk, state.decider, move, table.version)
    table.refresh_from_db()
    client.force_login(users[0])
    url = f"/play/t/{table.pk}/continue/"
    client.post(url, {"version": shown_before}, headers={"HX-Request": "true"})
    table.refresh_from_db()
    assert table.pause_until is not None and table.continued == []
    assert 'data-action="continue"' in board(client, users[0], table)
    answer = client.post(url, {"version": table.version}, headers={"HX-Request": "true"})
    assert answer.status_code == 204
    table.refresh_from_db()
    assert table.continued == [0]
    garbled = client.post(url, {"version": "x"}, headers={"HX-Request": "true"})
    assert garbled.status_code == 400 and "The move lacks its position." in garbled.text
