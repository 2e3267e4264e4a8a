"""Building positions for rule tests.

Rule tests poke a fresh game into the position they need (hands, table, piles); the
conservation of cards is checked separately on real games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.ctg.engine import Options, State, action_text, new_game, parse_action
from games.ctg.engine.cards import TYPE_OF_VALUE, VALUES, full_deck
from games.ctg.engine.state import ACT, DRAW1

NAMES = ("ann", "bob", "cy", "dee")


def game(players: int = 2, rounds: int = 1, variants: Iterable[str] = (), seed: int = 0) -> State:
    return new_game(Options(players, rounds, frozenset(variants)), NAMES[:players], seed=seed)


def deck_with(top: Iterable[int]) -> list[int]:
    """A 110-value deck starting with `top`, the rest in a fixed order."""
    rest = [VALUES[t] for t in full_deck()]
    head = list(top)
    for v in head:
        rest.remove(v)
    return head + rest


def counts(values: Mapping[int, int]) -> list[int]:
    hand = [0] * 9
    for v, c in values.items():
        hand[TYPE_OF_VALUE[v]] = c
    return hand


def put(
    state: State,
    *,
    hands: Mapping[int, Mapping[int, int]] | None = None,
    table: Mapping[int, tuple[int, int]] | None = None,
    x1: Iterable[int] | None = None,
    x2: Iterable[int] | None = None,
    cur: int | None = None,
    phase: int = ACT,
    minis: Iterable[int] | None = None,
    d_left: tuple[int, int] | None = None,
) -> State:
    """Poke a position: hands {seat: {value: count}}, table {value: (owner, size)},
    discard piles bottom first (both then count as started), draw piles' remaining sizes."""
    if hands is not None:
        for seat, h in hands.items():
            state.hands[seat] = counts(h)
            state.hsize[seat] = sum(h.values())
    if table is not None:
        state.owner = [-1] * 9
        state.size = [0] * 9
        for v, (seat, size) in table.items():
            state.owner[TYPE_OF_VALUE[v]] = seat
            state.size[TYPE_OF_VALUE[v]] = size
        state.ntypes = [state.owner.count(s) for s in range(state.n)]
        state.nowned = sum(1 for o in state.owner if o >= 0)
    if x1 is not None or x2 is not None:
        state.xp = [[TYPE_OF_VALUE[v] for v in x1 or ()], [TYPE_OF_VALUE[v] for v in x2 or ()]]
        state.xstarted = 2
    if cur is not None:
        state.cur = cur
    if minis is not None:
        state.minis = list(minis)
        state.supply = 4 - sum(state.minis)
    if d_left is not None:
        state.dpos = [state.dend[0] - d_left[0], state.dend[1] - d_left[1]]
    state.phase = phase
    state.first = -1 if phase in (DRAW1, ACT) else state.first
    return state


def act(state: State, text: str) -> list[str]:
    """Apply one action in notation; return the forced actions applied after it."""
    forced = state.apply(parse_action(text, state.names))
    return [f"{state.names[s]}: {action_text(a, state.names)}" for s, a in forced]


def legal(state: State) -> list[str]:
    return [action_text(a, state.names) for a in state.legal_actions()]


def hand(state: State, seat: int) -> dict[int, int]:
    return {VALUES[t]: c for t, c in enumerate(state.hands[seat]) if c}


def table(state: State) -> dict[int, tuple[int, int]]:
    return {VALUES[t]: (o, state.size[t]) for t, o in enumerate(state.owner) if o >= 0}


def piles(state: State) -> tuple[list[int], list[int]]:
    return [VALUES[t] for t in state.xp[0]], [VALUES[t] for t in state.xp[1]]


def cards_in_play(state: State) -> int:
    """Every card of the round: hands, table, draw and discard piles, a block being buried."""
    from games.ctg.engine.state import BURY

    d1, d2 = state.draw_pile_sizes()
    limbo = state.pend_k if state.phase == BURY else 0
    return (
        sum(state.hsize) + sum(state.size) + d1 + d2 + len(state.xp[0]) + len(state.xp[1]) + limbo
    )
