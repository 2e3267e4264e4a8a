"""Post-game analysis of Call to Glory: every decision of one seat valued from its seat.

Pure Python, no Django. See ``games.analysis`` for values, marks and accuracy.

How an option is valued
    The record is replayed; at each decision of the seat with more than one legal option,
    the seat's view (``games.ctg.engine.view``: its hand, the table, the discard piles, the
    cards known to be in other hands, never another hand or a draw pile) is all the
    analysis reads. From it the search AI's sampler (``games.ctg.ai.determinize.Sampler``)
    deals the unseen cards afresh, and every option is valued in that sample by one
    iteration of a small search below it, to the end of the round: each option grows its own
    tree over the seat's later decisions of the round, chosen as the search AI chooses
    (``games.ctg.ai.ismcts``: UCB over its candidate moves, a card drawn from a draw pile
    being chance), while the other seats play the search AI's playout policy
    (``games.ctg.ai.rollout``), which also plays the round out from the tree's new node. The
    same sample and the same random numbers serve every option (common random numbers: the
    difference between two options is measured far more sharply than either). So an option
    is valued with the seat playing well after it, not with the playout policy's moves (the
    card counter's rules), which would favour the moves that merely agree with the policy.

    The budget per decision: `SAMPLES` samples for every option (half), then for the options
    near the best and the one played (the other half); while the one played still trails the
    best by a mark's loss, `DISPUTES` more rounds for those: a mark is then rarely the
    noise of a few samples.

    The value is the seat's expected final placing score. In the last round the playout's
    totals give it (ties broken by the best round scores, as §6 does). Earlier, each other
    seat is beaten with a logistic chance of the margin in totals, ``1 / (1 + e^(−m / (S ·
    √r)))``, r being the rounds still to play and S = `ROUND_SPREAD` points; the placing
    score is the mean of those chances (with n players, beating b others and tying t scores
    (b + t/2) / (n − 1)).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.analysis import (
    THRESHOLDS,
    Decision,
    Progress,
    SeatAnalysis,
    decision,
    placing_score,
    seat_analysis,
)
from games.ctg.ai.determinize import Sampler
from games.ctg.ai.ismcts import Node, descend
from games.ctg.ai.knowledge import read_view
from games.ctg.ai.rollout import fast_round, policy_action, round_scores, task_weights
from games.ctg.engine import IllegalAction, action_text, from_record, new_game, view
from games.ctg.engine.record import logged_actions
from games.ctg.engine.state import DRAW1, NEED_DECK, OVER, RoundResult, State, placings

SAMPLES = 100  # per decision, each option valued once in each
NEAR = 5.0  # points: options this close to the best get the second half of the samples
ROUND_SPREAD = 20.0  # points: how far a round moves a margin in totals, roughly
DISPUTES = 2  # rounds of further samples while the option played trails by a mark
MARKED = min(t for t, _ in THRESHOLDS)  # points: the smallest loss that earns a mark


def expected_placing(
    totals: Sequence[int], seat: int, left: int, history: Sequence[RoundResult] = ()
) -> float:
    """The seat's expected final placing score from the totals with `left` rounds to play.

    With none left it is the placing score itself (§6's tie-break needs the rounds' scores,
    `history`); otherwise the mean of logistic chances of staying ahead of each other seat.
    """
    n = len(totals)
    if left <= 0:
        return placing_score(placings(history, totals), seat)
    scale = ROUND_SPREAD * math.sqrt(left)
    mine = totals[seat]
    return sum(
        1.0 / (1.0 + math.exp(-(mine - totals[q]) / scale)) for q in range(n) if q != seat
    ) / (n - 1)


def _finish(s: State, rand: Callable[[], float], tw: list[list[int]], seat: int) -> float:
    """Play the round out with the playout policy; the seat's expected placing score."""
    while s.phase < NEED_DECK and s.phase != DRAW1:
        s._do(policy_action(s, rand, tw))
        s.apply_forced()
    rounds = s.options.rounds
    if s.phase >= NEED_DECK:
        # The round ended on this decision (or its reveals): its scores are in the history.
        left = 0 if s.phase == OVER else rounds - len(s.history)
        return expected_placing(s.totals, seat, left, s.history)
    fast_round(s, rand, tw)
    sc = round_scores(s)
    totals = [s.totals[p] + sc[p] for p in range(s.n)]
    left = rounds - len(s.history) - 1
    history = (*s.history, RoundResult(s.start, "types", tuple(sc)))
    return expected_placing(totals, seat, left, history)


def _policy_first(
    s: State, untried: list[int], rand: Callable[[], float], tw: list[list[int]]
) -> int:
    """The option a node tries first: the playout policy's if untried, else one at random."""
    a = policy_action(s, rand, tw)
    return a if a in untried else untried[int(rand() * len(untried))]


def _descend(
    s: State, node: Node, rand: Callable[[], float], tw: list[list[int]], me: int
) -> float:
    """One iteration of the search below an option; the seat's expected placing score.

    The search's walk (`ismcts.descend`): the seat's own later decisions of the round are
    chosen in the option's tree, the others' by the playout policy; a new node first tries
    the playout policy's choice, so that a young tree plays no worse than the policy. Then
    the round played out (`_finish`), its value backed up the path.
    """

    def first(untried: list[int]) -> int:
        return untried[0] if len(untried) == 1 else _policy_first(s, untried, rand, tw)

    path = descend(s, node, me, rand, tw, first=first)
    r = _finish(s, rand, tw, me)
    for nd in path:
        nd.visits += 1
        nd.total += r
    return r


def value_options(
    v: dict[str, Any], index: int, *, seed: int, samples: int, played: str | None = None
) -> tuple[list[str], list[list[float]]]:
    """Each legal option's values (as text) over the samples, from the view alone.

    Each option has its own search tree below it (`_descend`), grown one iteration in each
    sample it is valued in. Half the budget (`samples` iterations per option) values every
    option in the same samples; the other half goes to the options then within `NEAR` points
    of the best, and to the option `played`, in further samples shared by them. Then, while
    the option played trails the best by a mark's loss, up to `DISPUTES` more rounds of
    `samples` samples go to it and the options near the best: the comparisons that decide
    the marks are measured more sharply than the options plainly worse.
    """
    k = read_view(v)
    sampler = Sampler(v, k)
    me = k.me
    codes: list[int] = v["legal_actions"]
    texts: list[str] = v["legal_texts"]
    rng = random.Random(f"ctg-analysis:{seed}:{index}")
    values: list[list[float]] = [[] for _ in codes]
    trees = [Node() for _ in codes]

    def run(which: list[int], count: int) -> None:
        for _ in range(count):
            s0 = sampler.sample(rng)
            tw = task_weights(s0)
            stream = rng.getrandbits(64)
            for i in which:
                s = s0.clone()
                s._do(codes[i])
                s.apply_forced()
                values[i].append(_descend(s, trees[i], random.Random(stream).random, tw, me))

    def near(means: list[float]) -> list[int]:
        top = max(means)
        return [i for i, m in enumerate(means) if m >= top - NEAR / 100 or texts[i] == played]

    first = max(2, samples // 2)
    run(list(range(len(codes))), first)
    close = near([sum(x) / first for x in values])
    run(close, min(4 * samples, (samples - first) * len(codes) // len(close)))
    if played is None:
        return texts, values
    p = texts.index(played)
    for _ in range(DISPUTES):
        most = len(values[p])
        means = [sum(x) / len(x) if len(x) == most else -1.0 for x in values]
        if 100 * (max(means) - means[p]) < MARKED:
            break
        run(near(means), samples)
    return texts, values


def _fresh_game(record: Mapping[str, Any], final: State) -> State:
    tasks = record.get("tasks")
    return new_game(
        final.options,
        final.names,
        decks=[r["deck"] for r in record["rounds"]],
        tasks=[tasks[name] for name in final.names] if tasks else None,
    )


def decisions_of(
    record: Mapping[str, Any], seat: str
) -> tuple[State, list[tuple[dict[str, Any], str]]]:
    """The final state and, for each decision of `seat` with a choice, its view and the
    option played (text)."""
    try:
        final = from_record(record)
    except IllegalAction as e:
        # One error type for callers: a record that does not replay is bad input.
        raise ValueError(str(e)) from None
    names = final.names
    if seat not in names:
        raise ValueError(f"{seat!r} is not a player of this record")
    me = names.index(seat)
    log = logged_actions(final)
    state = _fresh_game(record, final)
    i = len(logged_actions(state))
    out: list[tuple[dict[str, Any], str]] = []
    while i < len(log):
        _, who, a = log[i]
        if who == me and len(state.legal_actions()) > 1:
            out.append((view(state, me), action_text(a, names)))
        i += 1 + len(state.apply(a, who))
    return final, out


def analyse(
    record: Mapping[str, Any],
    seat: str,
    *,
    seed: int = 0,
    progress: Progress | None = None,
    samples: int | None = None,
) -> SeatAnalysis:
    """The analysis of `seat`'s decisions in `record` (the §10 notation of RULES.md).

    Every decision of the seat with more than one legal option is valued option by option
    from what the seat could see then: the hidden cards are sampled as the search AI samples
    them, never read from the record. `seed` fixes the samples (the same record, seat and
    seed give the same analysis); `samples` overrides the number of samples per decision
    (`SAMPLES`); `progress(done, total)` is called as decisions finish. Raises ValueError for
    a seat that is not in the record or a record that does not replay (the engine's
    RecordError, or its IllegalAction's text).
    """
    t0 = time.perf_counter()
    per = SAMPLES if samples is None else max(2, samples)
    final, todo = decisions_of(record, seat)
    me = final.names.index(seat)
    total = len(todo)
    if progress is not None:
        progress(0, total)
    out: list[Decision] = []
    for index, (v, played) in enumerate(todo):
        texts, values = value_options(v, index, seed=seed, samples=per, played=played)
        out.append(decision(index, v["round"], played, texts, values))
        if progress is not None:
            progress(index + 1, total)
    rounds: list[float] = []
    totals = [0] * final.n
    for r, result in enumerate(final.history):
        totals = [t + x for t, x in zip(totals, result.scores, strict=True)]
        left = final.options.rounds - r - 1
        rounds.append(expected_placing(totals, me, left, final.history[: r + 1]))
    return seat_analysis(seat, out, time.perf_counter() - t0, rounds=rounds, samples=per)


__all__ = ["SAMPLES", "analyse", "decisions_of", "expected_placing", "value_options"]
