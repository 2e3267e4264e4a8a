"""No Call to Glory answer to a move tells its mover about cards he cannot see: the draw
piles, the other hands, the other players' task cards.

The leak scanner (tests/games/leaks.py) posts a wide family of moves through the page's
door at two tables in one position that differ only in such cards, for every seat that sees
both alike, and compares the answers.
"""

import random

import pytest

from games import actions
from games.ctg import engine
from games.models import Table
from tests.conftest import persona
from tests.games.conftest import open_table
from tests.games.leaks import answers, differences

pytestmark = pytest.mark.django_db  # each move is rolled back inside the test's transaction

# alice starts round 1; bob and charlie follow. Imperial Tasks and the Ninja are in play, so
# that task cards and miniatures are in the family of moves too.

PLAYERS = ["alice", "bob", "charlie"]
OPTIONS = engine.Options(3, 3, frozenset({engine.VARIANT_TASKS, engine.VARIANT_NINJA}))
# The deal gives alice the cards at 0, 3 and 6 of the deck; her first draws are the tops of
# D1 (card 9) and D2 (card 60).
ALICE = (0, 3, 6, 9, 60)


def probe_moves() -> list[str]:
    values = engine.VALUES
    moves = [f"draw {pile}" for pile in ("D1", "D2", "X1", "X2")]
    moves += [f"lay {v} {n}" for v in values for n in (1, 2, 3, 4)]
    moves += [f"discard {v} {pile}" for v in values for pile in ("X1", "X2")]
    moves += ["bury X1", "bury X2", "end"]
    moves += [f"ninja {name} {v}" for name in PLAYERS for v in values]
    tasks = engine.DEFAULT_TASKS
    return moves + [f"reveal {deck}{v}" for deck in tasks for v in tasks[deck]]


def shuffled_except(deck: list[int], kept, seed: int) -> list[int]:
    """`deck` with every card but those at the positions `kept` shuffled among themselves."""
    moved = [i for i in range(len(deck)) if i not in kept]
    cards = [deck[i] for i in moved]
    random.Random(seed).shuffle(cards)
    out = list(deck)
    for i, card in zip(moved, cards, strict=True):
        out[i] = card
    return out


def played(record: dict, lines: list[str]) -> dict:
    state = engine.from_record(record | {"rounds": [record["rounds"][0] | {"actions": lines}]})
    return engine.to_record(state)


def position_pair(position: str) -> tuple[dict, dict]:
    """Two records of one position: the second with other cards where `position` hides them."""
    record = engine.to_record(engine.new_game(OPTIONS, PLAYERS, seed=4))
    deck = record["rounds"][0]["deck"]
    if position == "draw":
        # Nobody has seen a card of the draw piles yet.
        other = shuffled_except(deck, range(9), 1)
        return record, record | {"rounds": [{"deck": other, "actions": []}]}
    first, tasks = dict(record), dict(record["tasks"])
    # alice's cards stay; bob's and charlie's hands, the piles and their task cards change.
    second = first | {"rounds": [{"deck": shuffled_except(deck, ALICE, 2), "actions": []}]}
    second["tasks"] = tasks | {"bob": tasks["charlie"], "charlie": tasks["bob"]}
    if position == "action":
        lines = ["alice: draw D1", "alice: draw D2"]
        return played(first, lines), played(second, lines)
    # The end of round 1, alice first to reveal: a random round played to that point.
    state = engine.from_record(first)
    rng = random.Random(5)
    while state.pending != "reveal":
        state.apply(rng.choice(state.legal_actions()))
    lines = engine.to_record(state)["rounds"][0]["actions"]
    second["rounds"] = [{"deck": deck, "actions": []}]
    return played(first, lines), played(second, lines)


def table_at(users, record) -> Table:
    table = open_table(users[0], seats_count=3, rounds=3, imperial_tasks=True, ninja=True)
    for user in users[1:]:
        actions.take_seat(table.pk, user)
    actions.start(table.pk, users[0])
    state = engine.from_record(record)
    Table.objects.filter(pk=table.pk).update(
        record=record, version=table.plugin.version(state), deadline=None
    )
    return Table.objects.get(pk=table.pk)


@pytest.mark.parametrize("position", ["draw", "action", "reveal"])
def test_it_answers_every_move_alike_whatever_the_mover_cannot_see(client, settings, position):
    # Hundreds of moves a minute from one person and one address: the scanner is no flood.
    settings.RATE_LIMIT_POSTS_PER_USER = settings.RATE_LIMIT_POSTS_PER_ADDRESS = 10**6
    users = [persona(name) for name in PLAYERS]
    first_record, second_record = position_pair(position)
    a, b = engine.from_record(first_record), engine.from_record(second_record)
    assert a.pending == b.pending and a.decider == b.decider == 0
    assert engine.to_record(a) != engine.to_record(b)
    alike = {PLAYERS[s]: users[s] for s in range(3) if engine.view(a, s) == engine.view(b, s)}
    assert "alice" in alike and len(alike) == (3 if position == "draw" else 1)
    first, second = table_at(users, first_record), table_at(users, second_record)
    moves = probe_moves()
    at_first = answers(client, first.pk, alike, moves, first.version)
    at_second = answers(client, second.pk, alike, moves, second.version)
    assert differences(at_first, at_second) == []
    refused = [key for key, (status, _words) in at_first.items() if status == 400]
    print(f"{position}: {len(at_first)} answers compared, {len(refused)} refusals")
    assert refused and len(refused) < len(at_first)
