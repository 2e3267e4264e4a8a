"""The one door for writes to tables: lock the row, ask the engine, save, then tell others.

Every move goes through `play`: it locks the table, checks the version the player saw,
validates the action against the engine, appends it (and any forced follow-ups) to the
record and bumps the version in one transaction. Broadcasts, AI moves and clock checks are
sent only after that transaction commits.
"""

import random
import time
from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import presence
from games import registry
from games.access import seated
from games.groups import LOBBY_GROUP, player_group, table_group
from games.models import ChatMessage, Seat, Table
from games.registry import MoveRefused
from games.rendering import push_boards
from games.signals import game_finished
from infra.background import after_commit, enqueue, group_send


class Refused(Exception):
    """A request the table cannot take; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


class _Event:
    """The event that opened a managed table (a tournament round), named where a host would
    be: it alone seats, starts and cancels the table."""

    pk = None

    def __repr__(self) -> str:
        return "EVENT"


EVENT = _Event()


def _event_table() -> Refused:
    return Refused(
        _(
            "At a tournament table, the tournament's organisers seat the players, start and "
            "cancel the game."
        ),
        403,
        "event-table",
    )


def _event_only(table: Table, by) -> None:
    """Refuse what only the EVENT that holds a managed table may do."""
    if not table.managed or by is not EVENT:
        raise _event_table()


def _host_only(table: Table, user, message: str) -> None:
    """Refuse `user` what only the host may do; at a managed table only its event may."""
    if table.managed:
        if user is not EVENT:
            raise _event_table()
    elif user is EVENT or table.host_id != user.pk:
        raise Refused(message, 403, "not-host")


def _broadcast(table: Table, lobby: bool, players: list[int]) -> None:
    saved = time.time()
    table_id, stamp = table.identity
    # The seats as committed, read now: each socket shows its own user's seat in them, never
    # the seat it had when it opened. The boards it carries are drawn in the site's language
    # and in each seated person's own, for his seat.
    people = seated(table_id)
    languages: dict[int | None, set[str]] = {None: {settings.LANGUAGE_CODE}}
    for _user, position, language in people:
        languages[position] = {settings.LANGUAGE_CODE, language or settings.LANGUAGE_CODE}
    message = {
        "type": "table.changed",
        "version": table.version,
        "status": table.board_state,
        "stamp": stamp,
        "public": table.visibility == Table.PUBLIC,
        "seats": {str(user): position for user, position, _ in people},
        # Drawn once here for the sockets at the table; with none open (a game nobody
        # watches) a socket that opens meanwhile draws its own.
        "boards": push_boards(table, languages) if presence.watched(table_group(table_id)) else {},
        # When the change was saved, for whoever measures how long a push takes to arrive.
        "saved": saved,
    }
    groups = [LOBBY_GROUP] if lobby else [player_group(user_id) for user_id in players]
    group_send(
        (table_group(table_id), message), *[(group, {"type": "lobby.changed"}) for group in groups]
    )


def _after_commit(
    table: Table,
    state: object | None = None,
    lobby: bool = True,
    full: bool = False,
) -> None:
    """Set the next AI move or clock check going, and tell viewers, once this commits.

    The lobby hears of seats, starts and ends; of other moves only the players' own lobby
    sockets hear (their "Your move" badges). A real-time move (a slap in De l'Orc's deal) is
    pushed as the small update its game makes of it, unless `full`.

    The game's next step is queued before the push: a push that fails or waits on Redis
    never holds up the game, and neither can fail the request (infra.background). A push
    overtaken by a later move is harmless: a socket renders the table as it is.
    """
    table_id, version = table.pk, table.version
    players = [] if lobby else [s.user_id for s in table.seats.all() if s.user_id and not s.left]
    small = None
    if state is not None and table.status == Table.RUNNING:
        small = _set_next_going(table, state)
    if small is not None and not full:
        after_commit(
            f"the update of table {table_id} at version {version}",
            lambda: group_send((table_group(table_id), small)),
        )
        return
    after_commit(
        f"the push of table {table_id} at version {version}",
        lambda: _broadcast(table, lobby, players),
    )


def push_board(table: Table) -> None:
    """Push the whole board of a table to its viewers now (no move: a dealer taking over)."""
    _broadcast(table, False, [])


def send_to_table(table_id: int, message: dict) -> None:
    """Send a game's own small push (`Game.realtime`'s, "type": "table.update") to the
    table's group now, from a thread of the game's that runs outside any request."""
    group_send((table_group(table_id), message))


def _set_next_going(table: Table, state: object) -> dict | None:
    """Queue what the position waits for; a real-time step may return its small push."""
    from games import tasks

    table_id, version = table.pk, table.version
    if table.pause_until is not None:
        # Nobody decides while the players look at the round's end.
        seconds = (table.pause_until - timezone.now()).total_seconds()
        enqueue(tasks.end_pause, table_id, version, countdown=max(seconds, 0) + 0.5)
        return None
    position = table.plugin.decider(state)
    if position is None:
        # A real-time step (De l'Orc's deal): everyone may act, the game runs it.
        realtime = table.plugin.realtime
        return realtime.set_going(table, state) if realtime is not None else None
    seat = _seat_at(table, position)
    if seat.is_ai or seat.left:
        tasks.queue_ai_move(table_id, version)
        return None
    if table.deadline is not None:
        seconds = (table.deadline - timezone.now()).total_seconds()
        if seconds < settings.LONGEST_COUNTDOWN:
            enqueue(tasks.clock_check, table_id, version, countdown=seconds + 0.5)
    return None


def _locked(table_id: int) -> Table:
    """The table, locked for this transaction, with its seats at hand."""
    return Table.objects.select_for_update().prefetch_related("seats").get(pk=table_id)


def _decider(table: Table, state: object) -> int:
    """The seat a running game waits for (a running game always waits for someone)."""
    seat = table.plugin.decider(state)
    assert seat is not None, "a running game waits for a decision"
    return seat


def _seat_at(table: Table, position: int) -> Seat:
    return next(seat for seat in table.seats.all() if seat.position == position)


def _humans_left(table: Table) -> bool:
    return any(seat.user_id and not seat.left for seat in table.seats.all())


def _set_left(seat: Seat, forfeited: bool = False) -> None:
    # On the prefetched object, so later checks in the same transaction see it.
    seat.left, seat.forfeited = True, forfeited or seat.forfeited
    seat.save(update_fields=["left", "forfeited"])


# ----------------------------------------------------------------------------- lobby


@transaction.atomic
def create_table(host, *, club=None, game: str = "", options=None, **settings) -> Table:
    """Open a table of a registered game (the site's first by default); ``options`` are the
    game's own (Game.clean_options: ValueError for options it does not take), ``settings``
    the site's (seats, visibility, clock ...). The game's rules for both are checked here,
    not by the database: its constraints hold for every game."""
    table = _new_table(host, club=club, game=game, options=options, **settings)
    _after_commit(table)
    return table


def _new_table(host, *, club=None, game: str = "", options=None, **settings) -> Table:
    plugin = registry.get(game) if game else registry.first()
    options = plugin.clean_options(options or {})
    seats = settings.get("seats_count", Table._meta.get_field("seats_count").default)
    if seats not in plugin.seats:
        raise ValueError(
            f"{plugin.name} seats {plugin.seats.start} to {plugin.seats.stop - 1} players"
        )
    table = Table.objects.create(host=host, club=club, game=plugin.key, options=options, **settings)
    Seat.objects.create(table=table, position=0, user=host, name=host.username)
    return table


@transaction.atomic
def play_against_ai(user, *, game: str, seats_count: int, level: str) -> Table:
    """One click to a game: `user` against AI players of `level` in every other seat, started
    at once. A public table (others may watch it), unrated and without a clock, as a
    newcomer learning the game wants it; the person sits in the game's `learner_seat`."""
    plugin = registry.get(game)
    if level not in plugin.ai_levels:
        raise Refused(_("There is no such AI player."), 400, "bad-level")
    table = _new_table(
        user,
        game=plugin.key,
        seats_count=seats_count,
        visibility=Table.PUBLIC,
        seat_order=Table.HOST_ORDER,
    )
    table.seats.filter(user=user).update(position=plugin.learner_seat)
    for position in range(seats_count):
        if position != plugin.learner_seat:
            Seat.objects.create(
                table=table,
                position=position,
                ai_level=level,
                name=f"{plugin.ai_name(level)} {position + 1}",
            )
    state = _begin(table, {seat.position: seat for seat in table.seats.all()})
    _after_commit(table, state)
    return table


def _open(table_id: int) -> Table:
    table = _locked(table_id)
    if table.status != Table.OPEN:
        raise Refused(_("This game has already started or is over."), 409, "not-open")
    return table


# What a rematch keeps of the game before it.
REMATCH_SETTINGS = (
    "game",
    "options",
    "club",
    "visibility",
    "seats_count",
    "seat_order",
    "clock",
    "clock_seconds",
    "timeout_policy",
    "rated",
)


@transaction.atomic
def rematch(table_id: int, user) -> Table:
    """The next game of a finished table's players, with its settings and AI players.

    The first player to ask opens it and hosts it; the others asking take its seats.
    """
    table = _locked(table_id)
    if table.status != Table.FINISHED:
        raise Refused(_("A rematch follows a finished game."), 409, "not-finished")
    if not any(seat.user_id == user.pk for seat in table.seats.all()):
        raise Refused(_("Only the players of this game can ask for a rematch."), 403, "not-seated")
    following = table.rematch
    if following is not None and following.seats.filter(user=user).exists():
        return following
    if following is not None and following.status == Table.OPEN:
        take_seat(following.pk, user)
        return following
    if following is not None and following.status != Table.CANCELLED:
        raise Refused(_("The rematch has already started."), 409, "rematch-started")
    following = create_table(user, **{name: getattr(table, name) for name in REMATCH_SETTINGS})
    for seat in table.seats.all():
        if seat.is_ai:
            add_ai(following.pk, user, seat.ai_level)
    table.rematch = following
    table.save(update_fields=["rematch"])
    _after_commit(table, lobby=False)  # the other players' boards offer to join it
    return following


@transaction.atomic
def make_host(table_id: int, user) -> None:
    """A seated person takes over an open table from a host who is missing."""
    table = _open(table_id)
    if table.managed:
        raise _event_table()
    if not any(seat.user_id == user.pk for seat in table.seats.all()):
        raise Refused(_("You are not playing at this table."), 403, "not-seated")
    table.host = user
    table.save(update_fields=["host"])
    _after_commit(table)


def _free_position(table: Table) -> int:
    taken = set(table.seats.values_list("position", flat=True))
    free = [p for p in range(table.seats_count) if p not in taken]
    if not free:
        raise Refused(_("Every seat at this table is taken."), 409, "full")
    return free[0]


@transaction.atomic
def take_seat(table_id: int, user, by=None) -> Seat:
    """`user` sits down, or is seated `by` the EVENT that holds the table (a managed one)."""
    table = _open(table_id)
    if table.managed and by is not EVENT:
        raise _event_table()
    if table.seats.filter(user=user).exists():
        raise Refused(_("You already have a seat at this table."), 409, "seated")
    seat = Seat.objects.create(
        table=table, position=_free_position(table), user=user, name=user.username
    )
    _after_commit(table)
    return seat


@transaction.atomic
def add_ai(table_id: int, host, level: str | None = None, position: int | None = None) -> Seat:
    """The host gives a free seat to an AI player: `position`, or the first free one."""
    table = _open(table_id)
    _host_only(table, host, _("Only the host can give a seat to an AI player."))
    game = table.plugin
    level = level or game.default_ai_level
    if level not in game.ai_levels:
        raise Refused(_("There is no such AI player."), 400, "bad-level")
    if position is None:
        position = _free_position(table)
    elif not 0 <= position < table.seats_count or table.seats.filter(position=position).exists():
        raise Refused(_("This seat is taken."), 409, "taken")
    seat = Seat.objects.create(
        table=table, position=position, ai_level=level, name=f"{game.ai_name(level)} {position + 1}"
    )
    _after_commit(table)
    return seat


@transaction.atomic
def leave_seat(table_id: int, user, position: int | None = None) -> None:
    """A player leaves an open table, or the host (the EVENT of a managed table) removes a
    seat (person or AI)."""
    table = _open(table_id)
    if table.managed or user is EVENT:
        _host_only(table, user, _("Only the host can remove another player."))
    if position is None:
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise Refused(_("You have no seat at this table."), 409, "not-seated")
    else:
        seat = table.seats.filter(position=position).first()
        if seat is None and user is EVENT:
            raise Refused(_("There is no such seat."), 400, "bad-seat")
        if seat is None or (user is not EVENT and user.pk not in (table.host_id, seat.user_id)):
            raise Refused(_("Only the host can remove another player."), 403, "not-host")
    if seat.user_id == table.host_id and not table.managed:
        raise Refused(_("The host cannot leave; cancel the table instead."), 409, "host")
    seat.delete()
    _after_commit(table)


@transaction.atomic
def cancel(table_id: int, user) -> None:
    table = _open(table_id)
    _host_only(table, user, _("Only the host can cancel this table."))
    table.status = Table.CANCELLED
    table.save(update_fields=["status"])
    _after_commit(table)


@transaction.atomic
def move_seat(table_id: int, host, position: int, to: int) -> None:
    """The host swaps two seats (seat order chosen by the host)."""
    table = _open(table_id)
    _host_only(table, host, _("Only the host can change the seat order."))
    if not (0 <= position < table.seats_count and 0 <= to < table.seats_count):
        raise Refused(_("There is no such seat."), 400, "bad-seat")
    seats = {s.position: s for s in table.seats.all()}
    _reposition(table, {position: to, to: position}, seats)
    _after_commit(table)


def _reposition(table: Table, mapping: dict[int, int], seats: dict[int, Seat]) -> None:
    # Two steps: positions are unique per table, so park the moved seats out of the way first.
    moved = [seats[p] for p in mapping if p in seats]
    for seat in moved:
        seat.position += 100
        seat.save(update_fields=["position"])
    for seat in moved:
        seat.position = mapping[seat.position - 100]
        seat.save(update_fields=["position"])


@transaction.atomic
def start(table_id: int, user) -> Table:
    table = _open(table_id)
    _host_only(table, user, _("Only the host can start the game."))
    seats = {s.position: s for s in table.seats.all()}
    if len(seats) != table.seats_count:
        raise Refused(_("The game starts when every seat is taken."), 409, "not-full")
    state = _begin(table, seats)
    _after_commit(table, state)
    return table


def _begin(table: Table, seats: dict[int, Seat]) -> object:
    """Start the game of a table whose every seat is taken; its first position."""
    if table.seat_order == Table.RANDOM_ORDER:
        order = list(range(table.seats_count))
        random.Random(table.seed).shuffle(order)
        _reposition(table, dict(zip(range(table.seats_count), order, strict=True)), seats)
    names = list(table.seats.order_by("position").values_list("name", flat=True))
    state = table.plugin.new_state(table, names)
    _save_state(table, state)
    table.status = Table.RUNNING
    table.started = timezone.now()
    table.save()
    return state


# ----------------------------------------------------------------------------- play


def _save_state(table: Table, state, pauses: int | None = None) -> None:
    """Store the position; `pauses`: the game's pauses behind the position before this move
    (`Game.pauses`), to pause after one."""
    game = table.plugin
    over = game.is_over(state)
    if not over and pauses is not None and game.pauses(state) > pauses and _humans_left(table):
        # Decided before `advance`: a round that begins after the pause waits for its end.
        table.pause_until = timezone.now() + timedelta(seconds=game.pause_seconds(state))
        table.continued = []
    game.advance(table, state)
    table.record = game.dump(state)
    table.version = game.version(state)
    seconds = None if over or table.pause_until else game.deadline_seconds(table, state)
    table.deadline = timezone.now() + timedelta(seconds=seconds) if seconds is not None else None
    if over:
        _finish(table, state)


def _finish(table: Table, state) -> None:
    """The hand-off point: the game's result goes out to whoever keeps results.

    Receivers run inside this transaction, so the result is stored with the final move.
    """
    result = table.plugin.result(table, state)
    table.result = result.record
    table.status = Table.FINISHED
    table.finished = timezone.now()
    game_finished.send(sender=Table, table=table, result=result)


@transaction.atomic
def play(
    table_id: int, seat_position: int | None, text: str, version: int | None, user=None
) -> object:
    """Apply one decision of the seat at `seat_position` (or `user`'s), seen at `version`.

    `version` None: a real-time move (a slap in De l'Orc's deal), made at any moment and
    taken as the position stands when the lock is granted; the lock orders racing moves.
    """
    table = _locked(table_id)
    if user is not None:
        seat = next((s for s in table.seats.all() if s.user_id == user.pk and not s.left), None)
        if seat is None:
            raise Refused(_("You are not playing at this table."), 403, "not-seated")
        seat_position = seat.position
    if table.status != Table.RUNNING:
        raise Refused(_("This game is not running."), 409, "not-running")
    game = table.plugin
    if version is None and (game.realtime is None or not game.realtime.is_realtime(text)):
        raise Refused(_("The move lacks its position."))
    if version is not None and version != table.version:
        raise Refused(_("This move was already played."), 409, "already-played")
    if table.pause_until is not None:
        raise Refused(
            _("The next round starts once every player has seen the end of this one."),
            409,
            "paused",
        )
    state = table.state()
    if seat_position is None:
        raise Refused(_("You are not playing at this table."), 403, "not-seated")
    pauses = game.pauses(state)
    try:
        game.apply(state, text, seat_position)
    except MoveRefused as refused:
        if refused.code == "notation":
            raise Refused(_("That is not a move: %(error)s") % {"error": refused.message}) from None
        raise Refused(refused.message, 400, refused.code) from None
    _save_state(table, state, pauses)
    table.save()
    _after_commit(table, state, lobby=table.status != Table.RUNNING)
    return state


def play_for(table_id: int, user, text: str, version: int | None) -> object:
    return play(table_id, None, text, version, user=user)


@transaction.atomic
def catch_up(table_id: int) -> bool:
    """Save what the clock alone moved on (the end of De l'Orc's deal): its placing step or
    champion then follows with the table's clock. True when there was something to save."""
    table = _locked(table_id)
    if table.status != Table.RUNNING:
        return False
    state = table.state()
    if table.plugin.version(state) == table.version:
        return False
    _save_state(table, state)
    table.save()
    _after_commit(table, state, lobby=False, full=True)
    return True


@transaction.atomic
def leave_game(table_id: int, user) -> None:
    """A player leaves a running game: the AI plays his seat; with no human left it closes."""
    table = _locked(table_id)
    if table.status != Table.RUNNING:
        raise Refused(_("This game is not running."), 409, "not-running")
    seat = next((s for s in table.seats.all() if s.user_id == user.pk and not s.left), None)
    if seat is None:
        raise Refused(_("You are not playing at this table."), 403, "not-seated")
    _hand_over(table, seat)


def _hand_over(table: Table, seat: Seat) -> None:
    """The AI plays the seat of a person who is out of a running game from now on."""
    _set_left(seat)
    # The position is unchanged; the AI takes over if it is this seat's turn.
    if not _close_if_no_humans(table) and not _resume_if_all_continued(table):
        _after_commit(table, table.state())


@transaction.atomic
def hand_to_ai(table_id: int, by, position: int) -> None:
    """The EVENT of a managed table hands a running game's seat to the AI: its person is out
    of the game, the AI plays on in his place."""
    table = _locked(table_id)
    _event_only(table, by)
    if table.status != Table.RUNNING:
        raise Refused(_("This game is not running."), 409, "not-running")
    seat = next((s for s in table.seats.all() if s.position == position), None)
    if seat is None:
        raise Refused(_("There is no such seat."), 400, "bad-seat")
    if seat.is_ai or seat.left:
        raise Refused(_("An AI player plays this seat already."), 409, "ai-already")
    _hand_over(table, seat)


@transaction.atomic
def adjudicate(table_id: int, by, forfeits: Sequence[int] = ()) -> None:
    """The EVENT of a managed table ends its running game now: each seat scores what it has
    (Game.interim_result), the seats at positions `forfeits` placed after the rest. The game
    closes, and its result is announced as a finished game's is."""
    table = _locked(table_id)
    _event_only(table, by)
    if table.status != Table.RUNNING:
        raise Refused(_("This game is not running."), 409, "not-running")
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    if not set(forfeits) <= {seat.position for seat in seats}:
        raise Refused(_("There is no such seat."), 400, "bad-seat")
    for seat in seats:
        if seat.position in forfeits and not seat.forfeited:
            seat.forfeited = True
            seat.save(update_fields=["forfeited"])
    try:
        result = table.plugin.interim_result(
            table, table.state(), [seat.position in forfeits for seat in seats]
        )
    except NotImplementedError:
        raise Refused(_("This game cannot be ended before its end."), 409, "no-interim") from None
    _close(table)
    # A closed table keeps no result of its own (its game is not over): the announced one is
    # kept by whoever keeps results.
    game_finished.send(sender=Table, table=table, result=result)


@transaction.atomic
def call_off(table_id: int, by) -> None:
    """The EVENT of a managed table calls it off: an open table is cancelled, a running game
    closes without a result. A game already over stays as it is."""
    table = _locked(table_id)
    _event_only(table, by)
    if table.status == Table.OPEN:
        table.status = Table.CANCELLED
        table.save(update_fields=["status", "updated"])
        _after_commit(table)
    elif table.status == Table.RUNNING:
        _close(table)


def _close(table: Table) -> None:
    table.status = Table.CLOSED
    table.finished = timezone.now()
    table.deadline = table.pause_until = None
    table.continued = []
    table.save()
    _after_commit(table)


@transaction.atomic
def continue_round(table_id: int, user, version: int | None = None) -> None:
    """A player has seen the end of the round (the pause at `version`, if given); the next
    begins once every person has."""
    table = _locked(table_id)
    seat = next((s for s in table.seats.all() if s.user_id == user.pk and not s.left), None)
    if seat is None:
        raise Refused(_("You are not playing at this table."), 403, "not-seated")
    if table.pause_until is None or seat.position in table.continued:
        return  # the round has begun already, or a second click: nothing to do
    if version is not None and version != table.version:
        return  # a click on a pause that is over: the one now shown is not seen yet
    table.continued = [*table.continued, seat.position]
    if not _resume_if_all_continued(table):
        table.save(update_fields=["continued", "updated"])
        _after_commit(table, lobby=False)


@transaction.atomic
def end_pause(table_id: int, version: int) -> bool:
    """The time to look at a round's end is up: the next round begins. Safe to run twice."""
    table = _locked(table_id)
    if table.status != Table.RUNNING or table.version != version or table.pause_until is None:
        return False
    if table.pause_until > timezone.now():
        return False
    _resume(table)
    return True


def _resume_if_all_continued(table: Table) -> bool:
    people = [s.position for s in table.seats.all() if s.user_id and not s.left]
    if table.pause_until is None or not set(people) <= set(table.continued):
        return False
    _resume(table)
    return True


def _resume(table: Table) -> None:
    table.pause_until, table.continued = None, []
    state = table.state()
    # What waited for the pause's end goes on (De l'Orc's next deal gets its start).
    table.plugin.advance(table, state)
    seconds = table.plugin.deadline_seconds(table, state)
    table.deadline = timezone.now() + timedelta(seconds=seconds) if seconds is not None else None
    table.save()
    _after_commit(table, state, lobby=False)


def _close_if_no_humans(table: Table) -> bool:
    """Close a game nobody is left to play; True when it was closed."""
    if _humans_left(table):
        return False
    _close(table)
    return True


def _seed(table: Table) -> int:
    return hash((table.seed, table.version))


def _stand_in_move(table: Table, state) -> None:
    """The stand-in plays for an absent person, inside the caller's lock (it is quick)."""
    _ai_move_locked(table, state, _decider(table, state), table.plugin.stand_in_level)


def _ai_move_locked(table: Table, state, seat: int, level: str) -> None:
    game = table.plugin
    pauses = game.pauses(state)
    text = game.ai_move(level, table, state, seat, _seed(table))
    game.apply(state, text, seat)
    _save_state(table, state, pauses)
    table.save()
    _after_commit(table, state, lobby=table.status != Table.RUNNING)


def _ai_seat(table: Table, version: int) -> Seat | None:
    """The seat whose AI decides at `version`, if the table waits for one there."""
    if table.status != Table.RUNNING or table.version != version or table.pause_until:
        return None
    position = table.plugin.decider(table.state())
    if position is None:
        return None
    seat = _seat_at(table, position)
    return seat if seat.is_ai or seat.left else None


def _ai_level(table: Table, seat: Seat, level: str | None, stand_in: bool) -> str:
    game = table.plugin
    return game.stand_in_level if stand_in else level or seat.ai_level or game.stand_in_level


def ai_decision(
    table_id: int, version: int, level: str | None = None, *, stand_in: bool = False
) -> tuple[int, str] | None:
    """The AI's move at `version` as (seat, text), or None when no AI is to decide there;
    `stand_in`: the table's game's quick stand-in level decides, whatever the seat's level.

    Computed without a lock: a search takes up to a second and must not hold the table.
    """
    table = Table.objects.prefetch_related("seats").get(pk=table_id)
    seat = _ai_seat(table, version)
    if seat is None:
        return None
    level = _ai_level(table, seat, level, stand_in)
    started = time.monotonic()
    move = table.plugin.ai_move(level, table, table.state(), seat.position, _seed(table))
    # A test's move that lasts (settings.AI_MOVE_AT_LEAST_SECONDS), not a level's thinking.
    rest = settings.AI_MOVE_AT_LEAST_SECONDS - (time.monotonic() - started)
    if rest > 0 and level not in table.plugin.quick_levels:
        time.sleep(rest)
    return seat.position, move


@transaction.atomic
def _ai_play_quickly(table_id: int, version: int, level: str | None, stand_in: bool) -> bool | None:
    """An AI move of a level that decides in milliseconds, decided and saved under the
    table's lock; None when the seat's level thinks too long to hold the table meanwhile."""
    table = _locked(table_id)
    seat = _ai_seat(table, version)
    if seat is None:
        return False
    level = _ai_level(table, seat, level, stand_in)
    if level not in table.plugin.quick_levels:
        return None
    _ai_move_locked(table, table.state(), seat.position, level)
    return True


def ai_play(
    table_id: int, version: int, level: str | None = None, *, stand_in: bool = False
) -> bool:
    """Play the AI's decision at `version`; a stale or repeated call changes nothing."""
    played = _ai_play_quickly(table_id, version, level, stand_in)
    if played is not None:
        return played
    decision = ai_decision(table_id, version, level, stand_in=stand_in)
    if decision is None:
        return False
    try:
        play(table_id, *decision, version)
    except Refused:
        return False  # the position moved on while the AI thought: drop the stale move
    return True


@transaction.atomic
def time_out(table_id: int, version: int) -> bool:
    """The clock ran out at `version`: the policy moves for the absent player or forfeits him.

    Safe to run twice and early: it acts only if the position is unchanged and past its
    deadline.
    """
    table = _locked(table_id)
    if table.status != Table.RUNNING or table.version != version:
        return False
    if table.deadline is None or table.deadline > timezone.now():
        return False
    state = table.state()
    game = table.plugin
    if game.decider(state) is None:
        # No single seat decides (De l'Orc's placing step): the site plays for the late.
        moves = game.realtime.timeout_moves(table, state) if game.realtime is not None else []
        for seat, text in moves:
            game.apply(state, text, seat)
        _save_state(table, state)
        table.save()
        _after_commit(table, state, lobby=table.status != Table.RUNNING)
        return True
    if table.timeout_policy == Table.FORFEIT:
        _set_left(_seat_at(table, _decider(table, state)), forfeited=True)
        if _close_if_no_humans(table):
            return True
    _stand_in_move(table, state)
    return True


def remind(table_id: int, version: int) -> bool:
    """Email the person whose move it still is at `version`; True when an email went out.

    A wait is seen to once however often this runs: the email goes out only to people who
    want it, and the wait is marked either way.
    """
    table = Table.objects.filter(pk=table_id, version=version).first()
    seat = table.decider_seat() if table is not None else None
    if table is None or seat is None or seat.user is None or seat.left:
        return False
    claimed = Seat.objects.filter(pk=seat.pk).exclude(reminded_version=version)
    if not claimed.update(reminded_version=version):
        return False
    user = seat.user
    if not user.turn_emails or not user.email:
        return False
    with translation.override(user.preferred_language or settings.LANGUAGE_CODE):
        others = [s.name for s in table.seats.all() if s.pk != seat.pk]
        context = {
            "user": user,
            "game": table.plugin.name,
            "others": others,
            "url": settings.SITE_URL + table.get_absolute_url(),
            "settings_url": settings.SITE_URL + reverse("settings"),
        }
        subject = _("%(game)s: your move against %(players)s") % {
            "game": table.plugin.name,
            "players": ", ".join(others),
        }
        send_mail(subject, render_to_string("games/turn_email.txt", context), None, [user.email])
    return True


# ----------------------------------------------------------------------------- table talk

CHAT_PAUSE = timedelta(seconds=1)


@transaction.atomic
def say(table_id: int, user, text: str) -> ChatMessage:
    """A player's line at the table, pushed to everyone watching it."""
    text = " ".join(text.split())
    limit: int = ChatMessage._meta.get_field("text").max_length or 500
    if not text:
        raise Refused(_("Write something first."), 400, "empty")
    if len(text) > limit:
        raise Refused(_("Keep it under %(n)d characters.") % {"n": limit}, 400, "too-long")
    seats = Seat.objects.filter(table_id=table_id, user=user, left=False)
    seat = seats.select_related("table").first()
    if seat is None:
        raise Refused(_("Only the players at this table can write here."), 403, "not-seated")
    recent = ChatMessage.objects.filter(seat=seat, created__gt=timezone.now() - CHAT_PAUSE)
    if recent.exists():
        raise Refused(_("One message a second, please."), 429, "too-fast")
    message = ChatMessage.objects.create(table_id=table_id, seat=seat, text=text)
    html = render_to_string("games/chat.html#pushed", {"chat": [message]})
    event = {"type": "table.chat", "html": html, "public": seat.table.visibility == Table.PUBLIC}
    after_commit(
        f"the chat push of table {table_id}",
        lambda: group_send((table_group(table_id), event)),
    )
    return message
