"""What one seat, or a spectator, may know of a state: plain JSON-safe dicts.

Never the draw piles' contents or order, never another seat's hand or task cards.
"""

from __future__ import annotations

from typing import Any

from .actions import PILES, action_text
from .cards import VALUES, task_text
from .record import result
from .state import AFTER, BURY, PHASE_NAMES, POST_ACT, State


def _counts(counts: list[int]) -> dict[str, int]:
    return {str(VALUES[t]): c for t, c in enumerate(counts) if c}


def public_view(state: State) -> dict[str, Any]:
    """The spectator's view: everything public, no hand or task contents."""
    n = state.n
    d1, d2 = state.draw_pile_sizes()
    decider = state.decider
    view: dict[str, Any] = {
        "players": list(state.names),
        "options": {
            "players": n,
            "rounds": state.options.rounds,
            "variants": sorted(state.options.variants),
        },
        "round": state.round,
        "start": state.start,
        "current": state.cur,
        "decider": decider,
        "pending": state.pending,
        "game_over": state.game_over,
        "first_draw": PILES[state.first] if state.first >= 0 and decider is not None else None,
        "table": [
            {"owner": o, "type": VALUES[t], "size": state.size[t]}
            for t, o in enumerate(state.owner)
            if o >= 0
        ],
        "hand_sizes": state.hsize[:],
        "draw_piles": {"D1": d1, "D2": d2},
        # Bottom first; the last card is the top. Public by ruling (§4).
        "discard_piles": {
            "X1": [VALUES[t] for t in state.xp[0]],
            "X2": [VALUES[t] for t in state.xp[1]],
        },
        "allowed_discard_piles": [PILES[2 + x] for x in state.allowed_discard_piles()],
        # Cards each hand is known to hold because they were drawn face up (a lower bound).
        "known": [_counts(k) for k in state.known],
        # Where play resumes once the cards have their pile: after Action 2, or (a miniature
        # used earlier in the turn) at the decision the player was about to make.
        "bury": (
            {
                "seat": state.pend_seat,
                "type": VALUES[state.pend_t],
                "count": state.pend_k,
                "then": (
                    "after-action"
                    if state.after_bury == POST_ACT
                    else PHASE_NAMES[state.after_bury]
                ),
            }
            if state.phase == BURY
            else None
        ),
        "revealed_tasks": [
            {"round": r + 1, "seat": s, "card": task_text(c)} for r, s, c in state.revealed
        ],
        "task_counts": [len(t) for t in state.tasks] if state.options.tasks else None,
        "round_scores": [
            {
                "start": r.start,
                "ended_by": r.ended_by,
                "scores": list(r.scores),
                "bonus": list(r.bonus),
                "sets": [{"owner": o, "type": VALUES[t], "size": k} for o, t, k in r.sets],
                "empty_piles": [PILES[i] for i in r.empty_piles],
            }
            for r in state.history
        ],
        "totals": state.totals[:],
        "result": result(state),
    }
    if state.ninja_on:
        view["miniatures"] = {
            "supply": state.supply,
            "held": state.minis[:],
            # Miniatures taken on an earlier turn (only those may be used, §8).
            "ready": [state.minis[s] - (state.fresh if s == state.cur else 0) for s in range(n)],
            "usable_now": state.phase <= AFTER and state.miniature_usable(),
        }
    return view


def view(state: State, seat: int) -> dict[str, Any]:
    """What `seat` may know: the public view plus its own hand, tasks, the cards it drew in
    its turn under way, and its legal actions."""
    v = public_view(state)
    v["seat"] = seat
    v["hand"] = _counts(state.hands[seat])
    v["tasks"] = [task_text(c) for c in state.tasks[seat]] if state.options.tasks else None
    # The cards it drew in its turn under way, in order: only the drawer saw them all.
    v["drawn"] = [VALUES[t] for t in state.drawn] if seat == state.cur else []
    if state.decider == seat:
        acts = state.legal_actions()
        v["legal_actions"] = acts
        v["legal_texts"] = [action_text(a, state.names) for a in acts]
    else:
        v["legal_actions"] = []
        v["legal_texts"] = []
    return v


__all__ = ["public_view", "view"]
