"""The game state and every rule of ORC-RULES.md.

The state is count based: a hand, an army or the cards set aside are 22 counts, one per
card code (see `cards`). The deal is kept as the round's deck plus the number of cards
dealt (`dealt`, the `@k` of the notation); a player card on a pile remembers that k, which
is enough to know which army cards lie below it. Actions are `Action` tuples; `apply`
validates, the `_do_*` methods mutate.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import add

from games.enginekit.errors import IllegalAction

from .actions import (
    CHAMPION,
    COMMANDO,
    DESERT,
    FLY,
    PEOPLE,
    SEND,
    SHIELD,
    SPY,
    Action,
)
from .cards import (
    BATTLE_POINTS,
    CG,
    CODES,
    COPIES,
    DESERTERS,
    FM,
    GI,
    GR,
    INDEX,
    MERCENARY,
    N_CARDS,
    N_CODES,
    PACES,
    PEOPLE_GROUP,
    PEOPLES,
    PILES,
    SENDABLE,
    SHIELDS,
    SPIES,
    START_MAX,
    START_MIN,
    TARGET,
    TR,
    WM,
    full_deck,
)

# Phases: what is being decided.
RECRUIT, CHOOSE_CHAMPION, SPYING, CHOOSE_PEOPLE, SENDING, COMMANDO_STEP, FLYING = range(7)
NEED_DECK, OVER = 7, 8
PHASE_NAMES: tuple[str, ...] = (
    "recruit",
    "champion",
    "spy",
    "people",
    "send",
    "commando",
    "fly",
    "need-deck",
    "over",
)
DESERTER_CARD, SHIELD_CARD = 0, 1
LAST_DESERTER_AT = N_CARDS - 1
# The phase in which each turn decision is taken, and the rule that governs it.
VERB_PHASE = {
    CHAMPION: (CHOOSE_CHAMPION, "§3.7"),
    SPY: (SPYING, "§3.9"),
    PEOPLE: (CHOOSE_PEOPLE, "§4.1"),
    SEND: (SENDING, "§4.3"),
    COMMANDO: (COMMANDO_STEP, "§4.4"),
    FLY: (FLYING, "§4.6"),
}
SPY_CODES = frozenset(CODES[c] for c in SPIES)
EMPTY = (0,) * N_CODES
FULL_DECK = tuple(full_deck())


@dataclass(slots=True)
class Battle:
    """A fought battle: `strength` per non-wizard seat, `winners` in seat order; `armies`: the
    cards each seat revealed (counts by code, a flying machine and its gremlins not among
    them), and `at`: the log index of the decision that brought the battle to its end."""

    people: int
    strength: dict[int, int]
    winners: list[int]
    points: int
    armies: dict[int, tuple[int, ...]] = field(default_factory=dict)
    at: int = -1


@dataclass(slots=True)
class RoundResult:
    """A round as far as it has gone: champion -1 until named; scores per seat."""

    wizard: int
    champion: int
    battles: list[Battle] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    # What the round's end shows besides (§3.8-§3.10): per pile its taker (-1: nobody) and
    # the army cards he took; each spy's question (n, holder, target, code, given) in turn;
    # the giants each seat set aside.
    piles: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    spies: list[tuple[int, int, int, str, bool]] = field(default_factory=list)
    giants: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RecruitOptions:
    """What a seat may still play in the deal: counts, piles 1..`piles`, and from which k.

    `desert_from`/`shield_from` are None when that card cannot be played any more; a
    deserter may go down up to k = 79, a shield up to k = 80 (the placing step).
    """

    deserters: int
    shields: int
    piles: int
    desert_from: int | None
    shield_from: int | None
    desert_until: int = LAST_DESERTER_AT
    shield_until: int = N_CARDS


def check_names(names: Sequence[str]) -> None:
    if not 4 <= len(names) <= 7:
        raise ValueError("§2: De l'Orc pour les Braves is for 4 to 7 players")
    for name in names:
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
            raise ValueError(f"§8: a player name is non-empty without whitespace: {name!r}")
        if ":" in name:
            raise ValueError(f"§8: a player name has no ':': {name!r}")
    if len(set(names)) != len(names):
        raise ValueError("§8: player names must differ")


def check_deck(deck: Sequence[str], start_after: int) -> tuple[int, ...]:
    """Validate a round's deck (80 codes, first dealt first) and start point; as code indices."""
    if len(deck) != N_CARDS:
        raise ValueError(f"§1: a deck has {N_CARDS} army cards, not {len(deck)}")
    try:
        codes = tuple(INDEX[c] for c in deck)
    except (KeyError, TypeError):
        raise ValueError("§1: a deck holds only the card codes of §1") from None
    counts = [0] * N_CODES
    for c in codes:
        counts[c] += 1
    for c in range(N_CODES):
        if counts[c] != COPIES[c]:
            raise ValueError(f"§1: a deck holds {COPIES[c]} {CODES[c]}, not {counts[c]}")
    if type(start_after) is not int or not START_MIN <= start_after <= START_MAX:
        raise ValueError(f"§3.2: the start card appears after {START_MIN} to {START_MAX} cards")
    return codes


def random_deck(rng: random.Random) -> tuple[tuple[int, ...], int]:
    """A shuffled deck and start point (§3.2).

    Sorting by random keys is a uniform shuffle (ties have probability ~0) and several times
    faster than `shuffle`, which matters to playouts that deal thousands of rounds a second.
    """
    r = rng.random
    keys = [r() for _ in range(N_CARDS)]
    order = sorted(range(N_CARDS), key=keys.__getitem__)
    return tuple(map(FULL_DECK.__getitem__, order)), START_MIN + int(
        r() * (START_MAX - START_MIN + 1)
    )


def placings(history: Sequence[RoundResult], totals: Sequence[int]) -> list[int]:
    """Final place per seat (§5): points, then the last battles won; sport numbering."""
    battles = [b for r in history for b in r.battles][::-1]

    def separate(group: list[int], start: int) -> list[list[int]]:
        for i in range(start, len(battles)):
            won = [s for s in group if s in battles[i].winners]
            if 0 < len(won) < len(group):
                lost = [s for s in group if s not in won]
                return separate(won, i + 1) + separate(lost, i + 1)
        return [group]

    places = [0] * len(totals)
    ahead = 0
    for total in sorted(set(totals), reverse=True):
        for part in separate([s for s in range(len(totals)) if totals[s] == total], 0):
            for s in part:
                places[s] = ahead + 1
            ahead += len(part)
    return places


def army_strength(army: Sequence[int], people: int) -> int:
    """§4.5: the revealed army's strength (the flying machine comes after, §4.6)."""
    base = 3 * people
    chiefs = army[base + 2]
    if chiefs >= 2:
        return 0
    own = 2 * army[base] + 6 * army[base + 1]
    if chiefs == 1:
        own *= 2
    gremlins = army[GR]
    return (
        own
        + 10 * army[GI]
        + 5 * army[TR]
        + gremlins
        + 9 * (army[WM] if army[WM] < gremlins else gremlins)
    )


class State:
    """A game of De l'Orc pour les Braves. Seat 0 is round 1's wizard (§2)."""

    def __init__(
        self,
        names: Sequence[str],
        decks: Sequence[tuple[tuple[int, ...], int]],
        rng: random.Random,
        seeded: bool,
        pace: float = 1.2,
    ) -> None:
        n = len(names)
        self.names: tuple[str, ...] = tuple(names)
        self.n = n
        self.npiles = PILES[n]
        self.target = TARGET[n]
        self.ndeserters = DESERTERS[n]
        self.decks: list[tuple[tuple[int, ...], int]] = list(decks)
        self.rng = rng
        self.seeded = seeded
        self.pace = pace
        self.totals = [0] * n
        self.history: list[RoundResult] = []
        # (round index, action) per decision taken, forced ones included.
        self.log: list[tuple[int, Action]] = []
        self.rnd = 0
        self.wizard = 0
        self.phase = NEED_DECK
        self.deck: tuple[int, ...] = ()
        self.start_after = 0
        self.dealt = 0
        self.des_left = [0] * n
        self.sh_left = [0] * n
        self.pile_cards: list[list[tuple[int, int, int]]] = []
        self.hands = [[0] * N_CODES for _ in range(n)]
        self.spied = [[0] * N_CODES for _ in range(n)]
        self.army = [[0] * N_CODES for _ in range(n)]
        self.aside = [0] * N_CODES
        self.others: list[int] = []
        self.spy_n = 1
        self.battle = 0
        self.fought = [False] * 4
        self.people = -1
        self.order: list[int] = []
        self.send_i = 0
        self.revealed = False
        self.strength = [0] * n
        # Why the last battle skipped a commando or flying-machine decision (§4.4, §4.6).
        self.skipped: dict[str, str] = {}
        self._start_round()

    # ------------------------------------------------------------------ queries

    @property
    def round(self) -> int:
        """The current round, from 1."""
        return self.rnd + 1

    @property
    def game_over(self) -> bool:
        return self.phase == OVER

    @property
    def pending(self) -> str | None:
        """The decision due: recruit, champion, spy, people, send, commando, fly, or None."""
        return PHASE_NAMES[self.phase] if self.phase < NEED_DECK else None

    @property
    def decider(self) -> int | None:
        """The seat that must take the turn decision now; None in the deal or when waiting."""
        ph = self.phase
        if ph in (CHOOSE_CHAMPION, CHOOSE_PEOPLE):
            return self.wizard
        if ph == SENDING:
            return self.order[self.send_i]
        if ph == SPYING:
            return self._holder(SPIES[self.spy_n - 1])
        if ph == COMMANDO_STEP:
            return self._holder(CG)
        if ph == FLYING:
            return self._holder(FM)
        return None

    def deciders(self) -> list[int]:
        """Every seat that may act now: in the deal, all who still hold a playable card."""
        if self.phase == RECRUIT:
            return [
                s
                for s in self.others
                if self.sh_left[s] or (self.des_left[s] and self.dealt <= LAST_DESERTER_AT)
            ]
        d = self.decider
        return [] if d is None else [d]

    def recruit_options(self, seat: int) -> RecruitOptions:
        """§3.4-3.6: which player cards `seat` may still play, where, and from which k."""
        if self.phase != RECRUIT or seat == self.wizard:
            return RecruitOptions(0, 0, self.npiles, None, None)
        des = self.des_left[seat] if self.dealt <= LAST_DESERTER_AT else 0
        sh = self.sh_left[seat]
        return RecruitOptions(
            des,
            sh,
            self.npiles,
            max(self.dealt, 1) if des else None,
            max(self.dealt, self.start_after) if sh else None,
        )

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of `seat` (default: the decider) right now.

        In the deal these are the player cards `seat` may put down at the current k; later
        k are in `recruit_options`. A commando action leaves `code` empty: the engine draws
        the card (§4.4 [online]).
        """
        if self.phase == RECRUIT:
            if seat is None:
                return []
            opts = self.recruit_options(seat)
            k = self.dealt
            acts: list[Action] = []
            piles = range(1, self.npiles + 1)
            if opts.desert_from is not None and opts.desert_from == k:
                acts += [Action(seat, DESERT, pile=p, at=k) for p in piles]
            if opts.shield_from is not None and opts.shield_from == k:
                acts += [Action(seat, SHIELD, pile=p, at=k) for p in piles]
            return acts
        d = self.decider
        if d is None or (seat is not None and seat != d):
            return []
        ph = self.phase
        if ph == CHOOSE_CHAMPION:
            return [Action(d, CHAMPION, target=t) for t in range(self.n) if t != d]
        if ph == SPYING:
            acts = [Action(d, SPY, n=self.spy_n)]
            for t in range(self.n):
                if t != d:
                    acts += [
                        Action(d, SPY, n=self.spy_n, target=t, code=CODES[c])
                        for c in range(N_CODES)
                        if c not in SPIES
                    ]
            return acts
        if ph == CHOOSE_PEOPLE:
            return [Action(d, PEOPLE, code=PEOPLES[p]) for p in range(4) if not self.fought[p]]
        if ph == SENDING:
            hand = self.hands[d]
            acts = []
            for gi in range(hand[GI] + 1):
                for tr in range(hand[TR] + 1):
                    for wm in range(hand[WM] + 1):
                        for gr in range(hand[GR] + 1):
                            cards = ("GI",) * gi + ("TR",) * tr + ("WM",) * wm + ("GR",) * gr
                            acts.append(Action(d, SEND, cards=cards))
            return acts
        if ph == COMMANDO_STEP:
            acts = [Action(d, COMMANDO)]
            base = 3 * self.people
            for t in self.others:
                if t == d:
                    continue
                army = self.army[t]
                if army[base] + army[base + 1] + army[base + 2]:
                    acts.append(Action(d, COMMANDO, target=t, group=PEOPLE_GROUP))
                if sum(army[12:]):
                    acts.append(Action(d, COMMANDO, target=t, group=MERCENARY))
            return acts
        # FLYING
        return [Action(d, FLY, cards=("GR",) * m) for m in range(self.hands[d][GR] + 1)]

    def card_counts(self) -> list[int]:
        """Copies of each code accounted for: undealt, on piles, in hands, armies, set aside."""
        counts = self.aside[:]
        for who in (*self.hands, *self.army):
            for c in range(N_CODES):
                counts[c] += who[c]
        if self.phase in (RECRUIT, CHOOSE_CHAMPION):
            for c in self.deck:
                counts[c] += 1
        return counts

    def signature(self) -> tuple[object, ...]:
        """Everything that can change during play, for comparing two states."""
        return (
            self.rnd,
            self.phase,
            self.wizard,
            tuple(self.totals),
            tuple((r.wizard, r.champion, tuple(r.scores), len(r.battles)) for r in self.history),
            tuple(self.log),
            self.dealt,
            tuple(self.des_left),
            tuple(self.sh_left),
            tuple(tuple(p) for p in self.pile_cards),
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(h) for h in self.spied),
            tuple(tuple(h) for h in self.army),
            tuple(self.aside),
            self.spy_n,
            self.battle,
            tuple(self.fought),
            self.people,
            tuple(self.order),
            self.send_i,
            self.revealed,
            tuple(self.strength),
        )

    def clone(self) -> State:
        """An independent copy (the decks and finished battles are shared, never mutated)."""
        other = State.__new__(State)
        for name, value in self.__dict__.items():
            setattr(other, name, value)
        other.decks = list(self.decks)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.totals = self.totals[:]
        other.history = [
            RoundResult(
                r.wizard,
                r.champion,
                r.battles[:],
                r.scores[:],
                r.piles[:],
                r.spies[:],
                dict(r.giants),
            )
            for r in self.history
        ]
        other.log = self.log[:]
        other.des_left = self.des_left[:]
        other.sh_left = self.sh_left[:]
        other.pile_cards = [p[:] for p in self.pile_cards]
        other.hands = [h[:] for h in self.hands]
        other.spied = [h[:] for h in self.spied]
        other.army = [h[:] for h in self.army]
        other.aside = self.aside[:]
        other.others = self.others[:]
        other.fought = self.fought[:]
        other.order = self.order[:]
        other.strength = self.strength[:]
        other.skipped = dict(self.skipped)
        return other

    def placing_default(self, seat: int) -> Action | None:
        """§3.6 [online]: where the site puts a shield still held when the placing timer ends.

        The lowest-numbered pile without a shield, or pile 1 if every pile has one; None when
        `seat` holds no shield in the placing step.
        """
        if self.phase != RECRUIT or self.dealt != N_CARDS or not self.sh_left[seat]:
            return None
        for i, entries in enumerate(self.pile_cards):
            if all(kind != SHIELD_CARD for _, kind, _ in entries):
                return Action(seat, SHIELD, pile=i + 1, at=N_CARDS)
        return Action(seat, SHIELD, pile=1, at=N_CARDS)

    def add_round(self, deck: Sequence[str], start_after: int) -> None:
        """Give the next round's deck (80 codes, first dealt first) to a game waiting for it."""
        codes = check_deck(deck, start_after)
        self.decks.append((codes, start_after))
        if self.phase == NEED_DECK:
            self._start_round()

    # ------------------------------------------------------------------ the deal

    def deal(self, k: int) -> None:
        """The wizard's deal reaches k army cards (§3.3); it never goes back."""
        if self.phase != RECRUIT:
            raise IllegalAction("not-dealing", "§3.3: the deal is over")
        if not self.dealt <= k <= N_CARDS:
            raise IllegalAction(
                "deal-backwards", f"§3.3: the deal is at {self.dealt} of {N_CARDS} cards"
            )
        self.dealt = k
        self._check_deal_end()

    def _check_deal_end(self) -> None:
        if self.dealt == N_CARDS:
            # §3.6: deserters still held are lost for the round.
            self.des_left = [0] * self.n
            if not any(self.sh_left):
                self.phase = CHOOSE_CHAMPION

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> list[Action]:
        """Validate and apply `action`, then every forced decision after it (§8).

        Returns the actions applied, as logged: `action` first (a commando with its drawn
        card filled in), then the forced ones. Raises IllegalAction, naming the rule,
        without touching the state.
        """
        verb = action.verb
        if self.phase >= NEED_DECK:
            if self.phase == OVER:
                raise IllegalAction("game-over", "§5: the game is over")
            raise IllegalAction("no-deck", "§3.2: the next round's deck is not known yet")
        if not 0 <= action.seat < self.n:
            raise IllegalAction("no-such-seat", f"§2: there is no seat {action.seat}")
        if verb in (DESERT, SHIELD):
            self._check_recruit(action)
            self._do_recruit(action)
            self.log.append((self.rnd, action))
            self._check_deal_end()
            return [action]
        self._check_turn(action)
        rnd = self.rnd
        if verb == CHAMPION:
            self._check_target(action, "§3.7", "champion-self", "names another player")
            self._do_champion(action.target)
        elif verb == SPY:
            self._check_spy(action)
            self._do_spy(action)
        elif verb == PEOPLE:
            p = PEOPLES.index(action.code) if action.code in PEOPLES else -1
            if p < 0 or self.fought[p]:
                raise IllegalAction(
                    "people-fought", f"§4.1: {action.code} has fought this round already"
                )
            self._do_people(p)
        elif verb == SEND:
            self._do_send(action.seat, self._check_send(action))
        elif verb == COMMANDO:
            action = self._check_commando(action)
            self._do_commando(action)
        elif verb == FLY:
            self._do_fly(action.seat, self._check_fly(action))
        else:
            raise IllegalAction("unknown-verb", f"§8: unknown action {verb!r}")
        self.log.append((rnd, action))
        done = [action]
        self._run_forced(done)
        return done

    def _run_forced(self, done: list[Action]) -> None:
        while True:
            forced = self.forced_action()
            if forced is None:
                return
            rnd = self.rnd
            if forced.verb == PEOPLE:
                self._do_people(PEOPLES.index(forced.code))
            else:
                self._do_send(forced.seat, [0] * 4)
            self.log.append((rnd, forced))
            done.append(forced)

    def forced_action(self) -> Action | None:
        """The only legal option of the decision due, when it has no choice (§8)."""
        if self.phase == CHOOSE_PEOPLE and self.battle == 3:
            return Action(self.wizard, PEOPLE, code=PEOPLES[self.fought.index(False)])
        if self.phase == SENDING:
            seat = self.order[self.send_i]
            hand = self.hands[seat]
            if not (hand[GI] or hand[TR] or hand[WM] or hand[GR]):
                return Action(seat, SEND)
        return None

    # ------------------------------------------------------------------ checks

    def _name(self, seat: int) -> str:
        return self.names[seat]

    def _check_recruit(self, a: Action) -> None:
        seat, kind = a.seat, a.verb
        if seat == self.wizard:
            raise IllegalAction("wizard-recruits", "§3.1: the wizard plays no player cards")
        if self.phase != RECRUIT:
            if kind == DESERT:
                raise IllegalAction(
                    "deal-over", "§3.6: no deserter once the last army card is down"
                )
            raise IllegalAction("no-shield", f"§3.1: {self._name(seat)} has no shield left")
        if kind == DESERT and (a.at > LAST_DESERTER_AT or self.dealt == N_CARDS):
            raise IllegalAction("deal-over", "§3.6: no deserter once the last army card is down")
        if not 1 <= a.pile <= self.npiles:
            raise IllegalAction("no-such-pile", f"§2: the piles are P1 to P{self.npiles}")
        if a.at < self.dealt:
            raise IllegalAction(
                "deal-backwards",
                f"§8: k never goes down; {self.dealt} army cards are already dealt",
            )
        if a.at > N_CARDS:
            raise IllegalAction("no-such-card", f"§3.3: there are {N_CARDS} army cards")
        if kind == DESERT:
            if not self.des_left[seat]:
                raise IllegalAction("no-deserter", f"§3.1: {self._name(seat)} has no deserter left")
            if a.at < 1:
                raise IllegalAction("deal-not-begun", "§3.4: deserters from the first card on")
        else:
            if not self.sh_left[seat]:
                raise IllegalAction("no-shield", f"§3.1: {self._name(seat)} has no shield left")
            if a.at < self.start_after:
                raise IllegalAction(
                    "before-start",
                    f"§3.5: shields only once the start card is down (after "
                    f"{self.start_after} cards)",
                )

    def _check_turn(self, a: Action) -> None:
        phase, rule = VERB_PHASE.get(a.verb, (-1, "§8"))
        if self.phase != phase:
            if a.verb == COMMANDO or a.verb == FLY:
                self._not_arising(a)
            if self.phase == RECRUIT and a.verb == CHAMPION:
                if any(self.sh_left):
                    raise IllegalAction(
                        "shields-held", "§3.7: every shield must be down before the enchantment"
                    )
                raise IllegalAction(
                    "deal-running", "§3.7: the enchantment comes when the last army card is down"
                )
            raise IllegalAction(
                "out-of-order", f"§8: the decision due is {PHASE_NAMES[self.phase]}, not {a.verb}"
            )
        if a.seat != self.decider:
            raise IllegalAction(
                "not-your-decision",
                f"{rule}: this decision is {self._name(self.decider or 0)}'s",
            )

    def _not_arising(self, a: Action) -> None:
        card, rule, what = (
            (CG, "§4.4", "commando gremlin")
            if a.verb == COMMANDO
            else (FM, "§4.6", "flying machine")
        )
        if self.hands[a.seat][card] == 0 or a.seat == self.wizard:
            raise IllegalAction(
                f"{a.verb}-not-held",
                f"{rule}: {self._name(a.seat)} does not hold the {what} (played once per round)",
            )
        reason = self.skipped.get(a.verb)
        if reason:
            raise IllegalAction(f"{a.verb}-not-arising", reason)
        if a.verb == COMMANDO:
            raise IllegalAction(
                "commando-not-arising",
                "§4.4: the commando is played when everyone has committed, before the reveal",
            )
        raise IllegalAction(
            "fly-not-arising", "§4.6: the flying machine is played after the reveal"
        )

    def _check_target(self, a: Action, rule: str, code: str, what: str) -> None:
        if not 0 <= a.target < self.n or a.target == a.seat:
            raise IllegalAction(code, f"{rule}: the {a.verb} {what}")

    def _check_spy(self, a: Action) -> None:
        if a.n != self.spy_n:
            raise IllegalAction("spy-order", f"§3.9: spy {self.spy_n} is due, not spy {a.n}")
        if a.target < 0:
            return
        self._check_target(a, "§3.9", "spy-self", "names another player")
        if a.code in SPY_CODES or a.code not in INDEX:
            raise IllegalAction("spy-a-spy", "§3.9: spies cannot be named")

    def _check_send(self, a: Action) -> list[int]:
        counts = [0, 0, 0, 0]
        for code in a.cards:
            c = INDEX.get(code, -1)
            if c not in SENDABLE:
                raise IllegalAction(
                    "send-not-mercenary",
                    f"§4.3: only giants, trolls, war machines and gremlins are sent, not {code}",
                )
            counts[SENDABLE.index(c)] += 1
        hand = self.hands[a.seat]
        for i, c in enumerate(SENDABLE):
            if counts[i] > hand[c]:
                raise IllegalAction(
                    "send-not-held",
                    f"§4.3: {self._name(a.seat)} does not hold that many {CODES[c]}",
                )
        return counts

    def group_range(self, group: str) -> range:
        """The codes of a group in the current battle: its people's, or the mercenaries."""
        base = 3 * self.people
        return range(base, base + 3) if group == PEOPLE_GROUP else range(12, N_CODES)

    def _check_commando(self, a: Action) -> Action:
        if a.target < 0:
            return a
        t = a.target
        if not 0 <= t < self.n or t == a.seat:
            raise IllegalAction("commando-self", "§4.4: the commando picks another player")
        if a.group not in (PEOPLE_GROUP, MERCENARY):
            raise IllegalAction("commando-group", "§4.4: the group is people or mercenary")
        army = self.army[t]
        group = self.group_range(a.group)
        total = sum(army[c] for c in group)
        if total == 0:
            raise IllegalAction(
                "commando-empty", f"§4.4: {self._name(t)} committed no {a.group} card"
            )
        if not a.code:
            pick = self.rng.randrange(total)
            for c in group:
                pick -= army[c]
                if pick < 0:
                    return a._replace(code=CODES[c])
        c = INDEX.get(a.code, -1)
        if c not in group or army[c] == 0:
            raise IllegalAction(
                "commando-card",
                f"§4.4: {self._name(t)} committed no {a.code} among his {a.group} cards",
            )
        return a

    def _check_fly(self, a: Action) -> int:
        if any(code != "GR" for code in a.cards):
            raise IllegalAction("fly-not-gremlin", "§4.6: only gremlins go with the flying machine")
        if len(a.cards) > self.hands[a.seat][GR]:
            raise IllegalAction(
                "fly-not-held", f"§4.6: {self._name(a.seat)} does not hold that many gremlins"
            )
        return len(a.cards)

    # ------------------------------------------------------------------ effects

    def _holder(self, card: int) -> int | None:
        for s in self.others:
            if self.hands[s][card]:
                return s
        return None

    def _start_round(self) -> None:
        if self.rnd >= len(self.decks):
            if not self.seeded:
                self.phase = NEED_DECK
                return
            self.decks.append(random_deck(self.rng))
        n = self.n
        self.deck, self.start_after = self.decks[self.rnd]
        self.dealt = 0
        w = self.wizard
        self.others = [(w + i) % n for i in range(1, n)]
        self.des_left = [self.ndeserters] * n
        self.sh_left = [SHIELDS] * n
        self.des_left[w] = self.sh_left[w] = 0
        self.pile_cards = [[] for _ in range(self.npiles)]
        self.hands = [[0] * N_CODES for _ in range(n)]
        self.spied = [[0] * N_CODES for _ in range(n)]
        self.army = [[0] * N_CODES for _ in range(n)]
        self.aside = [0] * N_CODES
        self.spy_n = 1
        self.battle = 0
        self.fought = [False] * 4
        self.people = -1
        self.revealed = False
        self.skipped = {}
        self.history.append(RoundResult(w, -1, [], [0] * n))
        self.phase = RECRUIT

    def _do_recruit(self, a: Action) -> None:
        self.dealt = a.at
        if a.verb == DESERT:
            self.des_left[a.seat] -= 1
            self.pile_cards[a.pile - 1].append((a.at, DESERTER_CARD, a.seat))
        else:
            self.sh_left[a.seat] -= 1
            self.pile_cards[a.pile - 1].append((a.at, SHIELD_CARD, a.seat))

    def _do_champion(self, target: int) -> None:
        self.history[-1].champion = target
        self._resolve_piles()
        self._next_spy()

    def _resolve_piles(self) -> None:
        """§3.8: deserters remove the army card below them (past shields); lowest shield takes."""
        deck, npiles, aside, hands = self.deck, self.npiles, self.aside, self.hands
        taken = self.history[-1].piles
        for i, entries in enumerate(self.pile_cards):
            army = deck[i::npiles]
            if not entries:
                for c in army:
                    aside[c] += 1
                taken.append((-1, ()))
                continue
            removed: set[int] = set()
            owner = -1
            below = 0  # army cards under the current top of the pile
            last = -1  # index of the nearest non-shield card if an army card, else -1
            for at, kind, seat in entries:
                pos = (at - i - 1) // npiles + 1 if at > i else 0
                if pos > below:
                    below = pos
                    last = pos - 1
                if kind == DESERTER_CARD:
                    if last >= 0:
                        removed.add(last)
                    last = -1
                elif owner < 0:
                    owner = seat
            if owner < 0:
                for c in army:
                    aside[c] += 1
                taken.append((-1, ()))
                continue
            hand = hands[owner]
            for j, c in enumerate(army):
                if j in removed:
                    aside[c] += 1
                else:
                    hand[c] += 1
            taken.append((owner, tuple(c for j, c in enumerate(army) if j not in removed)))

    def _next_spy(self) -> None:
        while self.spy_n <= 4:
            if self._holder(SPIES[self.spy_n - 1]) is not None:
                self.phase = SPYING
                return
            self.spy_n += 1
        # §3.9: all spies are set aside; §3.10: giants in twos or more leave.
        for seat, hand in enumerate(self.hands):
            for c in SPIES:
                self.aside[c] += hand[c]
                hand[c] = 0
            if hand[GI] >= 2:
                self.history[-1].giants[seat] = hand[GI]
                self.aside[GI] += hand[GI]
                hand[GI] = 0
        self._start_battle()

    def _do_spy(self, a: Action) -> None:
        given = False
        if a.target >= 0:
            c = INDEX[a.code]
            victim = self.hands[a.target]
            given = victim[c] > self.spied[a.target][c]
            if given:
                victim[c] -= 1
                self.hands[a.seat][c] += 1
                self.spied[a.seat][c] += 1
        self.history[-1].spies.append((a.n, a.seat, a.target, a.code, given))
        self.spy_n += 1
        self._next_spy()

    def _start_battle(self) -> None:
        self.phase = CHOOSE_PEOPLE
        self.revealed = False

    def _do_people(self, p: int) -> None:
        self.people = p
        self.skipped = {}
        base = 3 * p
        for s in self.others:
            hand, army = self.hands[s], self.army[s]
            for c in (base, base + 1, base + 2):
                army[c] = hand[c]
                hand[c] = 0
        m = len(self.others)
        b = self.battle % m
        self.order = self.others[b:] + self.others[:b]
        self.send_i = 0
        self.phase = SENDING

    def _do_send(self, seat: int, counts: list[int]) -> None:
        hand, army = self.hands[seat], self.army[seat]
        for i, c in enumerate(SENDABLE):
            k = counts[i]
            if k:
                hand[c] -= k
                army[c] += k
        self.send_i += 1
        if self.send_i == len(self.order):
            self._after_sends()

    def _after_sends(self) -> None:
        holder = self._holder(CG)
        if holder is not None:
            if any(sum(self.army[s]) for s in self.others if s != holder):
                self.phase = COMMANDO_STEP
                return
            self.skipped[COMMANDO] = (
                "§4.4: the commando decision arises only when another player committed a card"
            )
        self._reveal()

    def _do_commando(self, a: Action) -> None:
        if a.target >= 0:
            c = INDEX[a.code]
            self.army[a.target][c] -= 1
            self.aside[c] += 1
            self.hands[a.seat][CG] -= 1
            self.aside[CG] += 1
        self._reveal()

    def _reveal(self) -> None:
        self.revealed = True
        p = self.people
        for s in self.others:
            self.strength[s] = army_strength(self.army[s], p)
        holder = self._holder(FM)
        if holder is not None:
            if self.army[holder][WM]:
                self.skipped[FLY] = (
                    "§4.6: no flying machine in a battle where its holder's army has a war machine"
                )
            elif not self.hands[holder][GR]:
                self.skipped[FLY] = (
                    "§4.6: the flying machine may not be played alone; its holder has no gremlin"
                )
            else:
                self.phase = FLYING
                return
        self._score()

    def _do_fly(self, seat: int, gremlins: int) -> None:
        if gremlins:
            hand = self.hands[seat]
            hand[FM] -= 1
            hand[GR] -= gremlins
            self.aside[FM] += 1
            self.aside[GR] += gremlins
            self.strength[seat] += 4 + gremlins
        self._score()

    def _score(self) -> None:
        b = self.battle
        points = BATTLE_POINTS[b]
        strength = self.strength
        contenders = sorted(self.others)
        best = max(strength[s] for s in contenders)
        winners = [s for s in contenders if strength[s] == best] if best > 0 else []
        current = self.history[-1]
        for s in winners:
            current.scores[s] += points
            self.totals[s] += points
            if s == current.champion:
                current.scores[self.wizard] += points
                self.totals[self.wizard] += points
        current.battles.append(
            Battle(
                self.people,
                {s: strength[s] for s in contenders},
                winners,
                points,
                {s: tuple(self.army[s]) for s in contenders},
                # The decision that ends the battle is logged right after this.
                len(self.log),
            )
        )
        aside = self.aside
        for s in contenders:
            army = self.army[s]
            if any(army):
                aside[:] = map(add, aside, army)
                army[:] = EMPTY
        self.fought[self.people] = True
        self.battle = b + 1
        if self.battle < 4:
            self._start_battle()
            return
        # §4.8: every card goes back at the end of the round.
        for hand in self.hands:
            aside[:] = map(add, aside, hand)
            hand[:] = EMPTY
        if max(self.totals) >= self.target:
            self.phase = OVER
            return
        self.rnd += 1
        self.wizard = (self.wizard + 1) % self.n
        self._start_round()


def new_game(
    names: Sequence[str],
    *,
    seed: int | None = None,
    decks: Sequence[tuple[Sequence[str], int]] | None = None,
    pace: float = 1.2,
) -> State:
    """A new game for 4-7 named players, seat 0 first wizard.

    From a seed (every round's deck and start point follow from it; it also draws the
    commando's card when an action leaves it open) or explicit `decks`: per round the 80
    codes, first dealt first, and `start_after`. A game given fewer decks than it needs
    waits (`pending` None, phase need-deck) until `add_round`. `pace` is the §6 table
    option (0.8, 1.2 or 2.0 s per card), kept for the record.
    """
    check_names(names)
    if pace not in PACES:
        raise ValueError(f"§6: the pace is one of {', '.join(map(str, PACES))}")
    rng = random.Random(seed if seed is not None else 0)
    if decks is None:
        return State(names, [], rng, True, pace)
    return State(names, [(check_deck(d, k), k) for d, k in decks], rng, False, pace)
