"""Post-game analysis of De l'Orc pour les Braves: every turn decision of one seat valued
from its seat, and its real-time deal summarised.

Pure Python, no Django. See ``games.analysis`` for values, marks and accuracy.

What is analysed
    Every turn decision of the seat with more than one legal option: the champion, the
    spies, the people, the mercenaries, the commando, the flying machine, and the shields
    still held when the deal is over (the placing step, ``shield Pn @80``). The deal itself
    runs in real time; each round's is summarised (`DealSummary`: the piles the seat's
    shields claimed, what each was worth against the best pile still open then, and the
    cards its deserters spoiled), never marked.

How an option is valued
    From the seat's view only (``games.orc.engine.view``): hands are public knowledge
    (§3.8); what the others committed face down is guessed from their holdings afresh in
    each sample, as the Warlord guesses it (``games.orc.ai.turns.to_round``). Every option
    is played out to the end of the round with the Card counter's policies
    (``games.orc.ai.rounds``), each decision of the playout a random sensible one with
    chance `EPSILON`; the same guess and the same random numbers serve every option, so
    their difference is measured far more sharply than either. A spy naming a card its
    target does not hold (or holds only as a spied copy) does nothing: such options are one
    option with the pass.

    The value is the seat's expected final placing score. When the round ends the game
    (someone reached the target) the playout's totals give it (equal totals share their
    places). Otherwise each other seat is beaten with a logistic chance of the margin,
    ``1 / (1 + e^(−m / (S · √r)))``, r being the rounds the leader still needs at
    `LEADER_PACE` points a round and S = `ROUND_SPREAD`; the placing score is the mean of
    those chances.
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.analysis import (
    DealSummary,
    Decision,
    PileClaim,
    Progress,
    SeatAnalysis,
    Spoil,
    decision,
    placing_score,
    seat_analysis,
)
from games.orc.ai import rounds
from games.orc.ai.deal import heuristic_reaction
from games.orc.ai.knowledge import Table, read_pile, read_view
from games.orc.ai.rounds import (
    COMMANDO,
    DONE,
    PEOPLE,
    SPY,
    Round,
    combos,
    heuristic_champion,
)
from games.orc.ai.rounds import (
    SEND as SEND_STEP,
)
from games.orc.ai.turns import Move, apply_move, to_round
from games.orc.ai.value import flat_value
from games.orc.engine import Action, IllegalAction, action_text, from_record, new_game, view
from games.orc.engine.actions import CHAMPION, DESERT, FLY, SEND, SHIELD
from games.orc.engine.actions import COMMANDO as COMMANDO_VERB
from games.orc.engine.actions import PEOPLE as PEOPLE_VERB
from games.orc.engine.actions import SPY as SPY_VERB
from games.orc.engine.cards import GR, INDEX, N_CARDS, N_CODES, PEOPLES
from games.orc.engine.state import CHOOSE_CHAMPION, NEED_DECK, RECRUIT, State, placings
from games.orc.engine.views import pile_contents

SAMPLES = 150  # per decision at most, each option played out once in each
ROLLOUTS = 8000  # per decision at most: a decision with many options gets fewer samples
MIN_SAMPLES = 40
EPSILON = 0.1
ROUND_SPREAD = 2.0  # points: how far a round moves a margin in totals, roughly
LEADER_PACE = 2.5  # points the leader gains in a round, roughly


def expected_placing(totals: Sequence[int], seat: int, target: int) -> float:
    """The seat's expected final placing score from the totals after a round."""
    n = len(totals)
    top = max(totals)
    mine = totals[seat]
    if top >= target:
        places = [1 + sum(1 for t in totals if t > x) for x in totals]
        return placing_score(places, seat)
    scale = ROUND_SPREAD * math.sqrt(max(1.0, (target - top) / LEADER_PACE))
    return sum(
        1.0 / (1.0 + math.exp(-(mine - totals[q]) / scale)) for q in range(n) if q != seat
    ) / (n - 1)


# ---------------------------------------------------------------- playouts


def _explore(r: Round, rng: random.Random) -> None:
    """One random sensible decision at the round's step."""
    ph = r.phase
    seat = r.decider()
    if ph == SPY:
        r.spy(-1, -1)
    elif ph == PEOPLE:
        r.choose_people(rng.choice([q for q in range(4) if not r.fought[q]]))
    elif ph == COMMANDO:
        targets = [s for s in r.fighters if s != seat and any(r.army[s])]
        if not targets or rng.random() < 0.5:
            r.commando(-1, False, rng)
        else:
            t = rng.choice(targets)
            base = 3 * r.people
            people = sum(r.army[t][base : base + 3]) > 0
            merc = sum(r.army[t][12:]) > 0
            r.commando(t, people if not merc else (people and rng.random() < 0.5), rng)
    elif ph == DONE:
        return
    elif ph == SEND_STEP:
        options = combos(r.hands[seat])
        r.send(rng.choice(options)[1] if options else (0, 0, 0, 0))
    else:
        r.fly(rng.randint(0, r.hands[seat][GR]))


def play_out(r: Round, rng: random.Random) -> None:
    """Finish the round with the Card counter's policies, each decision random with
    chance `EPSILON` (mutates)."""
    rounds.play_out(r, rng, _explore, EPSILON)


# ---------------------------------------------------------------- options


def _move(t: Table, a: Action) -> Move:
    """The AI's move for a legal action (a spy with no effect becomes the pass)."""
    verb = a.verb
    if verb == CHAMPION:
        return ("champion", a.target)
    if verb == SPY_VERB:
        if a.target < 0:
            return ("spy", (-1, -1))
        c = INDEX[a.code]
        if t.holding[a.target][c] <= t.spied[a.target][c]:
            return ("spy", (-1, -1))
        return ("spy", (a.target, c))
    if verb == PEOPLE_VERB:
        return ("people", PEOPLES.index(a.code))
    if verb == SEND:
        k = [a.cards.count(code) for code in ("GI", "TR", "WM", "GR")]
        return ("send", (k[0], k[1], k[2], k[3]))
    if verb == COMMANDO_VERB:
        return ("commando", (a.target, a.group == "people"))
    assert verb == FLY
    return ("fly", len(a.cards))


def _placing_view(v: dict[str, Any], seat: int, pile: int, rng: random.Random) -> Table:
    """The table once `seat` put a shield on `pile` (0-based) in the placing step and every
    shield still held went down, as the Card counter puts them; the champion is due."""
    w = copy.deepcopy(v)
    names = [p["name"] for p in w["players"]]
    w["deal"]["piles"][pile].append(f"shield:{names[seat]}")
    w["players"][seat]["shields"] -= 1
    n = len(names)
    turn = seat
    for _ in range(4 * n):
        holders = [s for s in range(n) if w["players"][s]["shields"] > 0]
        if not holders:
            break
        turn = min(holders, key=lambda s: (s - turn) % n)
        w["seat"] = turn
        reaction = heuristic_reaction(read_view(w), rng)
        where = reaction[1] if reaction is not None else 0
        w["deal"]["piles"][where].append(f"shield:{names[turn]}")
        w["players"][turn]["shields"] -= 1
    w["seat"] = v["seat"]
    w["pending"] = "champion"
    return read_view(w)


def value_options(
    v: dict[str, Any], options: list[tuple[str, Move | int]], index: int, *, seed: int, samples: int
) -> list[list[float]]:
    """Each option's value in each sample, from the view alone."""
    t = read_view(v)
    if t.pending == "recruit":
        t.pending = "champion"
    me = t.me
    rng = random.Random(f"orc-analysis:{seed}:{index}")
    values: list[list[float]] = [[] for _ in options]
    # The placing step: the Card counter puts the other shields the same way in every sample.
    placed = {m: _placing_view(v, me, m, rng) for _, m in options if isinstance(m, int)}
    for _ in range(samples):
        stream = rng.getrandbits(64)
        for i, (_, m) in enumerate(options):
            g = random.Random(stream)
            if isinstance(m, int):
                r = to_round(placed[m], g)
                apply_move(r, ("champion", heuristic_champion(r)), g)
            else:
                r = to_round(t, g)
                apply_move(r, m, g)
            play_out(r, g)
            values[i].append(expected_placing(r.totals, me, t.target))
    return values


def _options(
    state: State, v: dict[str, Any], a: Action, me: int
) -> tuple[str, list[tuple[str, Move | int]]]:
    """The option played and the options to value, one per distinct effect, as text."""
    names = state.names
    if a.verb == SHIELD:
        played = action_text(a, names)
        opts: list[tuple[str, Move | int]] = [
            (action_text(b, names), b.pile - 1) for b in state.legal_actions(me)
        ]
        return played, opts
    t = read_view(v)
    played_move = _move(t, a)
    played = action_text(a._replace(code="") if a.verb == COMMANDO_VERB else a, names)
    seen: dict[Move, str] = {}
    for b in state.legal_actions(me):
        m = _move(t, b)
        text = action_text(b, names)
        if m == played_move:
            text = played
        if m not in seen or text == played:
            seen[m] = text
    return played, [(text, m) for m, text in seen.items()]


# ---------------------------------------------------------------- replay


def _removed_card(texts: list[str]) -> str | None:
    """The army card a deserter put on top of this pile now removes (§3.8), if any."""
    for entry in reversed(texts):
        if entry.startswith("shield:"):
            continue
        return None if entry.startswith("desert:") else entry
    return None


def _deal_summary(
    state: State,
    me: int,
    claims: list[tuple[int, int, frozenset[int]]],
    spoils: list[tuple[int, int, str | None]],
) -> DealSummary:
    """The round's deal from `me`'s seat, once every shield is down."""
    npiles = state.npiles
    seat_of = {name: s for s, name in enumerate(state.names)}
    piles = [
        read_pile(pile_contents(state, p + 1), p, N_CARDS, npiles, seat_of) for p in range(npiles)
    ]
    mine = [0] * N_CODES
    for p in piles:
        if p.owner == me:
            mine = [x + y for x, y in zip(mine, p.kept, strict=True)]

    def worth(i: int) -> float:
        kept = piles[i].kept
        base = [x - y for x, y in zip(mine, kept, strict=True)] if piles[i].owner == me else mine
        return flat_value([x + y for x, y in zip(base, kept, strict=True)]) - flat_value(base)

    out_claims = []
    for pile, at, open_piles in claims:
        best = max(open_piles, key=lambda i: (worth(i), -i)) if open_piles else pile - 1
        out_claims.append(
            PileClaim(pile, at, piles[pile - 1].owner == me, worth(pile - 1), best + 1, worth(best))
        )
    out_spoils = []
    for pile, at, card in spoils:
        owner = piles[pile - 1].owner
        out_spoils.append(Spoil(pile, at, card, state.names[owner] if owner >= 0 else None))
    return DealSummary(state.round, False, tuple(out_claims), tuple(out_spoils))


Todo = tuple[dict[str, Any], str, list[tuple[str, Move | int]], int]


def replay(record: Mapping[str, Any], seat: str) -> tuple[State, list[Todo], list[DealSummary]]:
    """The final state; for each decision of `seat` with a choice its view, the option
    played, the options and the round; and the seat's deal summaries."""
    try:
        final = from_record(record)
    except IllegalAction as e:
        # One error type for callers: a record that does not replay is bad input.
        raise ValueError(str(e)) from None
    names = final.names
    if seat not in names:
        raise ValueError(f"{seat!r} is not a player of this record")
    me = names.index(seat)
    rounds = record["rounds"]
    state = new_game(names, decks=[], pace=float(record["options"]["pace"]))
    todo: list[Todo] = []
    deals: list[DealSummary] = []
    claims: list[tuple[int, int, frozenset[int]]] = []
    spoils: list[tuple[int, int, str | None]] = []
    summarised = -1
    i = 0
    log = final.log
    while i < len(log):
        rnd, a = log[i]
        if state.phase == NEED_DECK:
            state.add_round(rounds[rnd]["deck"], rounds[rnd]["start_after"])
            claims, spoils = [], []
        if a.verb in (DESERT, SHIELD):
            if a.at > state.dealt:
                state.deal(a.at)
            if a.seat == me:
                texts = [pile_contents(state, p + 1) for p in range(state.npiles)]
                if a.verb == SHIELD:
                    free = frozenset(
                        p
                        for p, ts in enumerate(texts)
                        if not any(x.startswith("shield:") for x in ts)
                    )
                    claims.append((a.pile, a.at, free))
                    if a.at == N_CARDS and len(state.legal_actions(me)) > 1:
                        v = view(state, me)
                        played, opts = _options(state, v, a, me)
                        todo.append((v, played, opts, state.round))
                else:
                    spoils.append((a.pile, a.at, _removed_card(texts[a.pile - 1])))
        else:
            if a.verb == CHAMPION and state.phase == RECRUIT and not any(state.sh_left):
                state.deal(N_CARDS)
            if state.phase == CHOOSE_CHAMPION and summarised < state.rnd:
                summarised = state.rnd
                if state.wizard == me:
                    deals.append(DealSummary(state.round, True))
                else:
                    deals.append(_deal_summary(state, me, claims, spoils))
            if a.seat == me and len(state.legal_actions(me)) > 1:
                v = view(state, me)
                played, opts = _options(state, v, a, me)
                if len(opts) > 1:
                    todo.append((v, played, opts, state.round))
        i += len(state.apply(a))
    return final, todo, deals


def analyse(
    record: Mapping[str, Any],
    seat: str,
    *,
    seed: int = 0,
    progress: Progress | None = None,
    samples: int | None = None,
) -> SeatAnalysis:
    """The analysis of `seat`'s decisions in `record` (the §8 notation of ORC-RULES.md).

    Every turn decision of the seat with more than one legal option is valued option by
    option from what the seat could see then: the cards others committed face down are
    guessed from their holdings, never read from the record. `seed` fixes the samples (the
    same record, seat and seed give the same analysis); `samples` overrides the number of
    samples per decision (`SAMPLES`, fewer for a decision with many options, at least
    `MIN_SAMPLES`); `progress(done, total)` is called as decisions finish. Raises ValueError
    for a seat that is not in the record or a record that does not replay (the engine's
    RecordError, or its IllegalAction's text).
    """
    t0 = time.perf_counter()
    final, todo, deals = replay(record, seat)
    me = final.names.index(seat)
    total = len(todo)
    if progress is not None:
        progress(0, total)
    out: list[Decision] = []
    most = 0
    for index, (v, played, opts, rnd) in enumerate(todo):
        if samples is not None:
            per = max(2, samples)
        else:
            per = max(MIN_SAMPLES, min(SAMPLES, ROLLOUTS // len(opts)))
        most = max(most, per)
        values = value_options(v, opts, index, seed=seed, samples=per)
        out.append(decision(index, rnd, played, [text for text, _ in opts], values))
        if progress is not None:
            progress(index + 1, total)
    rounds: list[float] = []
    totals = [0] * final.n
    for r, result in enumerate(final.history):
        if len(result.battles) < 4:
            break
        totals = [x + y for x, y in zip(totals, result.scores, strict=True)]
        if final.game_over and r == len(final.history) - 1:
            rounds.append(placing_score(placings(final.history, final.totals), me))
        else:
            rounds.append(expected_placing(totals, me, final.target))
    return seat_analysis(
        seat, out, time.perf_counter() - t0, deal=deals, rounds=rounds, samples=most
    )


__all__ = ["SAMPLES", "analyse", "expected_placing", "play_out", "replay", "value_options"]
