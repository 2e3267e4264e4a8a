"""What one seat knows, read from its view (never from the state).

Every hand is public knowledge (§3.8); the one secret, between the commit and the reveal,
is which cards another player committed. A `Table` keeps each player's holding (hand and
committed cards together, as the view shows it) and the committed counts per group.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.orc.engine.cards import COPIES, INDEX, N_CARDS, N_CODES, PEOPLES

ARMY, DESERTER, SHIELD = 0, 1, 2


@dataclass(slots=True)
class Pile:
    """A pile as the deal left it so far."""

    entries: list[tuple[int, int]]  # bottom up: (ARMY, code) or (DESERTER|SHIELD, seat)
    owner: int  # the seat of the lowest shield, -1 without one
    kept: list[int]  # counts per code that its owner would take now
    top: int  # the army card a deserter put now would remove, -1 if none
    future: int  # army cards still to come onto it


@dataclass(slots=True)
class Table:
    me: int
    n: int
    names: tuple[str, ...]
    wizard: int
    pending: str | None
    target: int
    totals: list[int]
    scores: list[int]  # this round's points so far
    champion: int
    dealt: int
    started: bool  # shields may go down
    piles: list[Pile]
    deserters: list[int]
    shields: list[int]
    holding: list[list[int]]
    spied: list[list[int]]
    committed: list[tuple[int, int]] | None  # (people, mercenaries) per seat, hidden phase
    my_army: list[int]
    people: int
    battle: int  # 0-based index of the battle under way or due
    fought: list[bool]
    order: list[int]
    legal: list[str]
    unseen: list[int]  # army cards not dealt yet, per code
    revealed: list[list[int]]  # armies after the reveal
    strength: list[int]  # after the reveal (and a flying machine)
    spy_n: int

    @property
    def fighters(self) -> list[int]:
        """The non-wizard seats, clockwise from the wizard's left."""
        return [(self.wizard + i) % self.n for i in range(1, self.n)]


def counts_of(d: dict[str, int]) -> list[int]:
    out = [0] * N_CODES
    for code, k in d.items():
        out[INDEX[code]] = k
    return out


def read_pile(texts: list[str], i: int, dealt: int, npiles: int, seat_of: dict[str, int]) -> Pile:
    entries: list[tuple[int, int]] = []
    for t in texts:
        kind, _, name = t.partition(":")
        if not name:
            entries.append((ARMY, INDEX[t]))
        else:
            entries.append((DESERTER if kind == "desert" else SHIELD, seat_of[name]))
    # §3.8: a deserter removes the nearest non-shield card below it when that is an army card.
    removed: set[int] = set()
    owner = -1
    last = -1
    for j, (sort, what) in enumerate(entries):
        if sort == ARMY:
            last = j
        elif sort == DESERTER:
            if last >= 0:
                removed.add(last)
            last = -1
        elif owner < 0:
            owner = what
    kept = [0] * N_CODES
    for j, (sort, what) in enumerate(entries):
        if sort == ARMY and j not in removed:
            kept[what] += 1
    top = entries[last][1] if last >= 0 else -1
    future = len(range(i + ((dealt - i + npiles - 1) // npiles) * npiles, N_CARDS, npiles))
    return Pile(entries, owner, kept, top, future)


def read_view(v: dict[str, Any]) -> Table:
    players = v["players"]
    names = tuple(p["name"] for p in players)
    seat_of = {name: s for s, name in enumerate(names)}
    n = len(names)
    rnd = v["result"]["rounds"][-1]
    champion = seat_of[rnd["champion"]] if rnd["champion"] else -1
    fought = [False] * 4
    for b in rnd["battles"]:
        fought[PEOPLES.index(b["people"])] = True
    deal = v["deal"]
    dealt = deal["dealt"] or 0
    pile_texts: list[list[str]] = deal["piles"] or []
    npiles = len(pile_texts)
    piles = [read_pile(t, i, dealt, npiles, seat_of) for i, t in enumerate(pile_texts)]
    unseen = list(COPIES)
    for p in piles:
        for kind, what in p.entries:
            if kind == ARMY:
                unseen[what] -= 1
    if not pile_texts:
        unseen = [0] * N_CODES
    committed = None
    if any(p["committed"] is not None for p in players):
        committed = [
            (p["committed"]["people"], p["committed"]["mercenary"]) if p["committed"] else (0, 0)
            for p in players
        ]
    people = PEOPLES.index(v["people"]) if v["people"] else -1
    battle = len(rnd["battles"])
    return Table(
        me=v["seat"],
        n=n,
        names=names,
        wizard=seat_of[v["wizard"]],
        pending=v["pending"],
        target=v["target"],
        totals=[p["total"] for p in players],
        scores=[rnd["scores"][name] for name in names],
        champion=champion,
        dealt=dealt,
        started=deal["start_after"] is not None,
        piles=piles,
        deserters=[p["deserters"] for p in players],
        shields=[p["shields"] for p in players],
        holding=[counts_of(p["hand"]) for p in players],
        spied=[counts_of(p["spied"]) for p in players],
        committed=committed,
        my_army=counts_of(v["my_army"] or {}),
        people=people,
        battle=battle,
        fought=fought,
        order=[seat_of[name] for name in v["mercenary_order"] or ()],
        legal=list(v["legal"]),
        unseen=unseen,
        revealed=[counts_of(p["army"] or {}) for p in players],
        strength=[p["strength"] or 0 for p in players],
        spy_n=v["spy"] or 0,
    )


def pile_hands(t: Table) -> list[list[int]]:
    """What each seat would take if the deal ended now (§3.8)."""
    hands = [[0] * N_CODES for _ in range(t.n)]
    for p in t.piles:
        if p.owner >= 0:
            h = hands[p.owner]
            for c in range(N_CODES):
                h[c] += p.kept[c]
    return hands


__all__ = ["Pile", "Table", "counts_of", "pile_hands", "read_view"]
