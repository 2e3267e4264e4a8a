"""Whole games played by the AI levels, checking every reaction and decision on the way.

The deal is simulated as in the arena, but each reaction is checked against the engine's
legal actions at the moment it is made.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.orc.ai import decide, react
from games.orc.engine import Action, State, action_text, new_game, view
from games.orc.engine.cards import N_CARDS

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")


@dataclass
class Played:
    state: State
    delays: dict[str, list[float]] = field(default_factory=dict)
    reactions: int = 0
    decisions: int = 0


def play_game(levels: list[str], seed: int, iterations: int = 30) -> Played:
    """A game with seat s played by levels[s]; raises AssertionError on any illegal choice."""
    state = new_game(NAMES[: len(levels)], seed=seed)
    rng = random.Random(seed)
    out = Played(state)
    while not state.game_over:
        if state.pending == "recruit":
            if state.dealt < N_CARDS:
                state.deal(state.dealt + 1)
            for seat in state.deciders():
                if state.pending != "recruit" or seat not in state.deciders():
                    continue  # its cards went down meanwhile, or the deal is over
                level = levels[seat]
                r = react(level, view(state, seat), seed=rng.getrandbits(32))
                if r is None:
                    assert state.dealt < N_CARDS, f"{level} left a shield in the placing step"
                    continue
                out.delays.setdefault(level, []).append(r.delay)
                at = state.dealt
                a = Action(seat, r.verb, pile=r.pile, at=at)
                assert a in state.legal_actions(seat), f"{level}: {r.text(at)} is not legal"
                out.reactions += 1
                # Half of them land at once, the others a card later, when some are no
                # longer legal (the deserters after the last card): the site drops those.
                if rng.random() < 0.5 or at == N_CARDS:
                    state.apply(a)
                elif at < N_CARDS - 1:
                    state.deal(at + 1)
                    state.apply(a._replace(at=at + 1))
            continue
        seat = state.decider
        assert seat is not None
        v = view(state, seat)
        text = decide(levels[seat], v, seed=rng.getrandbits(32), iterations=iterations)
        assert text in v["legal"], f"{levels[seat]}: {text} is not legal"
        options = {action_text(a, state.names): a for a in state.legal_actions(seat)}
        state.apply(options[text])
        out.decisions += 1
    return out
