"""A simple AI player for seats given to the computer: it sees only its seat's view.

It lays its most valuable legal set, otherwise discards the card it holds most of; other
decisions it takes at random (seeded by the position, so a replay of the same position
decides the same).
"""

import random

from games import engine


def choose(view: dict, seed: int) -> str:
    """One of `view["legal_texts"]` (the view must be of the deciding seat)."""
    legal = view["legal_texts"]
    lays = [text for text in legal if text.startswith("lay ")]
    if lays:
        return max(lays, key=lambda text: tuple(int(x) for x in text.split()[1:]))
    discards = [text for text in legal if text.startswith("discard ")]
    if discards:
        hand = view["hand"]
        return max(discards, key=lambda text: (hand.get(text.split()[1], 0), text))
    if "end" in legal:
        return "end"
    return random.Random(seed).choice(legal)


def move(state: engine.State, seed: int) -> int:
    seat = state.decider
    assert seat is not None
    text = choose(engine.view(state, seat), seed)
    return engine.parse_action(text, state.names)
