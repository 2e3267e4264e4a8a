"""AI players for Call to Glory: pure Python, no Django, Channels or Celery.

A bot sees only its seat's view (``games.ctg.engine.view(state, seat)``), never the state: the
search level samples the hidden cards itself.

API
    ``LEVELS`` -- ordered dict, level id -> (display name, description), weakest first.
    ``decide(level, view, *, seed, time_budget=None, iterations=None) -> str`` -- one of
    ``view["legal_texts"]`` (§10 notation without the player prefix). ``view`` must be the
    view of the deciding seat. The same level, view, seed and iteration budget always give
    the same answer. ``time_budget`` (seconds) and ``iterations`` bound the search levels
    (whichever comes first; None keeps the level's default); the other levels ignore them.
    A decision with a single legal option returns it at once.
    ``DEFAULT_LEVEL`` -- the level to offer first.

Levels
    ``greedy`` -- lays its most valuable legal set, else discards its rarest card (fewest in
    hand, then fewest copies in the deck); takes a discard top that matches its hand. The
    beginners' level and the fixed yardstick.
    ``heuristic`` -- card counting (see ``games.ctg.ai.heuristic``).
    ``search`` -- single-observer ISMCTS to the end of the round, heuristic rollouts; default
    budget ``SEARCH_ITERATIONS`` iterations, at most ``SEARCH_SECONDS`` seconds.
    ``search-strong`` -- the same with a larger budget (``STRONG_ITERATIONS``).
    ``random`` (not listed in LEVELS) -- uniform among legal actions, for tests.

Arena: ``python -m games.ctg.ai.arena --help``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import ismcts
from .heuristic import heuristic_action
from .knowledge import Knowledge, read_view
from .simple import greedy_action, random_action

SEARCH_ITERATIONS = 4000
SEARCH_SECONDS = 0.8
STRONG_ITERATIONS = 10000
STRONG_SECONDS = 2.0

LEVELS: dict[str, tuple[str, str]] = {
    "greedy": (
        "Beginner",
        "Lays its most valuable set as soon as it can, otherwise throws away its rarest card.",
    ),
    "heuristic": (
        "Card counter",
        "Counts every card it has seen, lays sets that are hard to outbid, keeps pairs, "
        "discards what helps others least and plays the round-end tempo.",
    ),
    "search": (
        "Tactician",
        "Imagines thousands of ways the hidden cards could lie and plays each out to the end "
        "of the round (about a second a move).",
    ),
    "search-strong": (
        "Master",
        "The tactician thinking longer (up to two seconds a move).",
    ),
}

DEFAULT_LEVEL = "search"

# Search levels: (iterations, seconds).
_SEARCH: dict[str, tuple[int, float]] = {
    "search": (SEARCH_ITERATIONS, SEARCH_SECONDS),
    "search-strong": (STRONG_ITERATIONS, STRONG_SECONDS),
}

Policy = Callable[[Knowledge, random.Random], int]

_SIMPLE: dict[str, Policy] = {
    "random": random_action,
    "greedy": greedy_action,
    "heuristic": heuristic_action,
}


def decide(
    level: str,
    view: dict[str, Any],
    *,
    seed: int,
    time_budget: float | None = None,
    iterations: int | None = None,
) -> str:
    """The move of `level` for the deciding seat of `view`, as §10 notation."""
    texts: list[str] = view["legal_texts"]
    codes: list[int] = view["legal_actions"]
    if not texts:
        raise ValueError("the view's seat has no decision to make")
    if len(texts) == 1:
        return texts[0]
    return texts[
        codes.index(
            decide_code(level, view, seed=seed, time_budget=time_budget, iterations=iterations)
        )
    ]


def decide_code(
    level: str,
    view: dict[str, Any],
    *,
    seed: int,
    time_budget: float | None = None,
    iterations: int | None = None,
) -> int:
    """As `decide`, but the engine's action code."""
    rng = random.Random(seed)
    k = read_view(view)
    if len(k.legal) == 1:
        return k.legal[0]
    policy = _SIMPLE.get(level)
    if policy is not None:
        return policy(k, rng)
    budget = _SEARCH.get(level)
    if budget is not None:
        its = iterations if iterations is not None else budget[0]
        if time_budget is not None:
            secs: float | None = time_budget
        else:
            secs = budget[1] if iterations is None else None
        return ismcts.search(view, k, rng, its, secs)
    raise ValueError(f"unknown level: {level!r}")


__all__ = ["DEFAULT_LEVEL", "LEVELS", "decide", "decide_code"]
