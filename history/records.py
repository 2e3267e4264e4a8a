"""Import of game records (ctg-record/1, orc-record/1): validated by the game's engine, stored
whole or not at all.

An orc-record/1 becomes a played game of De l'Orc directly (its online tables are not there
yet): source "import", unrated, dated from the record's optional ``"played_at"`` (ISO 8601;
the site's own field, taken off before the engine reads the record) or the import time, and
kept once: ``external_ref`` holds a hash of the record's content (`content_ref`), so the same
record imported twice is the same game.

ctg-record/1:

An imported game becomes a finished online Table (status finished, record, result, unrated)
and is announced like any finished game (``games.signals.game_finished``), so it gets its
PlayedGame. Seats: a record name equal to
the importer's username is linked to the importer; every other name stays a name. The
tables app only knows people and AI players, so those seats are stored as non-person seats
(``ai_level = "import"``) named as in the record; no other account is ever linked, so nobody
can put games into someone else's history.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from datetime import datetime, time

from django.db import transaction
from django.utils import dateparse, timezone
from django.utils.translation import gettext as _

from games.ctg import engine
from games.ctg.game import CALL_TO_GLORY
from games.models import Seat, Table
from games.orc import engine as orc_engine
from games.orc import pad as orc_pad
from games.orc.engine.record import FORMAT as ORC_FORMAT
from games.signals import game_finished
from leagues.actions import record_result
from leagues.models import PlayedGame

IMPORTED = "import"
# The site's own field of an uploaded record: when the game was played.
DATE_FIELD = "played_at"


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
        rounds=options.rounds,
        imperial_tasks="imperial-tasks" in options.variants,
        ninja="ninja" in options.variants,
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


def content_ref(record: dict) -> str:
    """A played game's `external_ref` for an imported record: the same content, the same
    ref (key order and spacing aside), so importing a record twice finds the first game."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return f"import:{hashlib.sha256(text.encode()).hexdigest()}"


def take_date(record: dict) -> tuple[dict, datetime | None]:
    """The record without the site's date field, and that date (None when it has none)."""
    if DATE_FIELD not in record:
        return record, None
    rest = {k: v for k, v in record.items() if k != DATE_FIELD}
    raw = record[DATE_FIELD]
    value = None
    if isinstance(raw, str) and len(raw) <= 40:
        try:
            value = dateparse.parse_datetime(raw)
            if value is None and (day := dateparse.parse_date(raw)) is not None:
                value = datetime.combine(day, time(12))
        except ValueError:
            value = None
    if value is None:
        raise ImportRefused(
            _("%(field)s is not a date: write it as 2026-11-25 or 2026-11-25T20:30.")
            % {"field": DATE_FIELD}
        )
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    if value > timezone.now():
        raise ImportRefused(_("The game's date is in the future."))
    return rest, value


def import_any(record: dict, importer) -> PlayedGame:
    """Import a record of any hosted game; the played game it became."""
    if record.get("format") == ORC_FORMAT:
        return import_orc(record, importer)
    table = import_record(record, importer)
    return PlayedGame.objects.get(table=table)


def check_orc(record: dict) -> orc_engine.State:
    """Replay an orc-record/1; refuse it with the engine's message when it breaks a rule."""
    try:
        state = orc_engine.from_record(record)
    except orc_engine.IllegalAction as error:
        raise ImportRefused(
            _("Round %(round)s, action %(index)s (%(action)s) breaks a rule: %(rule)s")
            % {
                "round": error.round,
                "index": error.index,
                "action": error.action,
                "rule": error.message,
            }
        ) from None
    except orc_engine.RecordError as error:
        raise ImportRefused(_("The record is malformed: %(error)s") % {"error": error}) from None
    if not state.game_over:
        raise ImportRefused(_("The record stops before the game is over."))
    check_names(state.names)
    return state


@transaction.atomic
def import_orc(record: dict, importer) -> PlayedGame:
    record, played_at = take_date(record)
    state = check_orc(record)
    kept = orc_engine.to_record(state)
    ref = content_ref(kept)
    existing = PlayedGame.objects.filter(external_ref=ref).first()
    if existing is not None:
        return existing
    result = orc_engine.result(state)
    names = list(state.names)
    return record_result(
        players=[importer if name == importer.username else name for name in names],
        round_scores=[[r["scores"][name] for r in result["rounds"]] for name in names],
        placings=[result["placings"][name] for name in names],
        played_at=played_at,
        rated=False,
        external_ref=ref,
        source=PlayedGame.IMPORTED,
        game="orc",
        result={"pad": orc_pad.from_result(result, names), "record": kept, "result": result},
    )
