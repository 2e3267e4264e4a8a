"""Post-game analysis shared by every game: what a seat's decisions cost, as lichess shows it.

Pure Python: no Django and no game package. Each game's analyser
(``games.ctg.analysis.analyse``, ``games.orc.analysis.analyse``) replays a record, values every
legal option of each decision of one seat from that seat's information only, and returns a
`SeatAnalysis` built from the pieces below.

Values
    An option's value is the seat's expected final placing score: 1 for first, 0 for last,
    shared places averaged (with n players, beating b others and tying with t of them scores
    (b + t/2) / (n - 1)). It is a Monte Carlo estimate, so it comes with a standard error.

Marks
    ``loss = 100 × (best value − played value)``; 5, 10 and 15 points mark an inaccuracy
    (``?!``), a mistake (``?``) and a blunder (``??``), but only when the loss is larger than
    twice its standard error: search is noisy, and noise is never marked (`mark`).

Accuracy
    lichess's per-move curve on the loss beyond noise (the loss less twice its standard
    error, at least 0: `counted`), ``103.1668·e^(−0.04354·loss) − 3.1669`` clamped to
    0–100 (`move_accuracy`), averaged over the game as lichess's AccuracyPercent does: the
    mean of a volatility-weighted mean and a harmonic mean (`accuracy`), lichess's "win
    percent" being our expected placing score × 100.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

INACCURACY, MISTAKE, BLUNDER = "?!", "?", "??"
MARKS = (INACCURACY, MISTAKE, BLUNDER)
# Loss (in placing points × 100) from which each mark applies, mildest first.
THRESHOLDS = ((15.0, BLUNDER), (10.0, MISTAKE), (5.0, INACCURACY))

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One legal option (in the record's notation) and its value with its standard error."""

    option: str
    value: float
    error: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed decision of the seat (those with a single legal option are skipped).

    `index` counts the seat's analysed decisions from 0; `round` counts from 1. `loss` is
    100 × (best value − played value) and `error` its standard error (the values of the
    options are estimated on the same samples, so the difference is sharper than either).
    `expected` is the seat's expected placing score before the decision: the best option's
    value, as a chess engine's evaluation assumes the best move (the graph plots it).
    """

    index: int
    round: int
    played: str
    best: str
    loss: float
    error: float
    mark: str | None
    options: tuple[OptionValue, ...]
    expected: float

    @property
    def matched(self) -> bool:
        """The player chose the option the analysis prefers."""
        return self.played == self.best

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "round": self.round,
            "played": self.played,
            "best": self.best,
            "loss": round(self.loss, 2),
            "error": round(self.error, 2),
            "mark": self.mark,
            "options": [
                {"option": o.option, "value": round(o.value, 4), "error": round(o.error, 4)}
                for o in self.options
            ],
            "expected": round(self.expected, 4),
        }


@dataclass(frozen=True, slots=True)
class PileClaim:
    """A shield a seat put down in De l'Orc's deal, and what the pile it claimed was worth.

    `at` is the number of army cards dealt when it went down (80: the placing step). `won`
    says whether the pile went to the seat (its shield the lowest there). `worth` is what
    the pile's cards, as the round's deal left them, add to the seat's hand (in strength
    points, ``games.orc.ai.value.flat_value``); `best_worth` the same for the best pile with
    no shield on it at that moment (`best_pile`, 1..P), so `best_worth - worth` says what
    the choice left on the table. The deal was face up: a summary, not a mark.
    """

    pile: int
    at: int
    won: bool
    worth: float
    best_pile: int
    best_worth: float

    def as_json(self) -> dict[str, Any]:
        return {
            "pile": self.pile,
            "at": self.at,
            "won": self.won,
            "worth": round(self.worth, 1),
            "best_pile": self.best_pile,
            "best_worth": round(self.best_worth, 1),
        }


@dataclass(frozen=True, slots=True)
class Spoil:
    """A deserter a seat put down: the army card it removed (a code) or None, and the
    player who took the pile it spoiled (None when nobody did)."""

    pile: int
    at: int
    card: str | None
    owner: str | None

    def as_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "at": self.at, "card": self.card, "owner": self.owner}


@dataclass(frozen=True, slots=True)
class DealSummary:
    """De l'Orc's real-time deal of one round, from one seat: summarised, never marked."""

    round: int
    wizard: bool  # the seat dealt this round and played no shield or deserter
    claims: tuple[PileClaim, ...] = ()
    spoils: tuple[Spoil, ...] = ()

    @property
    def piles_claimed(self) -> int:
        return sum(1 for c in self.claims if c.won)

    @property
    def piles_spoiled(self) -> int:
        return sum(1 for s in self.spoils if s.card is not None)

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "wizard": self.wizard,
            "piles_claimed": self.piles_claimed,
            "piles_spoiled": self.piles_spoiled,
            "claims": [c.as_json() for c in self.claims],
            "spoils": [s.as_json() for s in self.spoils],
        }


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    """One seat's analysed game.

    `seat` is the player's name in the record; `accuracy` is None when the seat had no
    decision to analyse; `seconds` the time the analysis took. `rounds` holds the seat's
    expected placing score after each round played (the graph round by round; after the
    last round of a finished game it is the placing score itself); `deal` De l'Orc's deal
    summaries, one per round (empty for Call to Glory).
    """

    seat: str
    accuracy: float | None
    decisions: tuple[Decision, ...]
    seconds: float
    deal: tuple[DealSummary, ...] = ()
    rounds: tuple[float, ...] = ()
    samples: int = field(default=0)

    def as_json(self) -> dict[str, Any]:
        """The documented shape: seat, accuracy, decisions, seconds; then the extras."""
        return {
            "seat": self.seat,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "decisions": [d.as_json() for d in self.decisions],
            "seconds": round(self.seconds, 2),
            "rounds": [round(x, 4) for x in self.rounds],
            "deal": [d.as_json() for d in self.deal],
            "samples": self.samples,
            "summary": summary(self).as_json(),
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """Per seat: decisions matching the analysis' choice, each mark's count, the costliest."""

    matches: int
    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    costliest: tuple[Decision, ...]  # at most three, costliest first, each with a loss > 0

    def as_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "decisions": self.decisions,
            "marks": {
                INACCURACY: self.inaccuracies,
                MISTAKE: self.mistakes,
                BLUNDER: self.blunders,
            },
            "costliest": [d.index for d in self.costliest],
        }


class GameAnalysis(Protocol):
    """What a game offers the site for analysis (its ``analysis`` module).

    ``analyse(record, seat, *, seed=0, progress=None, samples=None)`` analyses the decisions
    of the player named `seat` in `record` (the game's own record format) from what that
    seat could see. The same record, seat, seed and samples give the same analysis.
    `progress(done, total)` is called as decisions finish (first with done 0). Raises
    ValueError for a seat not in the record or a record that does not replay. Pure
    Python and CPU-bound: run it in the background.
    """

    def analyse(
        self,
        record: Mapping[str, Any],
        seat: str,
        *,
        seed: int = 0,
        progress: Progress | None = None,
        samples: int | None = None,
    ) -> SeatAnalysis: ...


def mark(loss: float, error: float) -> str | None:
    """The mark a loss earns: ?! from 5, ? from 10, ?? from 15, and only above 2 × error."""
    if loss <= 2.0 * error:
        return None
    for threshold, sign in THRESHOLDS:
        if loss >= threshold:
            return sign
    return None


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one move from its loss in placing points × 100 (0–100)."""
    if loss <= 0:
        return 100.0
    raw = 103.1668 * math.exp(-0.04354 * loss) - 3.1669
    return min(100.0, max(0.0, raw))


def _stdev(xs: Sequence[float]) -> float:
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def accuracy(losses: Sequence[float], expected: Sequence[float] | None = None) -> float | None:
    """A game's accuracy from its decisions' losses, averaged as lichess does.

    `expected` holds the seat's expected placing score (0–1) before each decision, and is
    the series whose volatility weighs the moves: as in lichess's AccuracyPercent, the
    series (here the expected placings × 100, then the value of the last option played)
    is cut into sliding windows of ``clamp(n / 10, 2, 8)`` points (the first window repeated
    to give one per move), each move weighs its window's standard deviation clamped to
    0.5–12, and the game's accuracy is the mean of the weighted mean and the harmonic mean
    of the moves' accuracies. Without `expected` every move weighs the same. None when there
    is no decision.
    """
    n = len(losses)
    if n == 0:
        return None
    moves = [move_accuracy(x) for x in losses]
    if expected is None:
        weights = [1.0] * n
    else:
        if len(expected) != n:
            raise ValueError("one expected placing per decision")
        series = [100.0 * e for e in expected] + [100.0 * expected[-1] - losses[-1]]
        size = min(8, max(2, n // 10))
        head = [series[:size]] * (min(size, len(series)) - 2)
        windows = head + [series[i : i + size] for i in range(len(series) - size + 1)]
        weights = [min(12.0, max(0.5, _stdev(w))) for w in windows[:n]]
    weighted = sum(a * w for a, w in zip(moves, weights, strict=True)) / sum(weights)
    harmonic = n / sum(1.0 / max(1.0, a) for a in moves)
    return (weighted + harmonic) / 2


def summary(analysis: SeatAnalysis) -> Summary:
    """Matches out of decisions, each mark's count and the three costliest decisions."""
    ds = analysis.decisions
    marks = [d.mark for d in ds]
    costly = sorted((d for d in ds if d.loss > 0), key=lambda d: (-d.loss, d.index))[:3]
    return Summary(
        matches=sum(1 for d in ds if d.matched),
        decisions=len(ds),
        inaccuracies=marks.count(INACCURACY),
        mistakes=marks.count(MISTAKE),
        blunders=marks.count(BLUNDER),
        costliest=tuple(costly),
    )


def placing_score(places: Sequence[int], seat: int) -> float:
    """The placing score of `seat` from sport-style places (1, 1, 3): 1 first … 0 last,
    shared places averaged."""
    n = len(places)
    if n < 2:
        return 1.0
    mine = places[seat]
    beaten = sum(1 for s, p in enumerate(places) if s != seat and p > mine)
    tied = sum(1 for s, p in enumerate(places) if s != seat and p == mine)
    return (beaten + tied / 2) / (n - 1)


def decision(
    index: int,
    round_: int,
    played: str,
    options: Sequence[str],
    samples: Sequence[Sequence[float]],
) -> Decision:
    """A `Decision` from each option's values over the same samples (common random numbers).

    ``samples[i][j]`` is option i's value in sample j (the same sampled hidden cards and the
    same random numbers for every option), so the loss's error is the standard error of the
    paired differences, much smaller than either option's own. Options may have more samples
    than others (an analyser spends more on the close ones): the best is the one with the
    highest mean among those with the most samples, which the option played must have.
    """
    if played not in options:
        raise ValueError(f"{played!r} is not one of the options")
    means = [sum(v) / len(v) for v in samples]

    def se(xs: Sequence[float]) -> float:
        k = len(xs)
        if k < 2:
            return 0.0
        m = sum(xs) / k
        return math.sqrt(sum((x - m) ** 2 for x in xs) / (k - 1) / k)

    most = max(len(v) for v in samples)
    played_i = options.index(played)
    if len(samples[played_i]) != most:
        raise ValueError("the option played needs the most samples")
    full = [i for i in range(len(options)) if len(samples[i]) == most]
    best_i = max(full, key=lambda i: (means[i], -i))
    diffs = [a - b for a, b in zip(samples[best_i], samples[played_i], strict=True)]
    loss = 100.0 * (means[best_i] - means[played_i])
    error = 100.0 * se(diffs)
    return Decision(
        index=index,
        round=round_,
        played=played,
        best=options[best_i],
        loss=loss,
        error=error,
        mark=mark(loss, error),
        options=tuple(OptionValue(o, means[i], se(samples[i])) for i, o in enumerate(options)),
        expected=means[best_i],
    )


def counted(d: Decision) -> float:
    """The loss a decision counts in the accuracy: the part beyond noise.

    An estimated loss is never below 0 and the best option is the one whose estimate came
    out highest, so noise alone makes a perfect decision look a point or two short, more so
    in an even game than in a lost one, where every value is near 0. As for the marks, a loss
    within twice its standard error counts as none, and a larger one by what exceeds it.
    """
    return max(0.0, d.loss - 2.0 * d.error)


def seat_analysis(
    seat: str,
    decisions: Sequence[Decision],
    seconds: float,
    *,
    deal: Sequence[DealSummary] = (),
    rounds: Sequence[float] = (),
    samples: int = 0,
) -> SeatAnalysis:
    """A `SeatAnalysis` with its accuracy computed from the decisions' losses beyond noise
    (`counted`)."""
    return SeatAnalysis(
        seat=seat,
        accuracy=accuracy([counted(d) for d in decisions], [d.expected for d in decisions]),
        decisions=tuple(decisions),
        seconds=seconds,
        deal=tuple(deal),
        rounds=tuple(rounds),
        samples=samples,
    )


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "DealSummary",
    "Decision",
    "GameAnalysis",
    "OptionValue",
    "PileClaim",
    "Progress",
    "SeatAnalysis",
    "Spoil",
    "Summary",
    "accuracy",
    "counted",
    "decision",
    "mark",
    "move_accuracy",
    "placing_score",
    "seat_analysis",
    "summary",
]
