"""Everything a page or a push shows of a table, drawn by its game (`Game.board_template`,
`Game.board_context`: Call to Glory's in games/ctg/board.py, De l'Orc's in games/orc/board.py)
and cached here.

A viewer is a seat position, or None for a spectator. Renders are cached per process by
(table, version, viewer, language): however many sockets share a view, it is drawn once.
A push carries the views drawn where its move was saved (`push_boards`), so the web
processes that hold the sockets need not draw them again.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games.models import Table


def clock_text(deadline) -> str:
    """Time left to a deadline as the page's live clock counts it: 1:05, 0:09, 1:02:03."""
    if deadline is None:
        return ""
    left = max(0, round((deadline - timezone.now()).total_seconds()))
    hours, minutes, seconds = left // 3600, left % 3600 // 60, left % 60
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def pause_context(table: Table, seats: list, viewer: int | None) -> dict | None:
    """A table's pause (a round's end, a game's own moment): when it ends, who still looks at
    it, and whether the viewer is one of them and may continue."""
    if table.pause_until is None:
        return None
    people = [s for s in seats if s.user_id and not s.left]
    return {
        "until": table.pause_until,
        "left": clock_text(table.pause_until),
        "waiting": [s.display_name for s in people if s.position not in table.continued],
        "mine": any(s.position == viewer and s.position not in table.continued for s in people),
    }


PLACES = {
    1: pgettext_lazy("place", "1st"),
    2: pgettext_lazy("place", "2nd"),
    3: pgettext_lazy("place", "3rd"),
    4: pgettext_lazy("place", "4th"),
    5: pgettext_lazy("place", "5th"),
    6: pgettext_lazy("place", "6th"),
    7: pgettext_lazy("place", "7th"),
}


def standing(places: list[int], viewer: int | None, names: list[str]) -> str:
    """The result in one line: "You won", who won and "You placed 2nd of 4", or who won.
    `places` and `names` (as the page shows them) seat by seat."""
    first = [seat for seat, place in enumerate(places) if place == 1]
    winners = won([names[seat] for seat in first])
    if viewer is None:
        return winners
    place = places[viewer]
    if place == 1:
        if len(first) == 1:
            return _("You won!")
        others = ", ".join(names[seat] for seat in first if seat != viewer)
        return _("You share first place with %(names)s!") % {"names": others}
    # Two sentences, each whole in every language.
    placed = _("You placed %(place)s of %(n)d.") % {"place": PLACES[place], "n": len(names)}
    return f"{winners} {placed}"


def won(winners: list[str]) -> str:
    """Who won, by name: "Bob won.", "Ann, Bob share first place."."""
    return ngettext("%(names)s won.", "%(names)s share first place.", len(winners)) % {
        "names": ", ".join(winners)
    }


_cache: OrderedDict[tuple, Any] = OrderedDict()
_cache_lock = threading.Lock()
CACHE_SIZE = 512


def cached[T](key: tuple, render: Callable[[], T]) -> T:
    """The render kept under `key`, made by `render` the first time."""
    with _cache_lock:
        html = _cache.get(key)
    if html is None:
        html = render()
        with _cache_lock:
            _cache[key] = html
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return html


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
    game = table.plugin
    if request is not None:
        context = game.board_context(table, table.state(), viewer) | {"oob": oob}
        return render_to_string(game.board_template, context, request=request)

    def render() -> str:
        with translation.override(language):
            context = game.board_context(table, table.state(), viewer)
            return render_to_string(game.board_template, context)

    if game.realtime is not None and game.realtime.live(table):
        # Changes with time alone: a render keyed by version would soon be out of date.
        return render()
    return cached((table.identity, table.version, table.board_state, viewer, language), render)


def board_key(viewer: int | None, language: str) -> str:
    """A view's name in a push's `boards`."""
    return f"{'-' if viewer is None else viewer}:{language}"


def push_boards(table: Table, languages: dict[int | None, set[str]]) -> dict[str, str]:
    """The boards a push carries, drawn once where the move was saved rather than on every
    web process that has a socket at the table: for each viewer (a seat, or None for the
    public view), in the given languages. A socket takes the one for its own viewer as the
    push's seats name it; any other view it renders itself. None for a position that
    changes with time alone."""
    realtime = table.plugin.realtime
    if table.record is None or (realtime is not None and realtime.live(table)):
        return {}
    return {
        board_key(viewer, language): render_board(table, viewer, language)
        for viewer, spoken in languages.items()
        for language in spoken
    }
