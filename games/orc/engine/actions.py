"""Actions and their §8 notation (the text after ``"name: "``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.enginekit.errors import IllegalAction, NotationError

from .cards import INDEX, MERCENARY, PEOPLE_GROUP, PEOPLES

DESERT, SHIELD, CHAMPION, SPY, PEOPLE, SEND, COMMANDO, FLY = (
    "desert",
    "shield",
    "champion",
    "spy",
    "people",
    "send",
    "commando",
    "fly",
)
VERBS = (DESERT, SHIELD, CHAMPION, SPY, PEOPLE, SEND, COMMANDO, FLY)


class Action(NamedTuple):
    """One decision by `seat`. Fields unused by a verb keep their defaults.

    desert/shield: `pile` (1..P) and `at` (army cards dealt before it). champion: `target`.
    spy: `n` (1-4), `target` and `code`, or target -1 to pass. people: `code` (B, M, S, D).
    send: `cards` (mercenary codes, possibly none). commando: `target`, `group` ("people" or
    "mercenary") and `code` (the card taken, as a record keeps it; "" lets the engine draw
    it, as for a player's decision), or target -1 to pass. fly: `cards` (gremlins; none to
    pass).
    """

    seat: int
    verb: str
    pile: int = 0
    at: int = 0
    n: int = 0
    target: int = -1
    code: str = ""
    group: str = ""
    cards: tuple[str, ...] = ()


def desert(seat: int, pile: int, at: int) -> Action:
    return Action(seat, DESERT, pile=pile, at=at)


def shield(seat: int, pile: int, at: int) -> Action:
    return Action(seat, SHIELD, pile=pile, at=at)


def action_text(action: Action, names: Sequence[str]) -> str:
    """§8 notation of `action`, without the ``"name: "`` prefix."""
    verb = action.verb
    if verb in (DESERT, SHIELD):
        return f"{verb} P{action.pile} @{action.at}"
    if verb == CHAMPION:
        return f"champion {names[action.target]}"
    if verb == SPY:
        if action.target < 0:
            return f"spy {action.n} pass"
        return f"spy {action.n} {names[action.target]} {action.code}"
    if verb == PEOPLE:
        return f"people {action.code}"
    if verb == COMMANDO:
        if action.target < 0:
            return "commando pass"
        # With no code yet (an option before the draw) the text stops at the group.
        return f"commando {names[action.target]} {action.group} {action.code}".rstrip()
    if verb == FLY and not action.cards:
        return "fly pass"
    return " ".join((verb, *action.cards))


def _int(word: str, text: str) -> int:
    if not word.isdigit() or len(word) > 3:
        raise NotationError(f"{text!r}: {word!r} is not a number")
    return int(word)


def _seat(word: str, names: Sequence[str], text: str) -> int:
    try:
        return list(names).index(word)
    except ValueError:
        raise NotationError(f"{text!r}: unknown player {word!r}") from None


def _code(word: str, text: str) -> str:
    if word not in INDEX:
        raise NotationError(f"{text!r}: unknown card code {word!r}")
    return word


def parse_action(text: str, names: Sequence[str], seat: int) -> Action:
    """Parse §8 notation (without ``"name: "``) into `seat`'s action; raises NotationError.

    Only the notation is checked here: a known card code in the wrong place is a rule
    matter for `State.apply`.
    """
    words = text.split(" ")
    verb, args = words[0], words[1:]
    if "" in words:
        raise NotationError(f"{text!r}: words are separated by single spaces")
    if verb in (DESERT, SHIELD):
        if len(args) != 2 or not args[0].startswith("P") or not args[1].startswith("@"):
            raise NotationError(f"{text!r}: expected '{verb} Pn @k'")
        return Action(seat, verb, pile=_int(args[0][1:], text), at=_int(args[1][1:], text))
    if verb == CHAMPION:
        if len(args) != 1:
            raise NotationError(f"{text!r}: expected 'champion NAME'")
        return Action(seat, CHAMPION, target=_seat(args[0], names, text))
    if verb == SPY:
        if not args or args[0] not in ("1", "2", "3", "4"):
            raise NotationError(f"{text!r}: expected 'spy N NAME CODE' or 'spy N pass'")
        n = int(args[0])
        if args[1:] == ["pass"]:
            return Action(seat, SPY, n=n)
        if len(args) != 3:
            raise NotationError(f"{text!r}: expected 'spy N NAME CODE' or 'spy N pass'")
        return Action(seat, SPY, n=n, target=_seat(args[1], names, text), code=_code(args[2], text))
    if verb == PEOPLE:
        if len(args) != 1 or args[0] not in PEOPLES:
            raise NotationError(f"{text!r}: expected 'people B|M|S|D'")
        return Action(seat, PEOPLE, code=args[0])
    if verb == SEND:
        return Action(seat, SEND, cards=tuple(_code(w, text) for w in args))
    if verb == COMMANDO:
        if args == ["pass"]:
            return Action(seat, COMMANDO)
        if len(args) != 3 or args[1] not in (PEOPLE_GROUP, MERCENARY):
            raise NotationError(
                f"{text!r}: expected 'commando NAME people|mercenary CODE' or 'commando pass'"
            )
        return Action(
            seat,
            COMMANDO,
            target=_seat(args[0], names, text),
            group=args[1],
            code=_code(args[2], text),
        )
    if verb == FLY:
        if args == ["pass"]:
            return Action(seat, FLY)
        if not args:
            raise NotationError(f"{text!r}: expected 'fly GR …' or 'fly pass'")
        return Action(seat, FLY, cards=tuple(_code(w, text) for w in args))
    raise NotationError(f"{text!r}: unknown verb {verb!r}")


def parse_move(text: str, names: Sequence[str], seat: int) -> Action:
    """Parse a player's decision as the site takes it: §8 notation, except that a commando
    names a player and a group only (``commando NAME people|mercenary``), for the engine to
    draw the card taken (§4.4 [online]), as `State.legal_actions` words it.

    A commando naming its card belongs to records: refused with IllegalAction
    (commando-card-named) before anything else is read, so in the same words whatever the
    cards face down are. Refusing only the cards not committed would tell which ones were.
    """
    words = text.split(" ")
    if words[0] != COMMANDO or words[1:] == ["pass"] or "" in words:
        return parse_action(text, names, seat)
    if len(words) == 4:
        raise IllegalAction(
            "commando-card-named",
            "§4.4: the site draws the card taken; a commando names a player and a group",
        )
    if len(words) != 3 or words[2] not in (PEOPLE_GROUP, MERCENARY):
        raise NotationError(
            f"{text!r}: expected 'commando NAME people|mercenary' or 'commando pass'"
        )
    return Action(seat, COMMANDO, target=_seat(words[1], names, text), group=words[2])
