"""What each seat, and everybody, may see (§3.8, §6).

Everything dealt is public, so every hand is public knowledge. The one secret is which
cards a player committed to a battle, between his commit and the reveal: a viewer then
sees his holding (hand and committed cards together, as known before) and how many cards
of each group lie face down, never which.
"""

from __future__ import annotations

from typing import Any

from .actions import action_text
from .cards import CODES, MERCENARY, N_CODES, PEOPLE_GROUP, PEOPLES
from .record import result
from .state import (
    CHOOSE_CHAMPION,
    CHOOSE_PEOPLE,
    COMMANDO_STEP,
    DESERTER_CARD,
    FLYING,
    RECRUIT,
    SENDING,
    State,
)


def _counts(counts: list[int]) -> dict[str, int]:
    return {CODES[c]: counts[c] for c in range(N_CODES) if counts[c]}


def pile_contents(state: State, pile: int) -> list[str]:
    """Pile `pile` (1..P) bottom up: army codes and "desert:NAME" / "shield:NAME"."""
    i, npiles = pile - 1, state.npiles
    army = [CODES[c] for c in state.deck[i : state.dealt : npiles]]
    out: list[str] = []
    below = 0
    for at, kind, seat in state.pile_cards[i]:
        pos = (at - i - 1) // npiles + 1 if at > i else 0
        out += army[below:pos]
        below = max(below, pos)
        out.append(f"{'desert' if kind == DESERTER_CARD else 'shield'}:{state.names[seat]}")
    return out + army[below:]


def pile_outcome(contents: list[str]) -> tuple[str | None, list[int]]:
    """§3.8 read on a pile as `pile_contents` lists it, as if the deal ended now: the owner of
    its lowest shield (None: nobody takes it), and the indices in `contents` of the army
    cards its deserters remove. Public, as the pile is."""
    taker: str | None = None
    removed: list[int] = []
    below: int | None = None  # the nearest non-shield card below, if it is an army card
    for i, item in enumerate(contents):
        kind, sep, owner = item.partition(":")
        if not sep:
            below = i
        elif kind == "desert":
            if below is not None:
                removed.append(below)
            below = None
        elif taker is None:
            taker = owner
    return taker, removed


def last_battle(state: State) -> dict[str, Any] | None:
    """The battle fought last, as revealed (§4.5-§4.7): each army's cards and strength, the
    winners and the points; None before the first battle. Public from its reveal on."""
    for number, rnd in reversed(list(enumerate(state.history, 1))):
        if rnd.battles:
            b = rnd.battles[-1]
            names = state.names
            return {
                "round": number,
                "battle": len(rnd.battles),
                "people": PEOPLES[b.people],
                "at": b.at,
                "armies": {names[s]: _counts(list(army)) for s, army in b.armies.items()},
                "strength": {names[s]: v for s, v in b.strength.items()},
                "winners": [names[s] for s in b.winners],
                "points": b.points,
                "champion": names[rnd.champion] if rnd.champion >= 0 else None,
                "wizard": names[rnd.wizard],
            }
    return None


def round_story(state: State, index: int) -> dict[str, Any]:
    """What round `index` (from 0) brought besides its battles (§3.7-§3.10): who took each
    pile and which army cards, the champion, each spy's question and answer, the giants set
    aside. Public: the deal was face up and the spies ask aloud."""
    r = state.history[index]
    names = state.names

    def counts(codes: tuple[int, ...]) -> dict[str, int]:
        out = [0] * N_CODES
        for c in codes:
            out[c] += 1
        return _counts(out)

    return {
        "round": index + 1,
        "wizard": names[r.wizard],
        "champion": names[r.champion] if r.champion >= 0 else None,
        "piles": [
            {"pile": i + 1, "taker": names[o] if o >= 0 else None, "cards": counts(codes)}
            for i, (o, codes) in enumerate(r.piles)
        ],
        "spies": [
            {
                "n": n,
                "holder": names[holder],
                "target": names[target] if target >= 0 else None,
                "code": code,
                "given": given,
            }
            for n, holder, target, code, given in r.spies
        ],
        "giants": {names[s]: k for s, k in r.giants.items()},
    }


def hidden(state: State) -> bool:
    """True between the commit and the reveal of a battle."""
    return state.phase in (SENDING, COMMANDO_STEP)


def public_view(state: State) -> dict[str, Any]:
    """The table as every viewer (players and spectators) sees it; JSON safe."""
    names = state.names
    decider = state.decider
    secret = hidden(state)
    recruiting = state.phase in (RECRUIT, CHOOSE_CHAMPION)
    players = []
    for s in range(state.n):
        hand = state.hands[s]
        if secret:
            army = state.army[s]
            base = 3 * state.people
            holding = [hand[c] + army[c] for c in range(N_CODES)]
            people = army[base] + army[base + 1] + army[base + 2]
            committed: dict[str, Any] | None = {
                PEOPLE_GROUP: people,
                MERCENARY: sum(army) - people,
            }
            revealed: dict[str, int] | None = None
        else:
            holding, committed = hand, None
            revealed = _counts(state.army[s]) if state.revealed else None
        players.append(
            {
                "name": names[s],
                "total": state.totals[s],
                "deserters": state.des_left[s] if recruiting else 0,
                "shields": state.sh_left[s] if recruiting else 0,
                "hand": _counts(holding),
                "spied": _counts(state.spied[s]),
                "committed": committed,
                "army": revealed,
                "strength": state.strength[s] if state.revealed and s != state.wizard else None,
            }
        )
    started = state.dealt >= state.start_after
    return {
        "round": state.round,
        "wizard": names[state.wizard],
        "pending": state.pending,
        "decider": names[decider] if decider is not None else None,
        "deciders": [names[s] for s in state.deciders()],
        "target": state.target,
        "game_over": state.game_over,
        "deal": {
            "dealt": state.dealt if recruiting else None,
            "start_after": state.start_after if recruiting and started else None,
            "piles": [pile_contents(state, p) for p in range(1, state.npiles + 1)]
            if recruiting
            else None,
        },
        "battle": state.battle + 1 if CHOOSE_PEOPLE <= state.phase <= FLYING else None,
        "people": PEOPLES[state.people] if state.people >= 0 and not recruiting else None,
        "mercenary_order": [names[s] for s in state.order] if secret else None,
        "spy": state.spy_n if state.pending == "spy" else None,
        "set_aside": _counts(state.aside),
        "last_battle": last_battle(state),
        "players": players,
        "result": result(state),
    }


def view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus what `seat` alone knows: its committed cards and its options."""
    out = public_view(state)
    out["seat"] = seat
    out["my_army"] = _counts(state.army[seat]) if hidden(state) else None
    opts = state.recruit_options(seat)
    out["recruit"] = (
        {
            "deserters": opts.deserters,
            "shields": opts.shields,
            "piles": opts.piles,
            "desert_from": opts.desert_from,
            "desert_until": opts.desert_until,
            # Where the start card lies is nobody's to know before it shows (§3.5).
            "shield_from": opts.shield_from if out["deal"]["start_after"] is not None else None,
            "shield_until": opts.shield_until,
        }
        if state.phase == RECRUIT and seat != state.wizard
        else None
    )
    out["legal"] = (
        [action_text(a, state.names) for a in state.legal_actions(seat)]
        if state.decider == seat
        else []
    )
    return out
