"""The rules engine of Call to Glory: pure Python, typed, no Django, Channels or Celery.

RULES.md (the project's specification) is implemented in full: 2-4 players, 4 rounds or the
1-round quick game, the Imperial Tasks (3 rounds) and Power of the Ninja variants.

Setting up
    ``Options(players, rounds=4, variants=frozenset())`` -- variants from
    ``{"imperial-tasks", "ninja"}``; invalid combinations raise ValueError.
    ``new_game(options, names=None, *, seed=None, decks=None, tasks=None,
    task_distribution=DEFAULT_TASKS) -> State`` -- from a seed (every deck and the task deal
    follow from it) or explicit decks (per round 110 values, top first) and task hands
    (per seat, e.g. ``["A7", "B12", "C18"]``). Seat 0 starts round 1. A game given fewer
    decks than rounds waits (``decider is None``) until ``state.add_deck(values)``.

Playing
    Actions are ints in ``range(N_ACTIONS)``. ``state.decider`` is the seat that
    must decide now (None when the game is over). ``state.legal_actions()`` lists the
    decider's legal actions in ascending order. ``state.apply(action, seat=None)``
    validates (``seat``, when given, must be the decider) and raises
    ``IllegalAction(code, message)`` -- a stable short code ("draw-same-pile") and a
    message naming the rule ("§4 Action 1: ...") -- without touching the state. After
    each action every forced decision (exactly one legal option, §9) is applied too;
    ``apply`` returns those as (seat, action) pairs and they are logged like the others.
    ``state.clone()`` is an explicit, cheap copy (the history is shared, not copied).
    Other queries: ``state.pending`` (draw, second-draw, action, end-or-ninja, bury,
    reveal or None), ``state.round`` (from 1), ``state.start``, ``state.game_over``,
    ``state.totals``, ``state.history`` (RoundResult per finished round).

Notation (§10, without the ``"name: "`` prefix)
    ``action_text(action, names) -> str`` ("draw D1", "lay 20 4", "discard 7 X2",
    "bury X1", "ninja bob 14", "reveal A7", "end"); ``parse_action(text, names) -> int``
    raises NotationError (a ValueError). ``action_parts(action, names) -> ActionParts``
    takes an action apart (verb, text, pile, value, count, target, deck) for display.

Views
    ``view(state, seat)`` and ``public_view(state)`` return JSON-safe dicts: the table,
    hand sizes, draw pile sizes, full discard piles, cards known to be in each hand,
    miniatures (supply, held, ready = taken on an earlier turn), revealed tasks,
    scores, decider and pending decision; ``view`` adds the seat's own hand (counts per
    value), own unrevealed task cards, the cards it drew in its turn under way (``drawn``,
    values in order; empty on others' turns) and, for the decider, its legal actions
    (codes and texts). Never the draw piles' order or another seat's hand.
    Known cards are what every player can deduce, a lower bound per type: a card drawn
    from a discard pile adds one; laying or discarding k cards of that type takes k off
    (not below 0), because nobody can tell which copy left. (Clipping to the true count
    instead would leak the hidden rest of the hand.)

Records
    ``to_record(state) -> dict`` (forced decisions written out), ``from_record(dict) ->
    State`` (replays; forced decisions may be present or omitted; raises RecordError
    when malformed, IllegalAction with ``round``/``index``/``action`` filled on a rule
    breach), ``result(state) -> dict | None`` (the §10 result once the game is over).

Bots and benchmarks
    ``random_playout(state, rng)`` plays to the end choosing uniformly among the legal
    actions at every decision (mutates; clone first). Base-game turns run in a fast path
    that counts the legal options instead of listing them (same rules, same distribution,
    same log); other decisions go through ``legal_actions``.
    ``determinize(state, seat, rng)`` copies the state with everything hidden from
    ``seat`` (other hands beyond their known cards, draw piles, others' task cards) dealt
    afresh, for information-set search.

Command line
    ``python -m games.ctg.engine replay FILE.json`` prints the §10 result (exit 0; illegal
    action: one line on stderr, exit 2; malformed or unfinished record: exit 3).
    ``python -m games.ctg.engine random --players N --rounds R [--variants
    imperial-tasks,ninja] --seed S`` prints the record of a random legal game.
    ``python -m games.ctg.engine bench --players 4 --seconds 10`` prints random full-game
    throughput (new game included), by wall clock and per CPU second.
"""

from games.enginekit.errors import IllegalAction, NotationError, RecordError

from .actions import N_ACTIONS, ActionParts, action_parts, action_text, parse_action
from .cards import DEFAULT_TASKS, VALUES, VARIANT_NINJA, VARIANT_TASKS
from .playout import determinize, random_game, random_playout
from .record import from_record, result, to_record
from .state import Options, RoundResult, State, new_game
from .views import public_view, view

__all__ = [
    "DEFAULT_TASKS",
    "N_ACTIONS",
    "VALUES",
    "VARIANT_NINJA",
    "VARIANT_TASKS",
    "ActionParts",
    "IllegalAction",
    "NotationError",
    "Options",
    "RecordError",
    "RoundResult",
    "State",
    "action_parts",
    "action_text",
    "determinize",
    "from_record",
    "new_game",
    "parse_action",
    "public_view",
    "random_game",
    "random_playout",
    "result",
    "to_record",
    "view",
]
