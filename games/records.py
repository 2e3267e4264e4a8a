"""What Call to Glory's and De l'Orc's records share: each round keeps its actions as lines
of notation, and each engine replays a record the same way (`from_record`, refusing with
`IllegalAction` or `RecordError`). Their replays cut records here, and their imports check
them here; a game whose records look otherwise needs none of it.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext as _

from games.registry import RecordRefused


def action_lines(record: dict[str, Any]) -> list[tuple[int, str]]:
    """Every action of a record as (round index, text), in order."""
    return [
        (r, line)
        for r, rnd in enumerate(record.get("rounds", []))
        for line in rnd.get("actions", [])
    ]


def first_actions(record: dict[str, Any], lines: list[tuple[int, str]], count: int) -> dict:
    """The record cut after its first ``count`` actions (``lines``: its `action_lines`)."""
    truncated = copy.deepcopy(record)
    last_round = lines[count - 1][0] if count else 0
    kept = truncated["rounds"][: last_round + 1]
    for rnd in kept:
        rnd["actions"] = []
    for r, line in lines[:count]:
        kept[r]["actions"].append(line)
    truncated["rounds"] = kept
    return truncated


def replayed(rules: Any, record: dict[str, Any]) -> Any:
    """A finished game's position, the record replayed by a game's engine (`rules`, its
    package); refused with the engine's message when it breaks a rule."""
    try:
        state = rules.from_record(record)
    except rules.IllegalAction as error:
        raise RecordRefused(
            _("Round %(round)s, action %(index)s (%(action)s) breaks a rule: %(rule)s")
            % {
                "round": error.round,
                "index": error.index,
                "action": error.action,
                "rule": error.message,
            }
        ) from None
    except rules.RecordError as error:
        raise RecordRefused(_("The record is malformed: %(error)s") % {"error": error}) from None
    if not state.game_over:
        raise RecordRefused(_("The record stops before the game is over."))
    return state
