"""AI players for Call to Glory: pure Python, no Django, Channels or Celery.

A bot sees only its seat's view (``games.ctg.engine.view(state, seat)``), never the state: the
search level samples the hidden cards itself.

API
    ``LEVELS`` -- ordered dict, level id -> (display name, description), weakest first.
    ``decide(level, view, *, seed, time_budget=None, iterations=None) -> str`` -- one of
    ``view["legal_texts"]`` (§10 notation without the player prefix). ``view`` must be the
    view of the deciding seat. The same level, view, seed and iteration budget always give
    the same answer. ``time_budget`` (seconds) and ``iterations`` bound the search levels
    (whichever comes first; None keeps the level's own budget for this decision); the other
    levels ignore them. A decision with a single legal option returns it at once.
    ``DEFAULT_LEVEL`` -- the level to offer first.
    ``budget(level, pending) -> (iterations, seconds)`` -- a search level's own budget for a
    decision of that kind (``view["pending"]``).

Levels
    ``greedy`` -- lays its most valuable legal set, else discards its rarest card (fewest in
    hand, then fewest copies in the deck); takes a discard top that matches its hand. The
    beginners' level and the fixed yardstick.
    ``heuristic`` -- card counting (see ``games.ctg.ai.heuristic``).
    ``search`` -- single-observer ISMCTS to the end of the round, heuristic rollouts, within
    ``SEARCH_TURN`` (iterations, seconds) a turn.
    ``search-strong`` -- the same with twice the budget at every decision (``STRONG_TURN``).
    ``random`` (not listed in LEVELS) -- uniform among legal actions, for tests.

A search level's time is promised per turn, the wait a person sees: two draws and an action
make a turn, and ``SHARE`` splits the turn's budget over them, most for the action, where
more thinking changes the choice most (a draw's few options are close in value: a longer
search seldom picks another). A decision's time counts from the call, reading the view
included.

Arena: ``python -m games.ctg.ai.arena --help``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from . import ismcts
from .heuristic import heuristic_action
from .knowledge import Knowledge, read_view
from .simple import greedy_action, random_action

# A search level's budget for one turn (iterations, seconds). Master has twice the
# Tactician's at every decision, so it is never the weaker of the two. A tenth of what each
# promises ("about a second", "up to two seconds") is left for reading the view and the
# site's own work, which a busy machine slows too.
SEARCH_TURN = (5000, 0.9)
STRONG_TURN = (10000, 1.8)
# The share of a turn's budget each decision takes. A turn is two draws and an action: 85 %
# of the budget, the rest left for a rarer decision in it (a miniature, the bury of a set it
# replaced, a task card to reveal: few options each) and for the site's own work.
SHARE = {
    "draw": 0.2,
    "second-draw": 0.2,
    "action": 0.45,
    "end-or-ninja": 0.1,
    "bury": 0.1,
    "reveal": 0.1,
}

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
        "of the round (about a second a turn).",
    ),
    "search-strong": (
        "Master",
        "The tactician thinking twice as long (up to two seconds a turn).",
    ),
}

DEFAULT_LEVEL = "search"

_SEARCH: dict[str, tuple[int, float]] = {"search": SEARCH_TURN, "search-strong": STRONG_TURN}


def budget(level: str, pending: str) -> tuple[int, float]:
    """A search level's own (iterations, seconds) for a decision of kind `pending`."""
    iterations, seconds = _SEARCH[level]
    share = SHARE[pending]
    return max(1, round(iterations * share)), seconds * share


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
    started = time.perf_counter()
    rng = random.Random(seed)
    k = read_view(view)
    if len(k.legal) == 1:
        return k.legal[0]
    policy = _SIMPLE.get(level)
    if policy is not None:
        return policy(k, rng)
    if level not in _SEARCH:
        raise ValueError(f"unknown level: {level!r}")
    assert k.pending is not None
    own_iterations, own_seconds = budget(level, k.pending)
    its = iterations if iterations is not None else own_iterations
    if time_budget is not None:
        secs: float | None = time_budget
    else:
        secs = own_seconds if iterations is None else None
    if secs is not None:
        secs = max(0.0, secs - (time.perf_counter() - started))
    return ismcts.search(view, k, rng, its, secs)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "SHARE", "budget", "decide", "decide_code"]
