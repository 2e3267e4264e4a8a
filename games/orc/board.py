"""What the De l'Orc table page and its pushes show, built only from the engine's view for the
viewer (a seat, or None for a spectator): the views already hide the cards committed
between commit and reveal, and no undealt card is in them.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from functools import cache
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.orc import engine, names
from games.orc.dealer import stamp
from games.orc.engine.cards import BATTLE_POINTS, INDEX, N_CARDS, N_CODES, PEOPLES
from games.orc.engine.state import army_strength
from games.orc.engine.views import hidden, round_story
from games.orc.game import DE_L_ORC
from games.rendering import clock_text, pause_context, won

GROUPS = (*PEOPLES, "X")  # the four peoples, then the mercenaries
MERCENARIES = ("GI", "TR", "WM", "GR", "FM", "CG", "SP1", "SP2", "SP3", "SP4")


def card_name(code: str) -> str:
    """A card's, people's or group's name in the page's language (X: the mercenaries)."""
    if code == "X":
        return str(names.MERCENARY)
    if code in PEOPLES:
        return names.people(code)
    return names.card(code)


def group_of(code: str) -> str:
    return code[0] if code[0] in PEOPLES and len(code) == 2 and code[1] in "26C" else "X"


def card(code: str) -> dict[str, Any]:
    """An army card as the pages draw it: its code, name, strength and picture (§1)."""
    words = {"code": code, "group": group_of(code), "name": card_name(code)}
    return words | {"hint": names.strength_hint(code)} | names.face(code)


def hand_groups(hand: dict[str, int]) -> list[dict[str, Any]]:
    """A hand by group (people, then mercenaries) and value: public knowledge (§3.8)."""
    out = []
    for group in GROUPS:
        cards = [card(code) | {"count": n} for code, n in hand.items() if group_of(code) == group]
        if cards:
            out.append({"group": group, "name": card_name(group), "cards": cards})
    return out


def flat_cards(counts: dict[str, int]) -> list[dict[str, Any]]:
    """Cards by group and value in one row, each with its group."""
    return [c | {"group": g["group"]} for g in hand_groups(counts) for c in g["cards"]]


def strength_parts(army: dict[str, int], people: str | None, strength: int | None) -> list[str]:
    """How a revealed army's strength is made (§4.5, §4.6): its people, the chiefs, each kind
    of mercenary, the war machines served by gremlins, and a flying machine added after."""
    if people is None or strength is None:
        return []
    parts = []
    chiefs = army.get(f"{people}C", 0)
    own = 2 * army.get(f"{people}2", 0) + 6 * army.get(f"{people}6", 0)
    gremlins, machines = army.get("GR", 0), army.get("WM", 0)
    served = min(machines, gremlins)
    if chiefs >= 2:
        parts.append(_("two chiefs fight each other: the army is worth 0"))
        total = 0
    else:
        if chiefs == 1:
            parts.append(_("people %(n)d, doubled by its chief: %(v)d") % {"n": own, "v": 2 * own})
        elif own:
            parts.append(_("people %(v)d") % {"v": own})
        for code, value in (("GI", 10), ("TR", 5), ("GR", 1)):
            if army.get(code):
                parts.append(f"{army[code]} × {card_name(code)}: {army[code] * value}")
        if machines:
            parts.append(
                _("war machines served by a gremlin: %(served)d of %(n)d: %(v)d")
                % {"served": served, "n": machines, "v": 9 * served}
            )
        total = (2 * own if chiefs else own) + 10 * army.get("GI", 0) + 5 * army.get("TR", 0)
        total += gremlins + 9 * served
    if strength > total:
        parts.append(_("flying machine: +%(v)d") % {"v": strength - total})
    return parts


def reveal_context(battle: dict[str, Any] | None, shown: dict[str, str]) -> dict[str, Any] | None:
    """A battle's reveal (the engine's `last_battle`): every army face up with how its
    strength is made, the winners and the points, the wizard's through his champion."""
    if battle is None:
        return None
    people, winners = battle["people"], battle["winners"]
    armies = []
    for name, strength in battle["strength"].items():
        army = battle["armies"].get(name, {})
        armies.append(
            {
                "name": name,
                "shown": shown[name],
                "cards": flat_cards(army),
                "strength": strength,
                "parts": strength_parts(army, people, strength),
                "won": name in winners,
            }
        )
    champion = battle["champion"]
    return {
        "round": battle["round"],
        "number": battle["battle"],
        "people": card_name(people),
        "points": battle["points"],
        "armies": armies,
        "winners": [shown[n] for n in winners],
        "winner_list": ", ".join(shown[n] for n in winners),
        "wizard": shown[battle["wizard"]],
        "champion": shown.get(champion or "", ""),
        "wizard_scores": champion in winners,
    }


def round_end_context(
    state: engine.State, index: int, shown: dict[str, str], summary: dict[str, Any] | None
) -> dict[str, Any]:
    """A round's end as the pause before the next shows it: the piles each player took and
    their cards, the champion, the spies, the giants set aside, then `summary` (its battles,
    points and totals, from `round_summaries`)."""
    story = round_story(state, index)

    taken = takers_context(story["piles"], story["wizard"], list(state.names), shown)
    spies = [
        {
            "n": spy["n"],
            "holder": shown[spy["holder"]],
            "target": shown.get(spy["target"] or "", ""),
            "card": card_name(spy["code"]) if spy["code"] else "",
            "given": spy["given"],
        }
        for spy in story["spies"]
    ]
    return {
        "round": story["round"],
        "wizard": shown[story["wizard"]],
        "champion": shown.get(story["champion"] or "", ""),
        "takers": taken["takers"],
        "nobody": taken["nobody"],
        "spies": spies,
        "giants": [(shown[name], n) for name, n in story["giants"].items()],
        "summary": summary,
    }


def pile_entries(contents: list[str], shown: dict[str, str]) -> list[dict[str, Any]]:
    """A pile bottom up: army cards, and deserters and shields with their owner (his name in
    the record, and as the page shows it)."""
    entries: list[dict[str, Any]] = []
    for item in contents:
        kind, _sep, owner = item.partition(":")
        if owner:
            entries.append({"kind": kind, "owner": owner, "shown": shown.get(owner, owner)})
        else:
            entries.append({"kind": "army"} | card(item))
    return entries


TOP_CARDS = 2  # the army cards a phone shows of each pile, from its top; it counts the rest


def pile_context(number: int, contents: list[str], shown: dict[str, str]) -> dict[str, Any]:
    """A pile of the deal (`contents` bottom up), as compact as a phone needs: its army cards
    by group, its cards with the top ones marked, its shields and deserters, and, were the
    deal over now, who takes it and which cards its deserters remove (§3.8). All public."""
    taker, removed = engine.pile_outcome(contents)
    entries = pile_entries(contents, shown)
    army = [i for i, e in enumerate(entries) if e["kind"] == "army"]
    top = set(army[-TOP_CARDS:])
    for i in army:
        entries[i]["removed"] = i in removed
        entries[i]["deep"] = i not in top and i not in removed
    groups = [group_of(entries[i]["code"]) for i in army]
    return {
        "number": number,
        "entries": entries,
        "counts": [
            {"group": g, "name": card_name(g), "n": groups.count(g)} | names.face(g)
            for g in GROUPS
            if g in groups
        ],
        "deep": sum(bool(e.get("deep")) for e in entries),
        "taker": taker,
        "taker_shown": shown.get(taker, taker) if taker else "",
        "removes": [entries[i]["name"] for i in removed],
    }


def piles_context(view: dict[str, Any], shown: dict[str, str]) -> list[dict[str, Any]]:
    """The piles while they lie on the table: in the deal, and while the wizard names his
    champion from them."""
    piles = view["deal"]["piles"] or []
    return [pile_context(i + 1, p, shown) for i, p in enumerate(piles)]


def takers_context(
    piles: list[dict[str, Any]], wizard: str, players: list[str], shown: dict[str, str]
) -> dict[str, Any]:
    """Who took which pile (`piles`: §3.8's outcome per pile, its taker and the army cards
    he takes) and so each player's new holding, seat by seat; the piles nobody takes."""
    takers = []
    for name in players:
        if name == wizard:
            continue
        mine = [p for p in piles if p["taker"] == name]
        taken: dict[str, int] = {}
        for p in mine:
            for code, n in p["cards"].items():
                taken[code] = taken.get(code, 0) + n
        takers.append(
            {
                "name": name,
                "shown": shown[name],
                "piles": ", ".join(f"P{p['pile']}" for p in mine),
                "cards": [
                    c | {"group": g["group"]} for g in hand_groups(taken) for c in g["cards"]
                ],
            }
        )
    nobody = ", ".join(f"P{p['pile']}" for p in piles if p["taker"] is None)
    return {"takers": takers, "nobody": nobody}


def recap_context(
    state: engine.State, view: dict[str, Any], piles: list[dict[str, Any]], shown: dict[str, str]
) -> dict[str, Any] | None:
    """The deal's recap, from the deal's end to its round's first reveal: who took which pile
    and each player's new holding. While the wizard names his champion the piles still lie
    there, read as §3.8 will resolve them; after, as they were resolved. All public (§3.8)."""
    pending = view["pending"]
    if pending == "champion":
        outcome = []
        for pile in piles:
            kept: dict[str, int] = {}
            for e in pile["entries"]:
                if e["kind"] == "army" and not e["removed"]:
                    kept[e["code"]] = kept.get(e["code"], 0) + 1
            outcome.append({"pile": pile["number"], "taker": pile["taker"], "cards": kept})
    elif pending in (None, "recruit") or state.history[-1].battles or state.game_over:
        return None
    else:
        outcome = round_story(state, state.rnd)["piles"]
    return {"round": view["round"], "settled": pending != "champion"} | takers_context(
        outcome, view["wizard"], list(state.names), shown
    )


WHEEL_SIZE = 44  # the wheel's viewBox, in SVG units: a ring of one segment per point


@cache
def _segments(target: int) -> tuple[str, ...]:
    """The ring's segments as SVG paths, clockwise from the top, a small gap between them."""
    centre, outer, inner = WHEEL_SIZE / 2, WHEEL_SIZE / 2 - 1, WHEEL_SIZE / 2 - 9
    step, gap = 2 * math.pi / target, 0.06

    def at(radius: float, angle: float) -> str:
        x = centre + radius * math.sin(angle)
        y = centre - radius * math.cos(angle)
        return f"{x:.2f} {y:.2f}"

    paths = []
    for i in range(target):
        a, b = i * step + gap, (i + 1) * step - gap
        paths.append(
            f"M{at(outer, a)} A{outer} {outer} 0 0 1 {at(outer, b)} "
            f"L{at(inner, b)} A{inner} {inner} 0 0 0 {at(inner, a)}Z"
        )
    return tuple(paths)


def score_wheel(points: int, target: int) -> dict[str, Any]:
    """A player's points on the table game's score wheel: one segment per point up to the
    target, those scored filled (§1, §5)."""
    return {
        "points": points,
        "target": target,
        "reached": points >= target,
        "segments": [{"d": d, "on": i < points} for i, d in enumerate(_segments(target))],
    }


def round_summaries(result: dict[str, Any], shown: dict[str, str], target: int) -> list[dict]:
    """Each round of a §8 result as far as it has gone: wizard, champion, each battle's
    people, strengths and winners, and each player's points and total on a wheel; `shown`:
    the players' names as the page shows them, by their names in the result."""
    totals = dict.fromkeys(shown, 0)
    summaries = []
    for number, r in enumerate(result["rounds"], 1):
        for name, score in r["scores"].items():
            totals[name] += score
        summaries.append(
            {
                "round": number,
                "wizard": shown[r["wizard"]],
                "champion": shown[r["champion"]] if r["champion"] else None,
                "battles": [
                    {
                        "number": b_number,
                        "people": card_name(b["people"]),
                        "strength": [(shown[n], v) for n, v in b["strength"].items()],
                        "winners": [shown[n] for n in b["winners"]],
                        "points": b["points"],
                    }
                    for b_number, b in enumerate(r["battles"], 1)
                ],
                "players": [
                    {
                        "name": shown[name],
                        "score": r["scores"][name],
                        "wheel": score_wheel(totals[name], target),
                    }
                    for name in shown
                ],
            }
        )
    return summaries


def board_context(table: Any, state: engine.State, viewer: int | None) -> dict[str, Any]:
    view = engine.view(state, viewer) if viewer is not None else engine.public_view(state)
    seats = list(table.seats.all())
    # The record's names for data attributes and what the engine parses ("Sergeant-2"), the
    # seats' names in the viewer's language to show ("Sergent 2"), seat by seat.
    shown = {name: seat.display_name for name, seat in zip(state.names, seats, strict=True)}
    wizard = view["wizard"]
    players = []
    for position, (seat, p) in enumerate(zip(seats, view["players"], strict=True)):
        players.append(
            {
                "position": position,
                "name": p["name"],
                "shown": shown[p["name"]],
                "is_ai": seat.is_ai,
                "left": seat.left,
                "is_wizard": p["name"] == wizard,
                "is_decider": p["name"] == view["decider"],
                "total": p["total"],
                "wheel": score_wheel(p["total"], view["target"]),
                "deserters": p["deserters"],
                "shields": p["shields"],
                "groups": hand_groups(p["hand"]),
                "committed": p["committed"],
                "army": hand_groups(p["army"]) if p["army"] else None,
                "strength": p["strength"],
                "parts": strength_parts(p["army"] or {}, view["people"], p["strength"]),
            }
        )
    dealing = view["pending"] == "recruit"
    dealt = view["deal"]["dealt"] or 0
    recruit = view.get("recruit")
    pause = pause_context(table, seats, viewer)
    decisions = _decisions(view, shown) if viewer is not None and pause is None else []
    reveal = reveal_context(view["last_battle"], shown)
    placings = view["result"].get("placings") if view["game_over"] else None
    piles = piles_context(view, shown)
    summaries = round_summaries(view["result"], shown, view["target"])
    # A pause shows the battle just fought; so does the end of the game, which has no pause:
    # its last battle and round are the game's climax.
    shows_reveal = pause is not None or view["game_over"]
    round_end = None
    if shows_reveal and reveal is not None and reveal["number"] == len(BATTLE_POINTS):
        index = reveal["round"] - 1
        round_end = round_end_context(state, index, shown, summaries[index])
    return {
        "table": table,
        "view": view,
        "viewer": viewer,
        "players": players,
        "stamp": stamp(state),
        "dealing": dealing,
        "dealt": dealt,
        "deal_size": N_CARDS,
        "placing": dealing and dealt == N_CARDS,
        "next_pile": dealt % state.npiles + 1 if dealing and dealt < N_CARDS else None,
        "piles": piles,
        "recap": recap_context(state, view, piles, shown) if pause is None else None,
        "start_after": view["deal"]["start_after"],
        "can_slap": recruit is not None and bool(recruit["deserters"] or recruit["shields"]),
        "recruit": recruit,
        "decisions": decisions,
        "choice": _choice(view, shown) if decisions else None,
        "wizard_name": shown[wizard],
        "decider_name": shown.get(view["decider"]),
        "decider_is_ai": view["decider"] is not None
        and any(p["is_ai"] for p in players if p["name"] == view["decider"]),
        "my_army": hand_groups(view["my_army"]) if view.get("my_army") else None,
        # The people of the battle fought last is no longer the battle's until named again.
        "people_name": card_name(view["people"])
        if view["people"] and view["pending"] != "people"
        else None,
        "mercenary_order": [shown[n] for n in view["mercenary_order"] or []],
        "summaries": summaries,
        "round_end": round_end,
        "log": _log(state, viewer, list(shown.values())),
        "now": now_line(view, viewer, shown) if pause is None else _pause_line(reveal),
        "pause": pause,
        "clock_left": clock_text(table.deadline),
        "winners_line": won([shown[n] for n, place in placings.items() if place == 1])
        if placings
        else "",
        # A replay shows it at its own step.
        "reveal": reveal if shows_reveal else None,
        "last_battle": reveal,
        "next_is_round": reveal is not None and reveal["number"] == len(BATTLE_POINTS),
    }


def _pause_line(reveal: dict[str, Any] | None) -> str:
    if reveal is None:
        return ""
    if reveal["number"] == len(BATTLE_POINTS):
        return _("The round is over: read how its battles went, then continue to the next round.")
    return _("The armies are face up: read how each is made, then continue to the next battle.")


def now_line(view: dict[str, Any], viewer: int | None, shown: dict[str, str]) -> str:
    """What happens now, in a sentence or two for `viewer` (None: a spectator): what he may
    do, or whom the game waits for and what that player decides."""
    pending = view["pending"]
    if pending is None or view["game_over"]:
        return ""
    me = view["players"][viewer]["name"] if viewer is not None else None
    decider, wizard = view["decider"], view["wizard"]
    mine = me is not None and me == decider
    words: dict[str, Any] = {"name": shown.get(decider or "", ""), "wizard": shown[wizard]}
    if pending == "recruit":
        return _recruit_line(view, me, words)
    if pending == "champion":
        if mine:
            return _("You are the wizard: name a champion. You score what he scores this round.")
        return _("%(wizard)s, the wizard, names a champion and scores what he scores.") % words
    if pending == "spy":
        words["n"] = view["spy"]
        if mine:
            return (
                _(
                    "You hold spy %(n)s: ask another player for a card. If he holds one, he must "
                    "give it to you."
                )
                % words
            )
        return _("%(name)s holds spy %(n)s and may ask another player for a card.") % words
    points = BATTLE_POINTS[view["battle"] - 1]
    words |= {"n": view["battle"], "points": points}
    if pending == "people":
        if mine:
            return (
                ngettext(
                    "You are the wizard: choose the people of battle %(n)s (%(points)s point). "
                    "Every player sends all his cards of that people.",
                    "You are the wizard: choose the people of battle %(n)s (%(points)s points). "
                    "Every player sends all his cards of that people.",
                    points,
                )
                % words
            )
        return (
            ngettext(
                "%(wizard)s, the wizard, chooses the people of battle %(n)s (%(points)s point).",
                "%(wizard)s, the wizard, chooses the people of battle %(n)s (%(points)s points).",
                points,
            )
            % words
        )
    words["people"] = card_name(view["people"])
    line = _battle_line(pending, mine, words)
    if me == wizard:
        champion = view["result"]["rounds"][-1]["champion"]
        # The wizard waits through every battle: say why.
        line += " " + _("You fight no battle: you score what %(champion)s scores.") % {
            "champion": shown.get(champion, champion)
        }
    return line


def _battle_line(pending: str, mine: bool, words: dict[str, Any]) -> str:
    if pending == "send":
        if mine:
            return (
                _(
                    "Battle %(n)s, the %(people)s: all yours fight, face down. Add mercenaries if "
                    "you like; those you keep can fight in a later battle."
                )
                % words
            )
        return _("Battle %(n)s, the %(people)s: %(name)s chooses mercenaries to send.") % words
    if pending == "commando":
        if mine:
            return _(
                "Your commando gremlin may take a card at random from another player's army "
                "before the reveal, once this round."
            )
        return _("%(name)s may send the commando gremlin to take a card from another army.") % (
            words
        )
    if mine:
        return _(
            "Your flying machine may join your army with gremlins from your hand: 4, plus 1 "
            "per gremlin, once this round."
        )
    return _("%(name)s may add the flying machine to his army in this battle.") % words


def _recruit_line(view: dict[str, Any], me: str | None, words: dict[str, Any]) -> str:
    if view["deal"]["dealt"] == N_CARDS:
        recruit = view.get("recruit")
        if recruit and recruit["shields"]:
            return _(
                "Every army card is down: put your last shields on piles now, or the site puts "
                "them when the time runs out."
            )
        return _("Every army card is down: waiting for the players still holding shields.")
    if me == view["wizard"]:
        return _(
            "You are the wizard: the cards are dealt for you and you play no shields or "
            "deserters this round. After the deal you name a champion."
        )
    if me is not None:
        return _(
            "Put a deserter on a pile to remove the card under it. Once the start card has "
            "appeared, claim piles with your shields: a pile goes to the lowest shield in it."
        )
    return (
        _(
            "%(wizard)s, the wizard, deals the army cards; the players claim piles with "
            "shields and spoil them with deserters."
        )
        % words
    )


def _decisions(view: dict[str, Any], shown: dict[str, str]) -> list[dict[str, str]]:
    """The viewer's legal turn decisions as buttons: the notation, and words for it."""
    return [{"text": text, "label": describe(text, shown)} for text in view["legal"]]


SENT = ("GI", "TR", "WM", "GR")  # what a `send` may commit (§4.3), in the notation's order


def _choice(view: dict[str, Any], shown: dict[str, str]) -> dict[str, Any] | None:
    """A decision made of choices rather than picked from a list: a spy's player, then the
    kind of card he asks for; the mercenaries to send, card by card. None for the others,
    whose few options are buttons."""
    pending, legal = view["pending"], view["legal"]
    if pending == "spy":
        targets: dict[str, None] = {}
        codes: dict[str, None] = {}
        for text in legal:
            words = text.split()
            if words[-1] != "pass":
                targets[words[2]] = None
                codes[words[3]] = None
        hands = {p["name"]: p["hand"] for p in view["players"]}
        return {
            "kind": "spy",
            "ask": f"spy {view['spy']}",
            "pass": f"spy {view['spy']} pass",
            "targets": [
                {
                    "name": name,
                    "shown": shown[name],
                    "cards": sum(hands[name].values()),
                    # Public (§3.8): the page marks the kinds the player chosen holds.
                    "holds": json.dumps(hands[name], separators=(",", ":")),
                }
                for name in targets
            ],
            "groups": [
                {
                    "group": group,
                    "name": card_name(group),
                    "cards": [
                        {"code": code, "name": card_name(code), "hint": names.strength_hint(code)}
                        for code in codes
                        if group_of(code) == group
                    ],
                }
                for group in GROUPS
            ],
        }
    if pending == "send":
        return send_choice(view)
    return None


def send_choice(view: dict[str, Any]) -> dict[str, Any]:
    """The mercenaries the viewer may send, one toggle per card, and his army's strength as
    each choice would make it (§4.5), worked out by the engine from his own cards only: keyed
    by the number of giants, trolls, war machines and gremlins sent ("1-0-0-2")."""
    army = [0] * N_CODES
    for code, n in (view["my_army"] or {}).items():
        army[INDEX[code]] += n
    people = PEOPLES.index(view["people"])
    strengths = {}
    most = dict.fromkeys(SENT, 0)
    for text in view["legal"]:
        sent = text.split()[1:]
        counts = [sent.count(code) for code in SENT]
        for code, n in zip(SENT, counts, strict=True):
            most[code] = max(most[code], n)
        with_them = army[:]
        for code, n in zip(SENT, counts, strict=True):
            with_them[INDEX[code]] += n
        strengths["-".join(map(str, counts))] = army_strength(with_them, people)
    cards = [
        {
            "code": code,
            "name": card_name(code),
            "hint": names.strength_hint(code),
            "id": f"{code}{i}",
        }
        for code in SENT
        for i in range(most[code])
    ]
    return {
        "kind": "send",
        "cards": cards,
        "strengths": json.dumps(strengths, separators=(",", ":")),
        "now": strengths["0-0-0-0"],
    }


def describe(text: str, shown: dict[str, str]) -> str:
    """A §8 decision in words of the active language; `shown`: the players' names as the page
    shows them, by their names in the notation."""
    verb, *args = text.split()
    if verb == "champion":
        return _("Name %(name)s your champion") % {"name": shown.get(args[0], args[0])}
    if verb == "people":
        return _("Fight the %(people)s") % {"people": card_name(args[0])}
    if verb == "send":
        cards = ", ".join(card_name(c) for c in args)
        return _("Send %(cards)s") % {"cards": cards} if args else _("Send no mercenary")
    if not args or args[-1] == "pass":
        return _("Pass")
    if verb == "spy":
        return _("Spy %(n)s: ask %(name)s for %(card)s") % {
            "n": args[0],
            "name": shown.get(args[1], args[1]),
            "card": card_name(args[2]),
        }
    if verb == "commando":
        return _("Commando: take a %(group)s card of %(name)s") % {
            "group": _("people") if args[1] == "people" else _("mercenary"),
            "name": shown.get(args[0], args[0]),
        }
    if verb == "fly":
        return _("Fly the machine with %(n)s gremlins") % {"n": len(args)}
    return text


def _log(state: engine.State, viewer: int | None, names: list[str]) -> list[str]:
    first = max(0, len(state.log) - 40)
    return [shown_action(state, i, viewer, names) for i in reversed(range(first, len(state.log)))]


def shown_action(state: engine.State, index: int, viewer: int | None, names: list[str]) -> str:
    """Decision `index` of the log as `viewer` may read it, the players named by `names`
    (seat by seat, as the page shows them). Between the commit and the reveal which
    mercenaries another player sent is secret (§6): only how many."""
    _rnd, action = state.log[index]
    name = names[action.seat]
    if action.verb == "send" and action.seat != viewer and index > _battle_start(state):
        n = len(action.cards)
        if not n:
            return _("%(name)s sends no mercenary.") % {"name": name}
        return ngettext(
            "%(name)s sends %(n)d mercenary face down.",
            "%(name)s sends %(n)d mercenaries face down.",
            n,
        ) % {"name": name, "n": n}
    return sentence(action, names)


def _listed(parts: list[str]) -> str:
    """ "a, b and c" in the active language."""
    if len(parts) < 2:
        return "".join(parts)
    return _("%(list)s and %(last)s") % {"list": ", ".join(parts[:-1]), "last": parts[-1]}


def sent_cards(cards: tuple[str, ...]) -> str:
    """Mercenaries as a sentence says them: "a giant and 2 gremlins"."""
    one = {"GI": _("a giant"), "TR": _("a troll"), "WM": _("a war machine"), "GR": _("a gremlin")}
    many = {
        "GI": _("%(n)d giants"),
        "TR": _("%(n)d trolls"),
        "WM": _("%(n)d war machines"),
        "GR": _("%(n)d gremlins"),
    }
    parts = [
        one[code] if cards.count(code) == 1 else many[code] % {"n": cards.count(code)}
        for code in one
        if code in cards
    ]
    return _listed(parts)


def sentence(action: engine.Action, names: list[str]) -> str:
    """A decision of the log in a sentence of the active language, the players named by
    `names` (seat by seat, as the page shows them)."""
    words: dict[str, Any] = {"name": names[action.seat], "pile": action.pile, "n": action.n}
    if action.target >= 0:
        words["target"] = names[action.target]
    if action.code:
        words["card"] = card_name(action.code)
    verb = action.verb
    if verb == "desert":
        return _("%(name)s puts a deserter on P%(pile)s.") % words
    if verb == "shield":
        return _("%(name)s puts a shield on P%(pile)s.") % words
    if verb == "champion":
        return _("%(name)s names %(target)s his champion.") % words
    if verb == "people":
        return _("%(name)s chooses the %(people)s for this battle.") % {
            "name": words["name"],
            "people": card_name(action.code),
        }
    if verb == "spy":
        if action.target < 0:
            return _("%(name)s does not use spy %(n)s.") % words
        return _("%(name)s uses spy %(n)s and asks %(target)s for a card “%(card)s”.") % words
    if verb == "send":
        if not action.cards:
            return _("%(name)s sends no mercenary.") % words
        return _("%(name)s sends %(cards)s.") % (words | {"cards": sent_cards(action.cards)})
    if verb == "commando":
        if action.target < 0:
            return _("%(name)s keeps the commando gremlin.") % words
        return _("%(name)s's commando gremlin takes a card “%(card)s” from %(target)s.") % words
    if action.cards:
        n = len(action.cards)
        return ngettext(
            "%(name)s adds the flying machine with %(n)d gremlin.",
            "%(name)s adds the flying machine with %(n)d gremlins.",
            n,
        ) % (words | {"n": n})
    return _("%(name)s keeps the flying machine.") % words


def _battle_start(state: engine.State) -> int:
    """The log index of the people named for the battle whose commitments are face down;
    past the log's end when none are."""
    if not hidden(state):
        return len(state.log)
    return max(i for i, (_rnd, action) in enumerate(state.log) if action.verb == "people")


_updates: OrderedDict[tuple, str] = OrderedDict()
_updates_lock = threading.Lock()


def render_update(event: dict[str, Any], viewer: int | None, language: str) -> str:
    """The small push of a card or a slap (`dealer.event`), as a viewer's socket shows it.

    Everything in it is public; only the slap buttons differ per viewer (a player with cards
    left to put down), so the render is shared by every viewer with the same buttons and
    language. The players are named as the whole board names them in that language.
    """
    players = event["players"]
    mine = players[viewer] if viewer is not None else None
    buttons = (mine[2] > 0, mine[1] > 0) if mine is not None and not mine[3] else None
    key = (event["table"], event["stamp"], tuple(event["piles"]), buttons, language)
    with _updates_lock:
        html = _updates.get(key)
    if html is not None:
        return html
    dealt = event["dealt"]
    # Everything drawn in the viewer's language, the cards' names too: a socket's consumer
    # has no language of its own active.
    with translation.override(language):
        shown = {
            player[0]: DE_L_ORC.seat_name(name, level)
            for player, (name, level) in zip(players, event["names"], strict=True)
        }
        context = {
            "stamp": event["stamp"],
            "piles": [pile_context(int(n), p, shown) for n, p in event["piles"].items()],
            "dealt": dealt,
            "deal_size": N_CARDS,
            "placing": dealt == N_CARDS,
            "next_pile": event["next"],
            "start_after": event["start_after"],
            "players": [
                {"name": n, "shown": shown[n], "deserters": d, "shields": s, "is_wizard": wizard}
                for n, d, s, wizard in players
            ],
            "can_slap": buttons is not None and any(buttons),
            "recruit": {"shields": buttons[0], "deserters": buttons[1]} if buttons else None,
        }
        html = render_to_string("games/orc/table.html#deal", context)
    with _updates_lock:
        _updates[key] = html
        while len(_updates) > 512:
            _updates.popitem(last=False)
    return html
