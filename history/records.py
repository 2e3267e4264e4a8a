"""Import of game records (ctg-record/1, orc-record/1): validated by the game's engine, stored
whole or not at all.

An orc-record/1 becomes a played game of De l'Orc directly (unrated, with its round entries,
its record and the engine's result in ``PlayedGame.result``); its ``played_at`` is the site's
own field, taken off before the engine (which allows no other fields) reads the record.

A ctg-record/1 becomes a finished online Table (status finished, record, result, unrated)
and is announced like any finished game (``games.signals.game_finished``), so it gets its
PlayedGame. Seats: a record name equal to
the importer's username is linked to the importer; every other name stays a name. The
tables app only knows people and AI players, so those seats are stored as non-person seats
(``ai_level = "import"``) named as in the record; no other account is ever linked, so nobody
can put games into someone else's history.

Any game's records share the rest: an imported game's ``PlayedGame.external_ref`` is
``import:`` and a hash of its record (``content_ref``), so a record imported twice is stored
once (``already_imported``), and pages and the API tell imported games apart (``is_imported``).
A record may carry its date as ``played_at`` (ISO 8601); without one the game is dated now.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.ctg import engine
from games.ctg.game import CALL_TO_GLORY
from games.models import Seat, Table
from games.orc import engine as orc_engine
from games.orc import pad as orc_pad
from games.orc.engine.record import FORMAT as ORC_FORMAT
from games.orc.game import DE_L_ORC
from games.signals import game_finished
from leagues.actions import record_result
from leagues.models import PlayedGame

IMPORTED = "import"
REF_PREFIX = "import:"


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


def check(record: dict, rules: Any = engine) -> Any:
    """Replay the record with a game's engine (`rules`, Call to Glory's by default); refuse it
    with the engine's message when it breaks a rule."""
    try:
        state = rules.from_record(record)
    except rules.IllegalAction as error:
        raise ImportRefused(
            _("Round %(round)s, action %(index)s (%(action)s) breaks a rule: %(rule)s")
            % {
                "round": error.round,
                "index": error.index,
                "action": error.action,
                "rule": error.message,
            }
        ) from None
    except rules.RecordError as error:
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


def content_ref(game: str, record: dict) -> str:
    """The external_ref of an imported game: the same game's record always gives the same."""
    canonical = json.dumps([game, record], sort_keys=True, separators=(",", ":"))
    return REF_PREFIX + hashlib.sha256(canonical.encode()).hexdigest()


def is_imported(game: PlayedGame) -> bool:
    return game.external_ref.startswith(REF_PREFIX)


def already_imported(ref: str) -> PlayedGame | None:
    return PlayedGame.objects.filter(external_ref=ref).first()


def played_at(record: dict) -> datetime:
    """The record's own date (``played_at``), or now when it has none."""
    raw = record.get("played_at")
    if raw is None:
        return timezone.now()
    try:
        when = datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        when = None
    if when is None:
        raise ImportRefused(_("The record's played_at is not a date such as 2026-03-01."))
    if timezone.is_naive(when):
        when = timezone.make_aware(when)
    if when > timezone.now():
        raise ImportRefused(_("The record's played_at lies in the future."))
    return when


@dataclass(frozen=True)
class Imported:
    game: PlayedGame
    new: bool  # False: the record was imported before, and this is that game


def import_record(record: dict, importer) -> Imported:
    """Store a finished game's record once; importing it again finds the first game."""
    state = check(record)
    when = played_at(record)
    ref = content_ref(CALL_TO_GLORY.key, engine.to_record(state))
    existing = already_imported(ref)
    if existing is not None:
        return Imported(existing, new=False)
    try:
        with transaction.atomic():
            table = _store(state, importer, when)
            # The result was recorded as the table finished: make it the record's game.
            PlayedGame.objects.filter(table=table).update(external_ref=ref)
    except IntegrityError:
        # The same record, imported at the same moment by another request.
        return Imported(PlayedGame.objects.get(external_ref=ref), new=False)
    return Imported(PlayedGame.objects.get(table=table), new=True)


def _store(state: engine.State, importer, when: datetime) -> Table:
    result = engine.result(state)
    names = list(state.names)
    options = state.options
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
        started=when,
        finished=when,
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


def import_any(record: dict, importer) -> Imported:
    """Import a record of any hosted game, once."""
    if record.get("format") == ORC_FORMAT:
        return import_orc(record, importer)
    return import_record(record, importer)


def import_orc(record: dict, importer) -> Imported:
    when = played_at(record)
    state = check({k: v for k, v in record.items() if k != "played_at"}, orc_engine)
    kept = orc_engine.to_record(state)
    ref = content_ref(DE_L_ORC.key, kept)
    existing = already_imported(ref)
    if existing is not None:
        return Imported(existing, new=False)
    result = orc_engine.result(state)
    names = list(state.names)
    try:
        with transaction.atomic():
            game = record_result(
                players=[importer if name == importer.username else name for name in names],
                round_scores=[[r["scores"][name] for r in result["rounds"]] for name in names],
                placings=[result["placings"][name] for name in names],
                played_at=when,
                rated=False,
                external_ref=ref,
                game=DE_L_ORC.key,
                result={
                    "pad": orc_pad.from_result(result, names),
                    "record": kept,
                    "result": result,
                },
            )
    except IntegrityError:
        # The same record, imported at the same moment by another request.
        return Imported(PlayedGame.objects.get(external_ref=ref), new=False)
    return Imported(game, new=True)
