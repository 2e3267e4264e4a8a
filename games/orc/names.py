"""De l'Orc's names as the site shows them, in the language of the page (ORC-RULES.md §1; the
Dutch seed is the source of the Dutch terms). Every page and message takes names from here."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

PEOPLES: dict[str, Promise] = {
    "B": pgettext_lazy("orc people", "Barbarians"),
    "M": pgettext_lazy("orc people", "Monsters"),
    "S": pgettext_lazy("orc people", "Skeletons"),
    "D": pgettext_lazy("orc people", "Dwarves"),
}
MERCENARY = pgettext_lazy("orc card group", "Mercenaries")

_MEMBERS = {
    "B": (pgettext_lazy("orc card", "Barbarian"), pgettext_lazy("orc card", "Barbarian chief")),
    "M": (pgettext_lazy("orc card", "Monster"), pgettext_lazy("orc card", "Monster chief")),
    "S": (pgettext_lazy("orc card", "Skeleton"), pgettext_lazy("orc card", "Skeleton chief")),
    "D": (pgettext_lazy("orc card", "Dwarf"), pgettext_lazy("orc card", "Dwarf chief")),
}
_MERCENARIES: dict[str, Promise] = {
    "GR": pgettext_lazy("orc card", "Gremlin"),
    "GI": pgettext_lazy("orc card", "Giant"),
    "TR": pgettext_lazy("orc card", "Troll"),
    "WM": pgettext_lazy("orc card", "Gremlin war machine"),
    "FM": pgettext_lazy("orc card", "Gremlin flying machine"),
    "CG": pgettext_lazy("orc card", "Commando gremlin"),
}
_SPY = pgettext_lazy("orc card", "Spy %(number)s")

# A card's strength in a battle (§4.5, §4.6), said after "Strength:"; the people's warriors
# and veterans are worth the number in their names, a troll 5.
_STRENGTHS: dict[str, Promise] = {
    "C": pgettext_lazy(
        "orc strength", "none of its own; one chief doubles his people's cards, two make 0"
    ),
    "GR": pgettext_lazy("orc strength", "1, and it serves one war machine"),
    "GI": pgettext_lazy("orc strength", "10; but two or more giants in a hand are set aside"),
    "WM": pgettext_lazy("orc strength", "9 when a gremlin of its army serves it, else 0"),
    "FM": pgettext_lazy("orc strength", "4 + 1 per gremlin flying with it, after the reveal"),
    "CG": pgettext_lazy("orc strength", "0; it takes a card from another army once a round"),
    "SP": pgettext_lazy("orc strength", "none; it asks another player for a card"),
}
_STRENGTH = pgettext_lazy("orc card", "Strength: %(strength)s")

WIZARD = pgettext_lazy("orc role", "Wizard")
CHAMPION = pgettext_lazy("orc role", "Champion")
BATTLE = _("Battle %(n)s")


def people(code: str) -> str:
    return str(PEOPLES[code])


def card(code: str) -> str:
    """A card's name from its code (§1): "Barbarian 6", "Dwarf chief", "Spy 3", "Giant"."""
    if code in _MERCENARIES:
        return str(_MERCENARIES[code])
    if code.startswith("SP"):
        return str(_SPY) % {"number": code[2:]}
    member, chief = _MEMBERS[code[0]]
    return str(chief) if code[1] == "C" else f"{member} {code[1]}"


def face(code: str) -> dict[str, Any]:
    """What a card's picture shows (static/img/orc/cards.svg): its kind's symbol, one per
    people and per kind of mercenary, and its value (a chief has none: a crown instead), in
    a frame of its group's colour (its people, or X: the mercenaries)."""
    if code in PEOPLES or code == "X":  # a group: its people's symbol, or the mercenaries'
        return {"icon": f"orc-{code}", "value": "", "chief": False, "group": code}
    if code[0] in PEOPLES and code[1:] in ("2", "6", "C"):
        chief = code[1] == "C"
        value = "" if chief else code[1]
        return {"icon": f"orc-{code[0]}", "value": value, "chief": chief, "group": code[0]}
    if code.startswith("SP"):
        return {"icon": "orc-SP", "value": code[2:], "chief": False, "group": "X"}
    return {"icon": f"orc-{code}", "value": _VALUES[code], "chief": False, "group": "X"}


# The number a mercenary's picture shows: its strength, at most (§4.5, §4.6).
_VALUES = {"GI": "10", "TR": "5", "WM": "9", "GR": "1", "FM": "4+", "CG": "0"}


def strength(code: str) -> str:
    """What a card is worth in a battle, in a few words (§4.5, §4.6): "6", "9 when a gremlin
    of its army serves it, else 0"."""
    if code == "TR":
        return "5"
    if code[0] in PEOPLES and code[1:] in ("2", "6"):
        return code[1]
    if code[0] in PEOPLES and code[1:] == "C":
        return str(_STRENGTHS["C"])
    return str(_STRENGTHS["SP" if code.startswith("SP") else code])


def strength_hint(code: str) -> str:
    """A card's strength as its title on the table says it: "Strength: 10; but ..."."""
    return str(_STRENGTH) % {"strength": strength(code)}


def battle(number: int) -> str:
    return str(BATTLE) % {"n": number}
