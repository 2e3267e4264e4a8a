"""Building positions for rule tests.

Personas: ann (seat 0) is round 1's wizard; bob, cy, dee (and eve, fay, gus in bigger
games) sit clockwise after her. Rule tests either deal a crafted deck or poke the hands
they need just before the spies; card conservation is checked on real games elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.orc.engine import State, action_text, new_game, parse_action
from games.orc.engine.cards import CODES, COPIES, INDEX, N_CODES

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
FULL = [CODES[c] for c in range(N_CODES) for _ in range(COPIES[c])]


def deck_with(first: Iterable[str]) -> list[str]:
    """An 80-card deck dealt in the order `first`, then the rest in code order."""
    rest = list(FULL)
    head = list(first)
    for code in head:
        rest.remove(code)
    return head + rest


def game(players: int = 4, first: Iterable[str] = (), start_after: int = 27) -> State:
    return new_game(NAMES[:players], decks=[(deck_with(first), start_after)])


def act(state: State, line: str) -> list[str]:
    """Apply "name: action"; return every action applied, as record lines."""
    name, _, text = line.partition(": ")
    applied = state.apply(parse_action(text, state.names, state.names.index(name)))
    return [f"{state.names[a.seat]}: {action_text(a, state.names)}" for a in applied]


def acts(state: State, lines: Iterable[str]) -> None:
    for line in lines:
        act(state, line)


def legal(state: State, seat: int | None = None) -> list[str]:
    return [action_text(a, state.names) for a in state.legal_actions(seat)]


def counts(codes: Iterable[str]) -> list[int]:
    out = [0] * N_CODES
    for code in codes:
        out[INDEX[code]] += 1
    return out


def hand(state: State, seat: int) -> dict[str, int]:
    return {CODES[c]: k for c, k in enumerate(state.hands[seat]) if k}


def place_shields(state: State, piles: Mapping[str, Sequence[int]], at: int = 80) -> None:
    """Every seat named puts its shields on the given piles at k = `at`."""
    for name, where in piles.items():
        for p in where:
            act(state, f"{name}: shield P{p} @{at}")


def after_recruitment(players: int, hands: Mapping[int, Iterable[str]], champion: int = 1) -> State:
    """A game whose round-1 recruitment gave exactly `hands` (seat -> codes); spies next.

    The deal is played for real (all shields on pile 1 at the end) and the hands are then
    replaced, with the rest of the 80 cards set aside.
    """
    s = game(players)
    for seat in range(1, players):
        place_shields(s, {NAMES[seat]: (1, 1)})
    s.history[-1].champion = champion
    total = [0] * N_CODES
    for seat in range(players):
        s.hands[seat] = counts(hands.get(seat, ()))
        total = [a + b for a, b in zip(total, s.hands[seat], strict=True)]
    s.aside = [COPIES[c] - total[c] for c in range(N_CODES)]
    assert min(s.aside) >= 0, "more copies than the deck holds"
    s.deck = tuple(INDEX[c] for c in FULL)
    s.spy_n = 1
    s._next_spy()
    return s


def to_battle(
    players: int, hands: Mapping[int, Iterable[str]], people: str = "B", champion: int = 1
) -> State:
    """As `after_recruitment` (no spies allowed), with battle 1's people named."""
    s = after_recruitment(players, hands, champion)
    assert s.pending == "people"
    act(s, f"ann: people {people}")
    return s
