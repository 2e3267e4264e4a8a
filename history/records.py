"""Import of game records (ctg-record/1, orc-record/1, any hosted game's `Records.format`):
checked by the game's engine, stored whole or not at all.

The game whose format a record names reads it (`Records.import_record`) and says what it
becomes; history stores that, the same way for every game:

- a finished online Table (status finished, record, result, unrated; Call to Glory's), which
  is announced like any finished game (``games.signals.game_finished``), so it gets its
  PlayedGame. Seats: a record name equal to the importer's username is linked to the
  importer; every other name stays a name. The tables app only knows people and AI players,
  so those seats are stored as non-person seats (``ai_level = "import"``) named as in the
  record;
- or a played game directly (unrated, with what the game keeps of it in
  ``PlayedGame.result``: De l'Orc's round entries, record and result), its players linked
  the same way.

No other account is ever linked, so nobody can put games into someone else's history.

Any game's records share the rest: an imported game's ``PlayedGame.external_ref`` is
``import:`` and a hash of its record as its game keeps it (``content_ref``), so a record
imported twice is stored once (``already_imported``), and pages and the API tell imported
games apart (``is_imported``). A record may carry its date as ``played_at`` (ISO 8601),
taken off before the game reads the record; without one the game is dated now.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import registry
from games.models import Seat, Table
from games.registry import Game, ImportedRecord, RecordRefused
from games.signals import game_finished
from leagues.models import PlayedGame
from leagues.results import record_result

IMPORTED = "import"
REF_PREFIX = "import:"


def parse(text: str) -> dict:
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordRefused(_("This is not JSON: %(error)s") % {"error": error}) from None
    if not isinstance(record, dict):
        raise RecordRefused(_("A record is a JSON object."))
    return record


def check_names(names) -> None:
    """Names the rules allow but a seat cannot store: too long, control or broken characters."""
    limit: int = Seat._meta.get_field("name").max_length or 40
    for number, name in enumerate(names, 1):
        # Cc: NUL and other control characters; Cs: a lone surrogate from a "\ud800" escape.
        if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
            raise RecordRefused(
                _("The name of player %(number)d contains a control character or a broken one.")
                % {"number": number}
            )
        if len(name) > limit:
            raise RecordRefused(
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
        raise RecordRefused(_("The record's played_at is not a date such as 2026-03-01."))
    if timezone.is_naive(when):
        when = timezone.make_aware(when)
    if when > timezone.now():
        raise RecordRefused(_("The record's played_at lies in the future."))
    return when


@dataclass(frozen=True)
class Imported:
    game: PlayedGame
    new: bool  # False: the record was imported before, and this is that game


def import_record(record: dict, importer) -> Imported:
    """Store a finished game's record once; importing it again finds the first game."""
    when = played_at(record)
    game = registry.for_record(record) or _first_with_records()
    assert game.records is not None
    read = game.records.import_record({k: v for k, v in record.items() if k != "played_at"})
    check_names(read.names)
    ref = content_ref(game.key, read.record)
    existing = already_imported(ref)
    if existing is not None:
        return Imported(existing, new=False)
    try:
        with transaction.atomic():
            if read.table_options is None:
                played = _store_played(game, read, importer, when, ref)
            else:
                table = _store_table(game, read, importer, when)
                # The result was recorded as the table finished: make it the record's game.
                PlayedGame.objects.filter(table=table).update(external_ref=ref)
                played = PlayedGame.objects.get(table=table)
    except IntegrityError:
        # The same record, imported at the same moment by another request.
        return Imported(PlayedGame.objects.get(external_ref=ref), new=False)
    return Imported(played, new=True)


def _first_with_records() -> Game:
    """Who reads a record naming no hosted game's format: the site's first game with
    records, whose engine says what is wrong with it."""
    return next(game for game in registry.all_games().values() if game.records is not None)


def _store_table(game: Game, read: ImportedRecord, importer, when: datetime) -> Table:
    table = Table.objects.create(
        game=game.key,
        host=importer,
        visibility=Table.PUBLIC,
        seats_count=len(read.names),
        options=read.table_options,
        rated=False,
        status=Table.FINISHED,
        record=read.record,
        result=read.result.record,
        started=when,
        finished=when,
    )
    for position, name in enumerate(read.names):
        mine = name == importer.username
        Seat.objects.create(
            table=table,
            position=position,
            user=importer if mine else None,
            ai_level="" if mine else IMPORTED,
            name=name,
        )
    # Recorded like a game finished here, by whoever keeps results.
    game_finished.send(sender=Table, table=table, result=read.result)
    return table


def _store_played(
    game: Game, read: ImportedRecord, importer, when: datetime, ref: str
) -> PlayedGame:
    result = read.result
    return record_result(
        result,
        players=[importer if name == importer.username else name for name in read.names],
        played_at=when,
        rated=False,
        external_ref=ref,
        game=game.key,
    )
