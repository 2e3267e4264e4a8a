"""What the Call to Glory table page and its pushes show, built only from the engine's view
for the viewer (a seat, or None for a spectator).
"""

import functools

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games.ctg import engine
from games.ctg.engine.cards import DEFAULT_TASKS, TASK_BONUS, TASK_DECKS, TYPES_TO_END
from games.ctg.engine.record import logged_actions
from games.models import Table
from games.rendering import cached, clock_text, standing

CHARACTERS = {
    6: pgettext_lazy("character", "Emperor"),
    7: pgettext_lazy("character", "Empress"),
    8: pgettext_lazy("character", "Daimyo"),
    9: pgettext_lazy("character", "Shogun"),
    12: pgettext_lazy("character", "Samurai"),
    14: pgettext_lazy("character", "Ninja"),
    16: pgettext_lazy("character", "Envoy"),
    18: pgettext_lazy("character", "Monk"),
    20: pgettext_lazy("character", "Farmer"),
}


@functools.cache
def _character_names(language: str) -> dict[int, str]:
    return {value: str(name) for value, name in CHARACTERS.items()}


def card(value: int | str) -> dict:
    value = int(value)
    return {"value": value, "name": _character_names(translation.get_language())[value]}


def describe(name: str, action: engine.ActionParts) -> str:
    """An action in words of the active language, e.g. 'ann lays 4 × Farmer (20)'."""
    verb = action.verb
    card_name = _character_names(translation.get_language()).get(action.value, "")
    if verb == "draw":
        return _("%(name)s draws from %(pile)s") % {"name": name, "pile": action.pile}
    if verb == "lay":
        return _("%(name)s lays %(count)s × %(card)s (%(value)s)") % {
            "name": name,
            "count": action.count,
            "card": card_name,
            "value": action.value,
        }
    if verb == "discard":
        return _("%(name)s discards %(card)s (%(value)s) onto %(pile)s") % {
            "name": name,
            "card": card_name,
            "value": action.value,
            "pile": action.pile,
        }
    if verb == "bury":
        return _("%(name)s puts the cards onto %(pile)s") % {"name": name, "pile": action.pile}
    if verb == "ninja":
        return _("%(name)s sends a ninja against %(target)s's %(card)s") % {
            "name": name,
            "target": action.target,
            "card": card_name,
        }
    if verb == "reveal":
        return _("%(name)s reveals task %(deck)s: %(card)s") % {
            "name": name,
            "deck": action.deck,
            "card": card_name,
        }
    return _("%(name)s ends the turn") % {"name": name}


def _choices(view: dict, shown: dict[str, str]) -> dict:
    """The legal decisions of the viewer, grouped the way the page offers them."""
    discards: dict[int, list[dict]] = {}
    groups: dict[str, list] = {
        "draw": [],
        "lay": [],
        "bury": [],
        "ninja": [],
        "reveal": [],
        "end": [],
    }
    for code in view["legal_actions"]:
        action = engine.action_parts(code, view["players"])
        text = action.text
        if action.verb == "lay":
            groups["lay"].append({"text": text, "card": card(action.value), "count": action.count})
        elif action.verb == "discard":
            discards.setdefault(action.value, []).append({"text": text, "pile": action.pile})
        elif action.verb == "ninja":
            target = shown.get(action.target, action.target)
            groups["ninja"].append({"text": text, "target": target, "card": card(action.value)})
        elif action.verb == "reveal":
            groups["reveal"].append({"text": text, "deck": action.deck, "card": card(action.value)})
        else:
            groups[action.verb].append({"text": text, "arg": action.pile})
    groups["discard"] = [
        {"card": card(value), "options": options} for value, options in sorted(discards.items())
    ]
    groups["draw_piles"] = [option["arg"] for option in groups["draw"]]
    return groups


def board_context(table: Table, state: engine.State, viewer: int | None) -> dict:
    view = engine.view(state, viewer) if viewer is not None else engine.public_view(state)
    seats = list(table.seats.all())
    # The engine's names for what it parses, the seats' names in the viewer's language to show.
    shown = {seat.name: seat.display_name for seat in seats}
    names = [shown.get(name, name) for name in view["players"]]
    players = []
    logged = logged_actions(state)
    last = last_move(logged, names, state.rnd)
    for position, seat in enumerate(seats):
        sets = [
            {
                **card(s["type"]),
                "size": s["size"],
                "last": last is not None and last["type"] == s["type"],
            }
            for s in sorted(view["table"], key=lambda s: s["type"])
            if s["owner"] == position
        ]
        players.append(
            {
                "position": position,
                "name": seat.display_name,
                "is_ai": seat.is_ai,
                "left": seat.left,
                "is_decider": position == view["decider"],
                "is_current": position == view["current"] and not view["game_over"],
                "is_start": position == view["start"],
                "hand_size": view["hand_sizes"][position],
                "known": [
                    card(v) | {"count": c}
                    for v, c in sorted(view["known"][position].items(), key=lambda kv: int(kv[0]))
                ],
                "sets": sets,
                "round_score": sum(s["value"] for s in sets),
                "total": view["totals"][position],
                "miniatures": view["miniatures"]["held"][position]
                if "miniatures" in view
                else None,
                "task_count": view["task_counts"][position] if view["task_counts"] else None,
            }
        )
    players_html = _players_html(table, state, players)
    choices = _choices(view, shown) if viewer is not None and table.pause_until is None else None
    drawn = view.get("drawn") or []
    hand = [
        card(v) | {"count": c, "drawn": drawn.count(int(v))} | _card_choices(choices, int(v))
        for v, c in sorted((view.get("hand") or {}).items(), key=lambda kv: int(kv[0]))
    ]
    # The same for every viewer: drawn once per position and language, from lines drawn once.
    language = translation.get_language()
    lines: dict[int, str] = cached((table.identity, "log-lines", tuple(names), language), dict)
    log = cached(
        (table.identity, "log", len(logged), len(view["round_scores"]), language),
        lambda: _log(lines, logged, view, names),
    )
    discard_piles = {
        pile: [card(v) for v in cards] for pile, cards in view["discard_piles"].items()
    }
    bury = view["bury"]
    return {
        "table": table,
        "view": view,
        "viewer": viewer,
        "players": players,
        "players_html": players_html,
        "you_label": _("you"),
        "hand": hand,
        "tasks": [{"code": t, "deck": t[0], "card": card(t[1:])} for t in view.get("tasks") or []],
        "task_decks": _task_decks(table) if table.options.get("imperial_tasks") else None,
        "revealed": [
            r | {"name": names[r["seat"]], "card_info": card(r["card"][1:])}
            for r in view["revealed_tasks"]
        ],
        "discard_piles": discard_piles,
        "choices": choices,
        "play_url": reverse("table_play", args=[table.pk]),
        "missing": _missing_sets(view, choices),
        "pause": _pause(table, seats, viewer),
        "round_end": round_summary(view, len(view["round_scores"]), names)
        if table.pause_until is not None and view["round_scores"]
        else None,
        "decider_name": names[view["decider"]] if view["decider"] is not None else None,
        "decider_is_ai": view["decider"] is not None and players[view["decider"]]["is_ai"],
        "bury": bury
        and {"owner": names[bury["seat"]], **card(bury["type"]), "count": bury["count"]},
        "round_scores": [
            {"round": i + 1, "scores": r["scores"], "ended_by": r["ended_by"]}
            for i, r in enumerate(view["round_scores"])
        ],
        "last_move": last,
        "headline": standing(
            [table.result["placings"][player] for player in view["players"]], viewer, names
        )
        if table.result
        else "",
        "log": log,
        "log_length": len(logged),
        "clock_left": clock_text(table.deadline),
        # Seconds left when the clock warns the player: a fifth of his time, at least 10.
        "clock_warn": max(10, table.clock_seconds // 5),
    }


def _card_choices(choices: dict | None, value: int) -> dict:
    """The sets of this card the player may lay now, and the piles it may be discarded onto."""
    if not choices:
        return {}
    discards: list[dict] = next(
        (g["options"] for g in choices["discard"] if g["card"]["value"] == value), []
    )
    return {
        "lay": [o for o in choices["lay"] if o["card"]["value"] == value],
        "discard": discards,
    }


def _missing_sets(view: dict, choices: dict | None) -> list[str]:
    """Why a pair or more in the hand is not offered as a set, when sets are being laid."""
    if not choices or not (choices["lay"] or choices["discard"]):
        return []
    offered = {o["card"]["value"] for o in choices["lay"]}
    on_table = {s["type"]: s["size"] for s in view["table"]}
    reasons = []
    for value, count in sorted(((int(v), c) for v, c in view["hand"].items()), reverse=True):
        if count < 2 or value in offered:
            continue
        name = card(value)["name"]
        if len(view["players"]) >= 3 and value in (12, 14, 16) and count < 3:
            reasons.append(
                _("%(card)s: with 3–4 players a set of 12, 14 or 16 needs 3 cards.")
                % {"card": name}
            )
        elif on_table.get(value, 0) >= count:
            reasons.append(
                _("%(card)s: the set on the table has %(size)d cards; yours must have more.")
                % {"card": name, "size": on_table[value]}
            )
    return reasons


def last_move(logged: list, names: list[str], current_round: int) -> dict | None:
    """The latest move of this round worth showing (a turn's end shows the move before it):
    its words, and the pile or the type of set it changed. Public, like the log."""
    for rnd, seat, action in reversed(logged[-3:]):
        if rnd != current_round:
            return None
        parts = engine.action_parts(action, names)
        verb = parts.verb
        if verb == "end":
            continue
        pile = parts.pile if verb in ("draw", "discard", "bury") else None
        kind = parts.value if verb in ("lay", "ninja") else None
        return {"verb": verb, "pile": pile, "type": kind, "text": describe(names[seat], parts)}
    return None


def ending(round_score: dict, names: list[str]) -> str:
    """Why a round ended, in words of the active language."""
    if round_score["ended_by"] == "types":
        need = TYPES_TO_END[len(names)]
        owners = [s["owner"] for s in round_score["sets"]]
        who = [name for seat, name in enumerate(names) if owners.count(seat) >= need]
        return ngettext(
            "%(names)s had sets of %(n)d different types.",
            "%(names)s had sets of %(n)d different types each.",
            len(who),
        ) % {"names": ", ".join(who), "n": need}
    if round_score["ended_by"] == "all-nine":
        return _("All nine types lay on the table.")
    piles = round_score["empty_piles"]
    return ngettext(
        "Draw pile %(piles)s was empty.", "Draw piles %(piles)s were empty.", len(piles)
    ) % {"piles": _(" and ").join(piles)}


def round_summary(view: dict, number: int, names: list[str]) -> dict:
    """Round `number` as it ended: why, each player's sets and what each scored; `names`:
    the players as the page shows them."""
    rounds = view["round_scores"][:number]
    this = rounds[-1]
    revealed = [r for r in view["revealed_tasks"] if r["round"] == number]
    players = []
    for seat, name in enumerate(names):
        sets = [
            card(s["type"]) | {"size": s["size"]}
            for s in sorted(this["sets"], key=lambda s: -s["type"])
            if s["owner"] == seat
        ]
        bonus = this["bonus"][seat] if this["bonus"] else 0
        parts = [str(c["value"]) for c in sets] + ([str(bonus)] if bonus else [])
        players.append(
            {
                "position": seat,
                "name": name,
                "sets": sets,
                "bonus": bonus,
                "sum": " + ".join(parts) or "0",
                "score": this["scores"][seat],
                "total": sum(r["scores"][seat] for r in rounds),
            }
        )
    best = max(p["score"] for p in players)
    for p in players:
        p["best"] = p["score"] == best
    return {
        "round": number,
        "reason": ending(this, names),
        # A table without Imperial Tasks has no bonus to show, not a column of dashes.
        "with_tasks": "imperial-tasks" in view["options"]["variants"],
        "players": players,
        "tasks": [
            {"name": names[r["seat"]], "deck": r["card"][0], "card": card(r["card"][1:])}
            for r in revealed
        ],
    }


def _pause(table: Table, seats: list, viewer: int | None) -> dict | None:
    """Who still looks at the round's end, and whether the viewer is one of them."""
    if table.pause_until is None:
        return None
    people = [s for s in seats if s.user_id and not s.left]
    return {
        "until": table.pause_until,
        "left": clock_text(table.pause_until),
        "waiting": [s.name for s in people if s.position not in table.continued],
        "mine": any(s.position == viewer and s.position not in table.continued for s in people),
    }


def _log(lines: dict[int, str], logged: list, view: dict, names: list[str]) -> str:
    """The last moves, newest first, with a line where a round ended. `lines`: the moves'
    lines drawn for earlier positions of this game, by index; each move adds one."""
    ended = view["round_scores"]
    start = max(0, len(logged) - 60)
    shown: list[str] = []
    for i in range(len(logged) - 1, start - 1, -1):
        rnd, seat, action = logged[i]
        last_of_round = rnd < len(ended) and (i + 1 == len(logged) or logged[i + 1][0] != rnd)
        if last_of_round:
            over = _("Round %(n)d is over. %(why)s") % {
                "n": rnd + 1,
                "why": ending(ended[rnd], names),
            }
            shown.append(format_html('<li class="round-sep" value="{}">{}</li>', i + 1, over))
        line = lines.get(i)
        if line is None:
            text = describe(names[seat], engine.action_parts(action, names))
            line = lines[i] = format_html('<li value="{}">{}</li>', i + 1, text)
        shown.append(line)
    for old in [i for i in lines if i < start]:
        lines.pop(old, None)
    # Joined here rather than looped in the template: the log is the longest part of a push.
    return mark_safe("".join(shown))


def _task_decks(table: Table) -> list[dict]:
    """The task cards this game was dealt from, per deck with its bonus per card."""
    distribution = table.options.get("task_distribution") or DEFAULT_TASKS
    return [
        {"deck": letter, "bonus": TASK_BONUS[i], "cards": [card(v) for v in distribution[letter]]}
        for i, letter in enumerate(TASK_DECKS)
    ]


def _players_html(table: Table, state: engine.State, players: list[dict]) -> str:
    """Every player's public corner, the same for all viewers: drawn once per position."""
    key = (
        table.identity,
        "players",
        state.round,
        len(logged_actions(state)),
        tuple(p["left"] for p in players),
        translation.get_language(),
    )
    context = {"players": players}
    return cached(key, lambda: render_to_string("games/ctg/table.html#players", context))
