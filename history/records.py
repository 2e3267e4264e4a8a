"""Import of ctg-record/1 documents: validated by the engine, stored whole or not at all.

An imported game becomes a finished online Table (status finished, record, result, unrated)
and is announced like any finished game (``games.signals.game_finished``), so it gets its
PlayedGame. Seats: a record name equal to
the importer's username is linked to the importer; every other name stays a name. The
tables app only knows people and AI players, so those seats are stored as non-person seats
(``ai_level = "import"``) named as in the record; no other account is ever linked, so nobody
can put games into someone else's history.
"""

from __future__ import annotations

import json
import unicodedata

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.ctg import engine
from games.ctg.game import CALL_TO_GLORY
from games.models import Seat, Table
from games.signals import game_finished

IMPORTED = "import"


class ImportRefused(Exception):
    """A record that cannot be imported; ``message`` says why, in the engine's words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def parse(text: str) -> dict:
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ImportRefused(_("This is not JSON: %(error)s") % {"error": error}) from None
    if not isinstance(record, dict):
        raise ImportRefused(_("A record is a JSON object."))
    return record


def check(record: dict) -> engine.State:
    """Replay the record; refuse it with the engine's message when it breaks a rule."""
    try:
        state = engine.from_record(record)
    except engine.IllegalAction as error:
        raise ImportRefused(
            _("Round %(round)s, action %(index)s (%(action)s) breaks a rule: %(rule)s")
            % {
                "round": error.round,
                "index": error.index,
                "action": error.action,
                "rule": error.message,
            }
        ) from None
    except engine.RecordError as error:
        raise ImportRefused(_("The record is malformed: %(error)s") % {"error": error}) from None
    if not state.game_over:
        raise ImportRefused(_("The record stops before the game is over."))
    check_names(state.names)
    return state


def check_names(names) -> None:
    """Names the rules allow but a seat cannot store: too long, control or broken characters."""
    limit: int = Seat._meta.get_field("name").max_length or 40
    for number, name in enumerate(names, 1):
        # Cc: NUL and other control characters; Cs: a lone surrogate from a "\ud800" escape.
        if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
            raise ImportRefused(
                _("The name of player %(number)d contains a control character or a broken one.")
                % {"number": number}
            )
        if len(name) > limit:
            raise ImportRefused(
                _("The name of player %(number)d is longer than %(limit)d characters.")
                % {"number": number, "limit": limit}
            )


@transaction.atomic
def import_record(record: dict, importer) -> Table:
    state = check(record)
    result = engine.result(state)
    names = list(state.names)
    options = state.options
    now = timezone.now()
    table = Table.objects.create(
        host=importer,
        visibility=Table.PUBLIC,
        seats_count=len(names),
        options={
            "rounds": options.rounds,
            "imperial_tasks": "imperial-tasks" in options.variants,
            "ninja": "ninja" in options.variants,
        },
        rated=False,
        status=Table.FINISHED,
        record=engine.to_record(state),
        result=result,
        started=now,
        finished=now,
    )
    for position, name in enumerate(names):
        mine = name == importer.username
        Seat.objects.create(
            table=table,
            position=position,
            user=importer if mine else None,
            ai_level="" if mine else IMPORTED,
            name=name,
        )
    # Recorded like a game finished here, by whoever keeps results.
    game_finished.send(sender=Table, table=table, result=CALL_TO_GLORY.result(table, state))
    return table
