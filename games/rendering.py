"""Everything a page or a push shows of a table, built only from the engine's view for the viewer.

A viewer is a seat position, or None for a spectator. Renders are cached per process by
(table, version, viewer, language): however many sockets share a view, it is drawn once.
"""

import functools
import threading
from collections import OrderedDict

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.ctg import engine
from games.ctg.engine.cards import DEFAULT_TASKS, TASK_BONUS, TASK_DECKS
from games.ctg.engine.record import logged_actions
from games.models import Table

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
    custom = table.plugin.board_context(table, state, viewer)
    if custom is not None:
        return custom
    view = engine.view(state, viewer) if viewer is not None else engine.public_view(state)
    seats = list(table.seats.all())
    # The engine's names for what it parses, the seats' names in the viewer's language to show.
    shown = {seat.name: seat.display_name for seat in seats}
    names = [shown.get(name, name) for name in view["players"]]
    players = []
    for position, seat in enumerate(seats):
        sets = [
            {**card(s["type"]), "size": s["size"]}
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
    hand = [
        card(v) | {"count": c}
        for v, c in sorted((view.get("hand") or {}).items(), key=lambda kv: int(kv[0]))
    ]
    logged = logged_actions(state)
    # Joined here rather than looped in the template: the log is the longest part of a push.
    log = format_html_join(
        "",
        "<li>{}</li>",
        (
            (describe(names[seat], engine.action_parts(action, names)),)
            for _, seat, action in reversed(logged[-60:])
        ),
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
        "choices": _choices(view, shown) if viewer is not None else None,
        "decider_name": names[view["decider"]] if view["decider"] is not None else None,
        "decider_is_ai": view["decider"] is not None and players[view["decider"]]["is_ai"],
        "bury": bury
        and {"owner": names[bury["seat"]], **card(bury["type"]), "count": bury["count"]},
        "round_scores": [
            {"round": i + 1, "scores": r["scores"], "ended_by": r["ended_by"]}
            for i, r in enumerate(view["round_scores"])
        ],
        "log": log,
        "log_length": len(logged),
    }


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
    with _cache_lock:
        html = _cache.get(key)
    if html is None:
        html = render_to_string("games/table.html#players", {"players": players})
        with _cache_lock:
            _cache[key] = html
    return html


_cache: OrderedDict[tuple, str] = OrderedDict()
_cache_lock = threading.Lock()
CACHE_SIZE = 512


def cached_board(identity: tuple, version: int, status: str, viewer: int | None, language: str):
    """A render already made for this view, or None; cheap enough to call from async code."""
    with _cache_lock:
        return _cache.get((identity, version, status, viewer, language))


def render_board(
    table: Table, viewer: int | None, language: str, request=None, oob: bool = False
) -> str:
    """The #board fragment for one viewer; rendered once per (version, view, language).

    A page request renders afresh (its forms carry the request's CSRF token, which must
    not reach anyone else through the cache); pushes share the cached render. `oob`: the
    board rides along an answer aimed elsewhere, and htmx swaps it by its id.
    """
    if request is not None:
        context = board_context(table, table.state(), viewer) | {"oob": oob}
        return render_to_string(table.plugin.board_template, context, request=request)
    if table.plugin.live(table):
        # Changes with time alone: a render keyed by version would soon be out of date.
        with translation.override(language):
            context = board_context(table, table.state(), viewer)
            return render_to_string(table.plugin.board_template, context)
    key = (table.identity, table.version, table.status, viewer, language)
    html = cached_board(*key)
    if html is not None:
        return html
    with translation.override(language):
        html = render_to_string(
            table.plugin.board_template, board_context(table, table.state(), viewer)
        )
    with _cache_lock:
        _cache[key] = html
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return html
