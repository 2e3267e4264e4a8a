"""AI players for De l'Orc pour les Braves: pure Python, no Django, Channels or Celery.

A bot sees only its seat's view (``games.orc.engine.view(state, seat)``), never the state:
the search level guesses the cards others committed face down from their holdings.

API
    ``LEVELS`` -- ordered dict, level id -> (display name, description), weakest first.
    ``DEFAULT_LEVEL`` -- the level to offer first.

    ``react(level, view, *, seed) -> Reaction | None`` -- the real-time deal (§3, §6).
    Call it for an AI seat after every event of the deal (a card dealt, a player card put
    down) while that seat has no reaction waiting, and once more when the deal reaches 80
    with shields still held (the placing step, where it always answers). ``Reaction`` has
    ``verb`` ("desert" or "shield"), ``pile`` (1..P) and ``delay``: seconds to wait after
    the event before putting the card down (never under ``MIN_DELAY`` = 0.3 s; the
    beginner is slower and more variable). When the delay is over, put it down as
    ``reaction.text(at)`` (§8 notation, ``at`` = cards dealt by then) if it is still legal
    and ``still_wanted(level, view, reaction)`` holds for the latest view the seat was sent
    at least ``MIN_DELAY`` earlier (a player cannot take a card back faster: a shield that
    lands on his pile a moment before his own is his bad luck); then ask again. A
    reaction takes well under a millisecond and never holds up the deal.

    ``decide(level, view, *, seed, iterations=None, time_budget=None) -> str`` -- every
    turn decision (champion, spies, people, mercenaries, commando, flying machine): one of
    ``view["legal"]`` (§8 notation without the player prefix). ``view`` must be the
    deciding seat's. A decision with a single legal option returns it at once.
    ``iterations`` and ``time_budget`` (seconds) bound the expert's search (whichever comes
    first; None keeps ``SEARCH_ITERATIONS`` and ``SEARCH_SECONDS``); the other levels
    ignore them. The same level, view, seed and iteration budget give the same answer
    (unless the time budget cuts the search short); so does ``react``.

Levels
    ``beginner`` -- shields on big piles when it thinks of it, deserters on a whim,
    mercenaries all or nothing; reacts in about 0.9 to 4 s.
    ``heuristic`` -- values cards one by one: claims the pile worth most to its hand and
    spoils rivals' veterans, giants and chiefs; sends the cheapest mercenaries that win a
    battle when the battle is worth them; as wizard puts its champion's best peoples in the
    2-point battles. Reacts in about 0.5 to 2 s.
    ``expert`` -- values each pile by the battle points it brings to whom (a softmax model
    of the four battles, see ``games.orc.ai.value``), claims and spoils accordingly, and
    decides every turn by flat Monte Carlo: each candidate move played out to the end of the
    round many times with the heuristic policies. Reacts in about 0.3 to 1.2 s.
    ``random`` (not in LEVELS) -- random legal choices, for tests and the arena.

Arena: ``python -m games.orc.ai.arena --help``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import deal, turns
from .deal import MIN_DELAY, Reaction
from .knowledge import Table, read_view

SEARCH_ITERATIONS = 600
SEARCH_SECONDS = 0.8

LEVELS: dict[str, tuple[str, str]] = {
    "beginner": (
        "Beginner",
        "Grabs big piles when it notices them and sends its mercenaries on a whim.",
    ),
    "heuristic": (
        "Card counter",
        "Claims the piles worth most to its hand, spoils rivals' best cards and saves its "
        "mercenaries for battles it can win.",
    ),
    "expert": (
        "Warlord",
        "Weighs what each pile is worth to whom, fights for the battles that pay 2 and "
        "plays every decision out to the end of the round before choosing.",
    ),
}
DEFAULT_LEVEL = "heuristic"

Reactor = Callable[[Table, random.Random], tuple[str, int] | None]
_REACT: dict[str, Reactor] = {
    "random": deal.random_reaction,
    "beginner": deal.beginner_reaction,
    "heuristic": deal.heuristic_reaction,
    "expert": deal.expert_reaction,
}
_DECIDE: dict[str, turns.Policy] = {
    "random": turns.decide_random,
    "beginner": turns.decide_beginner,
    "heuristic": turns.decide_heuristic,
}


def react(level: str, view: dict[str, Any], *, seed: int) -> Reaction | None:
    """The seat's reaction to the deal as `view` shows it, or None to let it go by."""
    if level not in _REACT:
        raise ValueError(f"unknown level: {level!r}")
    if view["pending"] != "recruit" or not view["recruit"]:
        return None
    rng = random.Random(seed)
    t = read_view(view)
    plan = _REACT[level](t, rng)
    if plan is None:
        return None
    verb, pile = plan
    return Reaction(verb, pile + 1, deal.delay_for(level, rng), len(t.piles[pile].entries))


def still_wanted(level: str, view: dict[str, Any], reaction: Reaction) -> bool:
    """Whether `reaction` should still land, given the seat's view `MIN_DELAY` before."""
    if view["pending"] != "recruit" or not view["recruit"]:
        return False
    return deal.still_wanted(read_view(view), reaction)


def decide(
    level: str,
    view: dict[str, Any],
    *,
    seed: int,
    iterations: int | None = None,
    time_budget: float | None = None,
) -> str:
    """The turn decision of `level` for the deciding seat of `view`, as §8 notation."""
    legal: list[str] = view["legal"]
    if not legal:
        raise ValueError("the view's seat has no decision to make")
    if level != "expert" and level not in _DECIDE:
        raise ValueError(f"unknown level: {level!r}")
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    t = read_view(view)
    if level == "expert":
        its = iterations if iterations is not None else SEARCH_ITERATIONS
        secs = time_budget if time_budget is not None else SEARCH_SECONDS
        text = turns.legal_text(t, turns.search_move(t, rng, its, secs))
    else:
        text = _DECIDE[level](t, rng)
    if text not in legal:
        raise AssertionError(f"{level} chose {text!r}, not a legal option")
    return text


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "MIN_DELAY",
    "Reaction",
    "decide",
    "react",
    "still_wanted",
]
