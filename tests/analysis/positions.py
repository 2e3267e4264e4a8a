"""Hand-made positions as records, and whole games played by AI players.

A record is the analysis' only input, so a position is built as the game that leads to it:
a deck ordered so that each draw brings the card the script needs, and the script's actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.ctg import ai as ctg_ai
from games.ctg import engine as ctg
from games.ctg.engine.cards import VALUES, full_deck
from games.orc import ai as orc_ai
from games.orc import engine as orc
from games.orc.ai.arena import run_deal
from games.orc.engine.cards import CODES
from games.orc.engine.cards import full_deck as orc_full_deck

# --------------------------------------------------------------- Call to Glory

# Four players, one round. ann (first) builds 20, 8 and 7 and holds three Ninjas (14); bob
# builds 18, 9 and 6 and takes two Envoys (16) from the discard piles, face up, so everyone
# knows he holds two. On her fourth turn ann draws a 16 and a 12 and must act: laying her
# three 14s ends the round with her first (49 to 33); discarding the 16 hands bob his third
# Envoy, and his fourth set ends the round with him first (49 to 35).
CTG_DEAL = [20, 18, 12, 12, 20, 18, 6, 6, 8, 9, 7, 7]  # one at a time, ann first
CTG_D1 = [8, 9, 16, 12, 7, 6, 16, 12, 14, 12, 12, 9, 16, 20]
CTG_D2 = [7, 6, 12, 12, 14, 12, 12, 14, 12, 9, 12]
CTG_SCRIPT = [
    "ann: draw D1", "ann: draw D2", "ann: lay 20 2",
    "bob: draw D1", "bob: draw D2", "bob: lay 18 2",
    "cy: draw D1", "cy: draw D2", "cy: discard 16 X1",
    "dee: draw D1", "dee: draw D2", "dee: discard 12 X2",
    "ann: draw D1", "ann: draw D2", "ann: lay 8 2",
    "bob: draw X1", "bob: draw D1", "bob: lay 9 2",
    "cy: draw D1", "cy: draw D2", "cy: discard 16 X1",
    "dee: draw D1", "dee: draw D2", "dee: discard 12 X2",
    "ann: draw D1", "ann: draw D2", "ann: lay 7 2",
    "bob: draw X1", "bob: draw D1", "bob: lay 6 2",
    "cy: draw D1", "cy: draw D2", "cy: discard 12 X1",
    "dee: draw D1", "dee: draw D2", "dee: discard 9 X2",
    "ann: draw D1", "ann: draw D2",
]  # fmt: skip
CTG_BLUNDER = "discard 16 X1"
CTG_AFTER_BLUNDER = ["bob: draw X1", "bob: draw D1", "bob: lay 16 3"]


def ctg_deck(deal: Sequence[int], d1: Sequence[int], d2: Sequence[int]) -> list[int]:
    """A 4-player deck: `deal` dealt first, then D1 starting with `d1`, D2 with `d2`."""
    rest = Counter(VALUES[t] for t in full_deck())
    rest.subtract(Counter([*deal, *d1, *d2]))
    assert all(c >= 0 for c in rest.values()), "more copies than the game has"
    filler = [v for v in sorted(rest, reverse=True) for _ in range(rest[v])]
    size1 = 49 - len(d1)
    return [*deal, *d1, *filler[:size1], *d2, *filler[size1:]]


def ctg_record(actions: Sequence[str], deck: Sequence[int] | None = None) -> dict[str, Any]:
    return {
        "format": "ctg-record/1",
        "players": ["ann", "bob", "cy", "dee"],
        "options": {"rounds": 1, "variants": []},
        "rounds": [
            {"deck": list(deck or ctg_deck(CTG_DEAL, CTG_D1, CTG_D2)), "actions": list(actions)}
        ],
    }


def ctg_game(levels: Sequence[str], seed: int, rounds: int = 4) -> dict[str, Any]:
    """The record of a whole game, one AI level per seat (search levels thinking briefly)."""
    names = ["ann", "bob", "cy", "dee"][: len(levels)]
    state = ctg.new_game(ctg.Options(len(levels), rounds), names, seed=seed)
    rng = random.Random(seed)
    while not state.game_over:
        seat = state.decider
        assert seat is not None
        v = ctg.view(state, seat)
        state.apply(
            ctg_ai.decide_code(levels[seat], v, seed=rng.getrandbits(32), iterations=300), seat
        )
    return ctg.to_record(state)


# --------------------------------------------------------------- De l'Orc

# Four players, ann the wizard. Piles 1-2 go to bob: a giant, two trolls, a war machine and
# two gremlins, and Monsters, Skeletons and Dwarves. Piles 3-4 go to cy: four Barbarian
# veterans, a chief and seven warriors (76 in their battle, whatever the mercenaries). Piles
# 5-6 go to dee, the rest to nobody. Battle 1 is the Barbarians', and bob sends first: all
# his mercenaries (31) cannot win it, and they could win him later battles.
ORC_PILES = [
    "GI TR TR WM GR GR M2 S2 D2",
    "M2 S2 D2 M6 S6 D6 M2 S2 D2",
    "B6 B6 B6 B6 BC B2 B2 B2 B2",
    "B2 B2 B2 M2 S2 D2 M2 S2 D2",
    "M2 S2 D2 M6 S6 D6 GR GR TR",
    "M2 S2 D2 M6 S6 D6 GR WM GI",
]
ORC_DEAL = [
    "bob: shield P1 @40", "bob: shield P2 @40", "cy: shield P3 @40",
    "cy: shield P4 @40", "dee: shield P5 @40", "dee: shield P6 @40",
    "ann: champion cy", "ann: people B",
]  # fmt: skip
ORC_BLUNDER = "send GI TR TR WM GR GR"


def orc_deck(piles: Sequence[str], npiles: int = 9) -> list[str]:
    """80 codes dealt round robin so that pile i starts with `piles[i]`; the rest fill in."""
    rest = Counter(CODES[c] for c in orc_full_deck())
    want = [p.split() for p in piles]
    rest.subtract(Counter(c for p in want for c in p))
    assert all(k >= 0 for k in rest.values()), "more copies than the game has"
    filler = [c for c in CODES for _ in range(rest[c])]
    deck: list[str] = []
    heads = [list(p) for p in want] + [[] for _ in range(npiles - len(want))]
    for j in range(80):
        pile = heads[j % npiles]
        deck.append(pile.pop(0) if pile else filler.pop(0))
    return deck


def orc_record(actions: Sequence[str], deck: Sequence[str] | None = None) -> dict[str, Any]:
    return {
        "format": "orc-record/1",
        "players": ["ann", "bob", "cy", "dee"],
        "options": {"pace": 1.2},
        "rounds": [
            {"deck": list(deck or orc_deck(ORC_PILES)), "start_after": 40, "actions": list(actions)}
        ],
    }


def orc_game(levels: Sequence[str], seed: int) -> dict[str, Any]:
    """The record of a whole game, one AI level per seat (the Warlord thinking briefly)."""
    names = ["ann", "bob", "cy", "dee", "eve", "fay", "gus"][: len(levels)]
    state = orc.new_game(names, seed=seed)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {}
    while not state.game_over:
        if state.pending == "recruit":
            run_deal(state, list(levels), rng, times, 0)
            continue
        seat = state.decider
        assert seat is not None
        text = orc_ai.decide(
            levels[seat], orc.view(state, seat), seed=rng.getrandbits(32), iterations=60
        )
        options = {orc.action_text(a, state.names): a for a in state.legal_actions(seat)}
        state.apply(options[text])
    return orc.to_record(state)
