"""No De l'Orc frame shows a card not dealt yet, or another seat's committed cards before
the reveal: every frame of every socket, from the deal through the battles, is judged by
the scanner in tests/games/leaks.py against the record. Nor does any answer to a move: the
scanner posts moves of every decision at two tables alike to their movers."""

import asyncio
import copy
import itertools
from functools import partial

import pytest
from channels.db import database_sync_to_async

from ctg_site.asgi import application
from games.models import Table
from games.orc import engine
from games.orc.engine.views import view
from games.orc.replay import position as orc_position
from games.records import first_actions
from tests.conftest import persona
from tests.games.leaks import Watch, answers, differences
from tests.games.orc_helpers import orc_table, people, random_positions, set_deal, table_at

pytestmark = pytest.mark.django_db(transaction=True)

# alice deals round 1; bob plays (his decisions go to the stand-in when his clock runs out);
# charlie and an anonymous visitor watch.


@database_sync_to_async
def setting_up():
    alice, bob, charlie = (persona(name) for name in ("alice", "bob", "charlie"))
    table = orc_table(alice, [bob], ["heuristic", "expert"], clock="live", clock_seconds=1)
    set_deal(table, 76.5)
    return table, {"alice": alice, "bob": bob, "charlie": charlie, "anonymous": None}


@database_sync_to_async
def round_of(table_id: int) -> tuple[int, str]:
    table = Table.objects.get(pk=table_id)
    state = table.state()
    return state.round, state.pending or ""


@pytest.mark.long
async def test_it_never_shows_an_undealt_card_nor_a_commitment_before_the_reveal(
    redis_channel_layer,
):
    table, users = await setting_up()
    watch = Watch(application)
    for label, user in users.items():
        assert await watch.open_table(user, table.pk, label)
    seen = set()
    for _ in range(600):
        await asyncio.sleep(0.1)
        await watch.settle()
        rnd, pending = await round_of(table.pk)
        seen.add(pending)
        if rnd > 1 or pending == "":
            break
    await watch.close()
    print(f"leak scan: {watch.frames} frames judged, {len(watch.problems)} problems")
    assert watch.problems == []
    assert {"recruit", "champion", "send", "people"} <= seen


def test_the_scanner_catches_an_undealt_card_and_an_army_shown_before_the_reveal():
    state = engine.new_game(["ann", "bob", "cy", "dee"], seed=7)
    state.deal(20)
    record = engine.to_record(state)
    deck = record["rounds"][0]["deck"]
    stamp = 1 * 10_000_000 + 20 * 10_000
    pile = '<ol data-zone="pile" data-pile="3">{}</ol>'
    honest = pile.format("".join(f'<li data-card="{c}"></li>' for c in deck[2:20:9]))
    # Card 21 goes onto pile 3 (of 9), but only 20 are dealt.
    early = pile.format("".join(f'<li data-card="{c}"></li>' for c in deck[2:21:9]))
    frame = '<template data-deal="{0}"><div data-stamp="{0}">{1}</div></template>'
    from tests.games.leaks import scan_orc

    assert scan_orc(frame.format(stamp, honest), record, None) == []
    assert scan_orc(frame.format(stamp, early), record, None) != []


def test_the_scanner_catches_a_send_before_the_reveal_with_the_players_named_as_shown():
    from games.orc.dealer import stamp
    from games.orc.engine.views import hidden
    from games.records import action_lines
    from tests.games.leaks import scan_orc

    record = engine.to_record(engine.random_game(4, seed=7, names=["ann", "Sergeant-2", "c", "d"]))
    lines = [line for _r, line in action_lines(record)]
    # Sergeant 2 has sent mercenaries, face down until the reveal.
    count, state = next(
        (k, state)
        for k in range(1, len(lines) + 1)
        if lines[k - 1].startswith("Sergeant-2: send ") and hidden(state := orc_position(record, k))
    )
    sent = lines[count - 1].partition(": ")[2]
    shown = ["ann", "Sergent 2", "c", "d"]
    board = '<div id="board" data-stamp="{}"><ol><li>{}</li></ol></div>'
    for line in (f"Sergeant-2: {sent}", f"Sergent 2: {sent}"):
        assert scan_orc(board.format(stamp(state), line), record, 0, shown) != [], line
    honest = board.format(stamp(state), f"Sergent 2: {len(sent.split()) - 1} face down")
    assert scan_orc(honest, record, 0, shown) == []


# ----------------------------------------------------------------------------- refusals
# Two tables in one public position: the second has another secret seed (which draws the
# commando's card and deals the next rounds) and, where the position hides any cards, other
# ones: the cards still to be dealt and the start point, or the mercenaries a player sent face
# down. Every seat that sees both tables alike posts the same moves at both, through the
# page's door; every answer must be the same. The moves are a wide family of every decision:
# legal, illegal, and naming cards that lie face down.

PLAYERS = ["alice", "bob", "charlie", "dave"]
SENDABLE = ("GI", "TR", "WM", "GR")


def probe_moves(state) -> list[str]:
    fought = engine.PEOPLES[state.people] if state.people >= 0 else "B"
    codes = (*SENDABLE, "FM", f"{fought}2", f"{fought}6", f"{fought}C")
    moves = ["desert P1", "shield P1", "shield P99"]
    moves += [f"champion {name}" for name in PLAYERS]
    moves += ["spy 1 pass", "spy 2 pass"]
    moves += [f"spy 1 {name} {code}" for name in PLAYERS for code in ("GI", "SP2")]
    moves += [f"people {p}" for p in engine.PEOPLES]
    moves += ["send", *(f"send {code}" for code in codes), "send GI TR", "send GR GR"]
    moves += ["commando pass"]
    for name in PLAYERS:
        for group in ("people", "mercenary"):
            moves.append(f"commando {name} {group}")
            moves += [f"commando {name} {group} {code}" for code in codes]
    return [*moves, "fly pass", "fly GR", "fly GR GR", "fly TR"]


def sent_otherwise(record, lines, n, state):
    """The record cut after `n` lines with one send of this battle by another seat than the
    decider's changed to as many other mercenaries from the sender's hand; None if none can."""
    texts = [line.partition(": ")[2] for _r, line in lines[:n]]
    start = max(i for i, text in enumerate(texts) if text.startswith("people "))
    for i in range(start + 1, n):
        name, sent = lines[i][1].partition(": ")[0], texts[i].split()[1:]
        if not texts[i].startswith("send") or not sent or name == PLAYERS[state.decider]:
            continue
        hand = orc_position(record, i).hands[PLAYERS.index(name)]
        pool = [code for code in SENDABLE for _ in range(hand[engine.CODES.index(code)])]
        for other in sorted(set(itertools.combinations(pool, len(sent)))):
            if sorted(other) != sorted(sent):
                changed = list(lines[:n])
                changed[i] = (lines[i][0], f"{name}: send {' '.join(other)}")
                return first_actions(record, changed, n)
    return None


def deal_variants(dealt: int, starts: tuple[int, int]):
    """Round 1 at `dealt` cards, no card put down: two decks alike in the dealt cards only,
    with the start card after `starts` cards."""
    record = engine.to_record(engine.new_game(PLAYERS, seed=3))
    deck = record["rounds"][0]["deck"]
    other = copy.deepcopy(record)
    other["rounds"][0]["deck"] = deck[:dealt] + deck[dealt:][::-1]
    record["rounds"][0]["start_after"], other["rounds"][0]["start_after"] = starts
    return record, other, dealt


def position_pair(decision: str):
    """Two records of one public position where `decision` is due, and the cards dealt by
    the clock there (None after the deal)."""
    if decision == "deal":  # before the start card: where it lies is secret too
        return deal_variants(12, (30, 50))
    if decision == "shields":
        return deal_variants(40, (27, 27))
    for record, lines, n, state in random_positions(PLAYERS):
        if decision == "champion" and n < len(lines) and " champion " in f" {lines[n][1]}":
            # The record stops at the last shield; the clock deals the rest.
            return first_actions(record, lines, n), first_actions(record, lines, n), 80
        if state.pending != decision or decision == "champion":
            continue
        cut = first_actions(record, lines, n)
        if decision not in ("send", "commando"):
            return cut, cut, None
        other = sent_otherwise(record, lines, n, state)
        if other is not None:
            return cut, other, None
    raise AssertionError(f"no random game reaches a {decision} decision")


def scan_refusals(client, settings, decision: str, moves=None):
    """The answers to every move at the two tables of `decision`'s position, by every seat
    that sees both alike: (answers at the first, answers at the second)."""
    # Hundreds of moves a minute from one person and one address: the scanner is no flood.
    settings.RATE_LIMIT_POSTS_PER_USER = settings.RATE_LIMIT_POSTS_PER_ADDRESS = 10**6
    users = people(*PLAYERS)
    first_record, second_record, dealt = position_pair(decision)
    found = []
    for record in (first_record, second_record):
        table, state = table_at(users, record, dealt)
        assert state.pending == ("recruit" if decision in ("deal", "shields") else decision)
        before = None if dealt is None else partial(set_deal, table, dealt + 0.5)
        found.append((table, state, before))
    (first, a, before_a), (second, b, before_b) = found
    assert first.seed != second.seed and first.version == second.version
    alike = {PLAYERS[s]: users[s] for s in range(4) if view(a, s) == view(b, s)}
    if decision in ("deal", "shields"):
        assert a.deck != b.deck and len(alike) == 4
    elif decision in ("send", "commando"):
        assert a.army != b.army and PLAYERS[a.decider] in alike and len(alike) == 3
    else:
        assert len(alike) == 4
    moves = probe_moves(a) if moves is None else moves
    return (
        answers(client, first.pk, alike, moves, first.version, before_a),
        answers(client, second.pk, alike, moves, second.version, before_b),
    )


@pytest.mark.django_db  # each move is rolled back inside the test's transaction
@pytest.mark.parametrize(
    "decision", ["deal", "shields", "champion", "spy", "people", "send", "commando", "fly"]
)
def test_it_answers_every_move_alike_whatever_the_mover_cannot_see(client, settings, decision):
    at_first, at_second = scan_refusals(client, settings, decision)
    assert differences(at_first, at_second) == []
    refused = [key for key, (status, _words) in at_first.items() if status == 400]
    print(f"{decision}: {len(at_first)} answers compared, {len(refused)} refusals")
    assert refused and len(refused) < len(at_first)


@pytest.mark.django_db
def test_the_scanner_catches_a_refusal_that_tells_which_card_lies_face_down(
    client, settings, monkeypatch
):
    # A site that took the commando's card from its holder, and refused those not committed.
    monkeypatch.setattr(engine, "parse_move", engine.parse_action)
    moves = [f"commando {name} mercenary {code}" for name in PLAYERS for code in SENDABLE]
    found = differences(*scan_refusals(client, settings, "commando", moves))
    assert any("committed no" in problem for problem in found), found
