"""Integer action codes and their §10 notation.

Every action is a small int in ``range(N_ACTIONS)``; the tables below decode it without
allocation. Notation text has no player prefix here (record code adds ``"name: "``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.enginekit.errors import NotationError

from .cards import N_TYPES, TASK_DECKS, TYPE_OF_VALUE, VALUES

PILES = ("D1", "D2", "X1", "X2")
MAX_SET = 20

DRAW = 0  # + pile (0..3: D1, D2, X1, X2)
LAY = 4  # + type * 21 + count
DISCARD = LAY + N_TYPES * (MAX_SET + 1)  # + type * 2 + discard pile (0: X1, 1: X2)
BURY = DISCARD + N_TYPES * 2  # + discard pile
NINJA = BURY + 2  # + seat * 9 + type
REVEAL = NINJA + 4 * N_TYPES  # + deck * 9 + type
END = REVEAL + 3 * N_TYPES
N_ACTIONS = END + 1

K_DRAW, K_LAY, K_DISCARD, K_BURY, K_NINJA, K_REVEAL, K_END = range(7)


def _decode(a: int) -> tuple[int, int, int]:
    if a < LAY:
        return K_DRAW, a, 0
    if a < DISCARD:
        t, n = divmod(a - LAY, MAX_SET + 1)
        return K_LAY, t, n
    if a < BURY:
        t, x = divmod(a - DISCARD, 2)
        return K_DISCARD, t, x
    if a < NINJA:
        return K_BURY, a - BURY, 0
    if a < REVEAL:
        p, t = divmod(a - NINJA, N_TYPES)
        return K_NINJA, p, t
    if a < END:
        d, t = divmod(a - REVEAL, N_TYPES)
        return K_REVEAL, d, t
    return K_END, 0, 0


# (kind, arg1, arg2) per action code.
DECODE: tuple[tuple[int, int, int], ...] = tuple(_decode(a) for a in range(N_ACTIONS))


def draw(pile: int) -> int:
    return DRAW + pile


def lay(type_: int, count: int) -> int:
    return LAY + type_ * (MAX_SET + 1) + count


def discard(type_: int, pile: int) -> int:
    return DISCARD + type_ * 2 + pile


def bury(pile: int) -> int:
    return BURY + pile


def ninja(seat: int, type_: int) -> int:
    return NINJA + seat * N_TYPES + type_


def reveal(task: int) -> int:
    return REVEAL + task


def action_text(action: int, names: Sequence[str]) -> str:
    """The §10 notation of an action, e.g. ``"lay 20 4"``; names are for ``ninja P V``."""
    if not 0 <= action < N_ACTIONS:
        raise NotationError(f"no such action code: {action}")
    kind, a, b = DECODE[action]
    if kind == K_DRAW:
        return f"draw {PILES[a]}"
    if kind == K_LAY:
        return f"lay {VALUES[a]} {b}"
    if kind == K_DISCARD:
        return f"discard {VALUES[a]} {PILES[2 + b]}"
    if kind == K_BURY:
        return f"bury {PILES[2 + a]}"
    if kind == K_NINJA:
        name = names[a] if a < len(names) else f"seat{a}"
        return f"ninja {name} {VALUES[b]}"
    if kind == K_REVEAL:
        return f"reveal {TASK_DECKS[a]}{VALUES[b]}"
    return "end"


@dataclass(frozen=True)
class ActionParts:
    """An action taken apart for whoever shows it: its verb, its §10 text and what it names.

    ``pile``: the pile drawn from, discarded onto or buried onto; ``value``: the card value
    laid, discarded, attacked or revealed; ``count``: the size of a laid set; ``target``:
    the player a ninja is sent against; ``deck``: the task deck (A, B, C) of a revealed card.
    """

    verb: str  # draw, lay, discard, bury, ninja, reveal, end
    text: str
    pile: str = ""
    value: int = 0
    count: int = 0
    target: str = ""
    deck: str = ""


_VERBS = ("draw", "lay", "discard", "bury", "ninja", "reveal", "end")


def action_parts(action: int, names: Sequence[str]) -> ActionParts:
    """The parts of an action code (see ActionParts); NotationError for no action."""
    text = action_text(action, names)
    kind, a, b = DECODE[action]
    verb = _VERBS[kind]
    if kind == K_DRAW:
        return ActionParts(verb, text, pile=PILES[a])
    if kind == K_LAY:
        return ActionParts(verb, text, value=VALUES[a], count=b)
    if kind == K_DISCARD:
        return ActionParts(verb, text, value=VALUES[a], pile=PILES[2 + b])
    if kind == K_BURY:
        return ActionParts(verb, text, pile=PILES[2 + a])
    if kind == K_NINJA:
        target = names[a] if a < len(names) else f"seat{a}"
        return ActionParts(verb, text, value=VALUES[b], target=target)
    if kind == K_REVEAL:
        return ActionParts(verb, text, value=VALUES[b], deck=TASK_DECKS[a])
    return ActionParts(verb, text)


def _value(text: str) -> int:
    if not text.isdigit() or int(text) not in TYPE_OF_VALUE:
        raise NotationError(f"not a card value: {text!r}")
    return TYPE_OF_VALUE[int(text)]


def _discard_pile(text: str) -> int:
    if text not in ("X1", "X2"):
        raise NotationError(f"not a discard pile: {text!r}")
    return 0 if text == "X1" else 1


def parse_action(text: str, names: Sequence[str]) -> int:
    """Parse §10 notation (without the player prefix) into an action code."""
    words = text.split(" ")
    verb, args = words[0], words[1:]
    if verb == "draw" and len(args) == 1:
        if args[0] not in PILES:
            raise NotationError(f"not a pile: {args[0]!r}")
        return draw(PILES.index(args[0]))
    if verb == "lay" and len(args) == 2:
        if not args[1].isdigit() or not 0 < int(args[1]) <= MAX_SET:
            raise NotationError(f"not a set size: {args[1]!r}")
        return lay(_value(args[0]), int(args[1]))
    if verb == "discard" and len(args) == 2:
        return discard(_value(args[0]), _discard_pile(args[1]))
    if verb == "bury" and len(args) == 1:
        return bury(_discard_pile(args[0]))
    if verb == "ninja" and len(args) >= 2:
        # Names cannot contain ':' but may contain spaces; the value is the last word.
        name = " ".join(args[:-1])
        if name not in names:
            raise NotationError(f"no player named {name!r}")
        return ninja(list(names).index(name), _value(args[-1]))
    if verb == "reveal" and len(args) == 1:
        card = args[0]
        if len(card) < 2 or card[0] not in TASK_DECKS:
            raise NotationError(f"not a task card: {card!r}")
        return reveal(TASK_DECKS.index(card[0]) * N_TYPES + _value(card[1:]))
    if verb == "end" and not args:
        return END
    raise NotationError(f"not an action: {text!r}")
