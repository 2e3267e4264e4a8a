"""Running a tournament: load from the ORM, call ``tournaments.pairing``, save what it returns.

Nothing here decides a seating or a ranking; the pure functions do. Writes happen in
transactions and the projector pages are told after commit (``tournaments.live``).
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone, translation

from accounts import presence
from games import actions as games
from games import registry
from games.groups import table_group
from games.models import Table
from infra.background import enqueue
from leagues.models import PlayedGame, PlayedSeat, PlayerRating
from tournaments import live, pairing
from tournaments.models import (
    AbsenteePlace,
    Entry,
    Stage,
    Tournament,
    TournamentRound,
    TournamentSeat,
    TournamentTable,
)

# Seconds before a draw that found too few players checked in is tried again.
RETRY_DRAW_AFTER = 15

# Most placement points a player can take from one table (a win at any table size).
MAX_POINTS_PER_GAME = float(max(points[0] for points in pairing.FAIR_POINTS.values()))

logger = logging.getLogger(__name__)


class NotReady(Exception):
    """The event is not at a point where this step can happen; ``code`` says why, and
    ``table`` names the table's number when one table is the reason."""

    def __init__(self, code: str, table: int | None = None):
        super().__init__(code)
        self.code = code
        self.table = table


# --- setting up --------------------------------------------------------------------------


@transaction.atomic
def create(club, *, name: str, stages: list[dict], **options) -> Tournament:
    """A tournament with its stages in order (each a dict of Stage fields); ValueError for a
    table size its game does not have."""
    tournament = Tournament(
        club=club, name=name, seed=random.SystemRandom().randrange(1, 2**31), **options
    )
    _fits_its_game(tournament)
    tournament.next_round_at = tournament.starts_at if tournament.runs_itself else None
    tournament.save()
    _set_stages(tournament, stages)
    _schedule(tournament)
    return tournament


def change(tournament: Tournament, *, stages: list[dict], **fields) -> None:
    """New settings and stages, while the event is still taking registrations."""
    with transaction.atomic():
        locked = _in_registration(tournament)
        for name, value in fields.items():
            setattr(locked, name, value)
        _fits_its_game(locked)
        locked.next_round_at = locked.starts_at if locked.runs_itself else None
        locked.save()
        locked.stages.all().delete()
        _set_stages(locked, stages)
        _schedule(locked)
        _changed(locked)


def delete(tournament: Tournament) -> None:
    """Call off an event that has not drawn a round; its registrations go with it."""
    with transaction.atomic():
        _in_registration(tournament).delete()


def _fits_its_game(tournament: Tournament) -> None:
    seats = registry.get(tournament.game).seats
    if tournament.max_table not in seats:
        raise ValueError(f"a table of {tournament.game} seats {seats.start} to {seats.stop - 1}")


def _in_registration(tournament: Tournament) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status != Tournament.REGISTRATION:
        raise NotReady("started")
    return locked


def _set_stages(tournament: Tournament, stages: list[dict]) -> None:
    for order, fields in enumerate(stages, start=1):
        Stage.objects.create(tournament=tournament, order=order, **fields)


def reset_projector_link(tournament: Tournament) -> str:
    """A new projector link for the event; screens still showing the old one go blank."""
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(projector_token=token)
        _changed(tournament)
    tournament.projector_token = token
    return token


def register(tournament: Tournament, user, *, checked_in: bool = False) -> Entry:
    """Register (or re-register after dropping out) a player; late arrivals come in here."""
    with transaction.atomic():
        entry, created = Entry.objects.get_or_create(
            tournament=tournament, user=user, defaults={"checked_in": checked_in}
        )
        if not created and (entry.dropped or (checked_in and not entry.checked_in)):
            entry.dropped = False
            entry.checked_in = entry.checked_in or checked_in
            entry.save(update_fields=["dropped", "checked_in"])
        _draw_if_waiting(tournament)
        _changed(tournament)
    return entry


def check_in(tournament: Tournament, user, now=None) -> Entry:
    """A player checks himself in within the event's window, registering on the way while it
    takes registrations; one already drawn comes back this way once marked absent."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not locked.checkin_open(now):
            raise NotReady("check-in-closed")
        entry = Entry.objects.filter(tournament=locked, user=user).first()
        if entry is None and locked.status != Tournament.REGISTRATION:
            raise NotReady("registration-closed")
        if entry is None:
            entry = Entry.objects.create(tournament=locked, user=user, checked_in=True)
        else:
            entry.checked_in, entry.dropped, entry.absent = True, False, False
            entry.save(update_fields=["checked_in", "dropped", "absent"])
        _draw_if_waiting(locked)
        _changed(locked)
    return entry


def set_presence(entry: Entry, *, checked_in: bool | None = None, dropped: bool | None = None):
    """Check a player in or out, or drop them; it counts from the next round drafted."""
    with transaction.atomic():
        if checked_in is not None:
            entry.checked_in = checked_in
            entry.absent = entry.absent and not checked_in
        if dropped is not None:
            entry.dropped = dropped
        entry.save(update_fields=["checked_in", "dropped", "absent"])
        _draw_if_waiting(entry.tournament)
        _changed(entry.tournament)


def active_players(tournament: Tournament) -> list[int]:
    return list(
        tournament.entries.filter(checked_in=True, dropped=False)
        .order_by("id")
        .values_list("user_id", flat=True)
    )


# --- reading an event ----------------------------------------------------------------------


def by_projector_token(token: str) -> Tournament | None:
    """The event whose projector link this is; None for an old (reset) or unknown link."""
    if not token:
        return None
    return Tournament.objects.select_related("club").filter(projector_token=token).first()


def rounds_of(tournament: Tournament) -> list[TournamentRound]:
    """Every round of the event in playing order, with tables and their games loaded."""
    return list(
        TournamentRound.objects.filter(stage__tournament=tournament)
        .select_related("stage")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=TournamentTable.objects.select_related(
                    "game", "online_table"
                ).prefetch_related(
                    "seats",
                    "online_table__seats",
                    Prefetch("game__seats", queryset=PlayedSeat.objects.order_by("seat")),
                    "game__seats__round_scores",
                ),
            )
        )
        .order_by("stage__order", "number")
    )


def table_result(table: TournamentTable) -> pairing.GameResult | None:
    """The confirmed result of a table, by user id; None while it is still being played.

    Every seat of the game counts: its players keep their true places. A seat an AI player
    took (an AI in a no-show's seat, or playing for a player replaced during the game) is a
    stand-in: it takes its place, and stands in no standing.
    """
    game = table.game
    if game is None or game.status != PlayedGame.CONFIRMED:
        return None
    drawn = list(table.seats.all())
    placed = {s.user_id for s in drawn if not s.replaced}
    # Absent players the event places last: behind every seat played, with nothing scored.
    # The AI player in such a seat played for the table's sake and takes no place; the others
    # keep their order.
    absent = {s.position: s.user_id for s in drawn if s.absent}
    seats = [s for s in game.seats.all() if s.seat not in absent]
    last = len(seats) + len(absent)

    def place(seat: PlayedSeat) -> int:
        mine = seat.place or last
        return 1 + sum(1 for other in seats if (other.place or last) < mine)

    people = {s.user_id: s for s in seats if s.user_id is not None and s.user_id in placed}
    behind = len(seats) + 1
    return pairing.GameResult(
        round=table.round.number,
        scores={p: s.total for p, s in people.items()} | dict.fromkeys(absent.values(), 0),
        places={p: place(s) for p, s in people.items()} | dict.fromkeys(absent.values(), behind),
        round_scores={
            p: [r.score + r.bonus for r in s.round_scores.all()] for p, s in people.items()
        }
        | {p: [] for p in absent.values()},
        stand_ins=[(place(s), s.total) for s in seats if s.user_id not in people],
        absent=frozenset(absent.values()),
    )


def round_complete(round_: TournamentRound) -> bool:
    return round_.status == TournamentRound.PLAYING and all(
        table_result(t) is not None for t in round_.tables.all()
    )


def stage_standings(
    stage: Stage, rounds: list[TournamentRound] | None = None
) -> list[pairing.StandingRow]:
    """The stage's standing from its confirmed tables, with the pure tie-breaks."""
    rounds = [r for r in (rounds or rounds_of(stage.tournament)) if r.stage_id == stage.pk]
    seated: list[int] = []
    results = []
    for round_ in rounds:
        for table in round_.tables.all():
            seated.extend(p for p in table.players if p not in seated)
            result = table_result(table)
            if result is not None:
                results.append(result)
    return pairing.standings(results, players=seated)


def qualification(stage: Stage, rows: list[pairing.StandingRow]) -> dict[int, pairing.Mark]:
    """Can-still-qualify marks for the cut into the next stage (empty when no cut follows)."""
    following = stage.tournament.stages.filter(order=stage.order + 1).first()
    if following is None or not following.cut or not rows:
        return {}
    played = stage.rounds_played.filter(status=TournamentRound.PLAYING).count()
    return pairing.qualification_marks(
        {r.player: r.points for r in rows},
        cut=following.cut,
        rounds_left=max(stage.rounds - played, 0),
        max_per_round=MAX_POINTS_PER_GAME,
    )


@dataclass(frozen=True)
class Position:
    """Where the event stands: the stage being played and its latest round (if any)."""

    stage: Stage | None
    round: TournamentRound | None
    rounds: list[TournamentRound]


def position(tournament: Tournament) -> Position:
    rounds = rounds_of(tournament)
    if rounds:
        return Position(rounds[-1].stage, rounds[-1], rounds)
    return Position(tournament.stages.order_by("order").first(), None, rounds)


# --- running rounds --------------------------------------------------------------------------


def next_stage_and_number(tournament: Tournament) -> tuple[Stage, int]:
    """Which round comes next; NotReady when the current one is open or the event is over."""
    where = position(tournament)
    if where.stage is None:
        raise NotReady("no-stages")
    if where.round is None:
        return where.stage, 1
    if not round_complete(where.round):
        raise NotReady("round-open")
    if where.round.number < where.stage.rounds:
        return where.stage, where.round.number + 1
    following = tournament.stages.filter(order=where.stage.order + 1).first()
    if following is None:
        raise NotReady("finished")
    return following, 1


def seating_for(tournament: Tournament, stage: Stage, number: int) -> list[list[int]]:
    """Ask the pure algorithms for the tables of a new round."""
    active = set(active_players(tournament))
    size = tournament.max_table
    game = registry.get(tournament.game)
    rule = pairing.SizeRule(game.seats, game.preferred_seats)
    rounds = rounds_of(tournament)
    if stage.order > 1 and number == 1:
        previous = tournament.stages.get(order=stage.order - 1)
        standing = [r.player for r in stage_standings(previous, rounds) if r.player in active]
        seeds = standing[: stage.cut] if stage.cut else standing
        if stage.kind == Stage.BRACKET:
            return pairing.seed_tables(seeds, max_size=size, rule=rule)
        active = set(seeds)
    else:
        # Later rounds keep the players of the stage (a bracket only those who advanced).
        stage_players = {
            p for r in rounds if r.stage_id == stage.pk for t in r.tables.all() for p in t.players
        }
        if stage.order > 1:
            active &= stage_players
    players = sorted(active)
    if stage.kind == Stage.BRACKET and number > 1:
        last = [r for r in rounds if r.stage_id == stage.pk][-1]
        places: dict[int, int] = {}
        for t in last.tables.all():
            result = table_result(t)
            assert result is not None
            places.update(result.places)
        # A player whose seat an AI player took has no place there: he goes no further.
        tables = [[p for p in t.players if p in active and p in places] for t in last.tables.all()]
        through = pairing.advancing(tables, places, advance=stage.advance)
        return pairing.seed_tables([a.player for a in through], max_size=size, rule=rule)
    if stage.kind == Stage.ROUND_ROBIN:
        schedule = pairing.round_robin(players, table_size=size, rounds=stage.rounds, rule=rule)
        return schedule[(number - 1) % len(schedule)].tables
    past = [t.players for r in rounds for t in r.tables.all()]
    if number == 1 and stage.order == 1:
        if tournament.seeding == Tournament.RANDOM:
            return pairing.seat_first_round(
                players, seeding="random", seed=tournament.seed, max_size=size, rule=rule
            )
        known = dict(
            PlayerRating.objects.filter(game=tournament.game, user__in=players).values_list(
                "user", "mu"
            )
        )
        ratings = {p: known.get(p, 0.0) for p in players}
        return pairing.seat_first_round(players, ratings=ratings, max_size=size, rule=rule)
    standing = [r.player for r in stage_standings(stage, rounds) if r.player in active]
    standing += [p for p in players if p not in standing]  # late arrivals start at the bottom
    return pairing.seat_swiss_round(standing, past, max_size=size, rule=rule)


def draft_round(tournament: Tournament) -> TournamentRound:
    """Seat the next round; its tables stay editable until ``begin_round``."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        stage, number = next_stage_and_number(tournament)
        tables = seating_for(tournament, stage, number)
        round_ = TournamentRound.objects.create(stage=stage, number=number)
        online = tournament.mode == Tournament.ONLINE
        drawn = TournamentTable.objects.bulk_create(
            TournamentTable(round=round_, number=i, online=online)
            for i, _t in enumerate(tables, start=1)
        )
        TournamentSeat.objects.bulk_create(
            TournamentSeat(table=table, position=i, user_id=p)
            for table, players in zip(drawn, tables, strict=True)
            for i, p in enumerate(players)
        )
        if tournament.status == Tournament.REGISTRATION:
            tournament.status = Tournament.RUNNING
            tournament.save(update_fields=["status"])
        _changed(tournament)
    return round_


def swap(round_: TournamentRound, a: int, b: int) -> None:
    """Swap two players of a drafted round (between tables or seats)."""
    with transaction.atomic():
        round_ = TournamentRound.objects.select_for_update().get(pk=round_.pk)
        if round_.status != TournamentRound.DRAFT:
            raise NotReady("round-started")
        seats = {
            s.user_id: s
            for s in TournamentSeat.objects.filter(table__round=round_, user__in=[a, b])
        }
        if len(seats) != 2:
            raise NotReady("not-seated")
        # Both seats go and come back with their players exchanged: rows are never two
        # players at one seat, or one player at two seats of a table, not even for a moment.
        swapped = [
            TournamentSeat(table_id=seats[a].table_id, position=seats[a].position, user_id=b),
            TournamentSeat(table_id=seats[b].table_id, position=seats[b].position, user_id=a),
        ]
        TournamentSeat.objects.filter(pk__in=[s.pk for s in seats.values()]).delete()
        TournamentSeat.objects.bulk_create(swapped)
        _changed(round_.stage.tournament)


def set_online(table: TournamentTable, online: bool) -> None:
    """In a mixed event, choose before the start whether a table plays online."""
    with transaction.atomic():
        round_ = TournamentRound.objects.select_for_update().get(pk=table.round_id)
        if round_.status != TournamentRound.DRAFT:
            raise NotReady("round-started")
        if round_.stage.tournament.mode != Tournament.MIXED:
            raise NotReady("not-mixed")
        TournamentTable.objects.filter(pk=table.pk).update(online=online)
        _changed(round_.stage.tournament)


def begin_round(round_: TournamentRound, by) -> None:
    """Open a score pad per physical table and an online table per online one."""
    tournament = round_.stage.tournament
    with transaction.atomic():
        round_ = TournamentRound.objects.select_for_update().get(pk=round_.pk)
        if round_.status != TournamentRound.DRAFT:
            raise NotReady("round-started")
        seats = TournamentSeat.objects.filter(table__round=round_)
        if seats.exclude(user__memberships__club=tournament.club).exists():
            # Someone drawn for this round has left the club since: the organiser swaps or
            # drops them before the round can begin.
            raise NotReady("player-left")
        tables = list(
            round_.tables.prefetch_related(
                Prefetch("seats", queryset=TournamentSeat.objects.select_related("user"))
            )
        )
        for table in tables:
            players = [seat.user for seat in table.seats.all()]
            if table.online:
                table.online_table = _open_online(tournament, list(table.seats.all()))
            else:
                rules = registry.get(tournament.game)
                game = PlayedGame.objects.create(
                    game=tournament.game,
                    club=tournament.club,
                    source=PlayedGame.PAD,
                    rounds=tournament.rounds_per_game,
                    result=rules.pad.keep([]) if rules.pad is not None else {},
                    options=rules.played_options(tournament.table_options),
                    rated=tournament.rated,
                    created_by=by,
                )
                PlayedSeat.objects.bulk_create(
                    PlayedSeat(game=game, seat=i, user=p) for i, p in enumerate(players)
                )
                table.game = game
            table.save(update_fields=["online_table", "game"])
        round_.status = TournamentRound.PLAYING
        round_.save(update_fields=["status"])
        _changed(tournament)


def _open_online(tournament: Tournament, seats: list[TournamentSeat]) -> Table:
    """An online table of the event for these drawn seats, in their order: their players,
    and an AI player in each seat one took. The event alone seats, starts and ends it."""
    online = games.create_table(
        seats[0].user,
        game=tournament.game,
        club=tournament.club,
        visibility=Table.CLUB,
        seats_count=len(seats),
        options=tournament.table_options,
        rated=tournament.rated,
        seat_order=Table.HOST_ORDER,
        clock=tournament.clock,
        clock_seconds=tournament.clock_seconds,
        timeout_policy=tournament.timeout_policy,
        managed=True,
    )
    for seat in seats[1:]:
        if seat.replaced:
            games.add_ai(online.pk, games.EVENT, position=seat.position)
        else:
            games.take_seat(online.pk, seat.user, by=games.EVENT)
    if seats[0].replaced:
        games.leave_seat(online.pk, games.EVENT, 0)
        games.add_ai(online.pk, games.EVENT, position=0)
    return online


def fill_with_ai(table: TournamentTable, user_id: int) -> None:
    """An AI player takes a player's seat at an online table, when the event allows it: a
    no-show's before the game, or during it the seat of one who cannot play on.

    The player stays drawn at the table, replaced: he takes no place there. Whether he drops
    out of the event is the organiser's separate choice.
    """
    tournament = table.round.stage.tournament
    if not tournament.allow_ai:
        raise NotReady("no-ai")
    _replace(table, user_id, absent=False)


def mark_absent(table: TournamentTable, user_id: int) -> bool:
    """A player away from his running table (never opened, or left): an AI player plays his
    seat for the table's sake, he scores as the event says for an absent player, and is not
    drawn again until he checks in again. False when it was done already."""
    tournament = table.round.stage.tournament
    try:
        last = tournament.absentee_place == AbsenteePlace.LAST
        _replace(table, user_id, absent=last, away=True)
    except NotReady:
        return False
    Entry.objects.filter(tournament=tournament, user_id=user_id).update(
        checked_in=False, absent=True
    )
    return True


def _replace(table: TournamentTable, user_id: int, *, absent: bool, away: bool = False) -> None:
    """`absent`: he takes the last place; `away`: he is gone (not the organiser's choice)."""
    tournament = table.round.stage.tournament
    with transaction.atomic():
        table = TournamentTable.objects.select_for_update().get(pk=table.pk)
        seat = _drawn_seat(table, user_id)
        online = _online(table, Table.OPEN, Table.RUNNING)
        # An organiser keeps a player at each table; an absent one is replaced all the same.
        others = table.seats.filter(replaced=False).exclude(pk=seat.pk)
        if not away and not others.exists():
            raise NotReady("last-player")
        # His seat at the online table, unless a player hosting it removed him before
        # tournament tables were the event's.
        taken = online.seats.filter(user_id=user_id).first()
        try:
            if online.status == Table.RUNNING and away and not others.exists():
                # The last person at the table is gone: a table of AI players alone would
                # close without a result, so it ends here with its scores so far.
                games.adjudicate(online.pk, games.EVENT, [])
            elif online.status == Table.RUNNING:
                if taken is not None:
                    games.hand_to_ai(online.pk, games.EVENT, taken.position)
            else:
                if taken is not None:
                    games.leave_seat(online.pk, games.EVENT, taken.position)
                if online.seats.count() < online.seats_count:
                    at = taken.position if taken else None
                    games.add_ai(online.pk, games.EVENT, position=at)
        except games.Refused as refused:
            raise NotReady(refused.code, table.number) from None
        seat.replaced = True
        seat.absent = absent
        seat.save(update_fields=["replaced", "absent"])
        _changed(tournament)


def adjudicate(table: TournamentTable, forfeit: int | None = None) -> None:
    """The organiser ends a table's running game now, with the scores its seats have, the
    player `forfeit` (a user id) placed last; its result counts like a finished game's."""
    tournament = table.round.stage.tournament
    with transaction.atomic():
        table = TournamentTable.objects.select_for_update().get(pk=table.pk)
        online = _online(table, Table.RUNNING)
        forfeits = []
        if forfeit:
            seat = online.seats.filter(user_id=forfeit).first()
            if seat is None:
                raise NotReady("not-at-table", table.number)
            forfeits.append(seat.position)
        try:
            games.adjudicate(online.pk, games.EVENT, forfeits)
        except games.Refused as refused:
            raise NotReady(refused.code, table.number) from None
        _changed(tournament)


def restart(table: TournamentTable) -> None:
    """A table that broke (its game called off, closed, or stuck) starts again: a new online
    table for its drawn seats, AI players in the seats they took; the old game ends without
    a result."""
    tournament = table.round.stage.tournament
    with transaction.atomic():
        table = TournamentTable.objects.select_for_update().get(pk=table.pk)
        if not table.online or table.online_table_id is None:
            raise NotReady("not-online", table.number)
        if table.game_id is not None:
            raise NotReady("game-over", table.number)
        old = _online(table, Table.OPEN, Table.RUNNING, Table.CANCELLED, Table.CLOSED)
        games.call_off(old.pk, games.EVENT)
        seats = list(table.seats.select_related("user"))
        table.online_table = _open_online(tournament, seats)
        table.save(update_fields=["online_table"])
        if tournament.runs_itself or old.status in (Table.RUNNING, Table.CLOSED):
            # Its game had begun, or the event starts its tables itself: the new game begins
            # at once, every seat being filled.
            games.start(table.online_table.pk, games.EVENT)
            _table_started(tournament, table)
        _changed(tournament)


def _drawn_seat(table: TournamentTable, user_id: int) -> TournamentSeat:
    """The player's seat at the table, while no AI player has it."""
    seat = table.seats.filter(user_id=user_id).first()
    if seat is None:
        raise NotReady("not-at-table", table.number)
    if seat.replaced:
        raise NotReady("ai-already", table.number)
    return seat


def _online(table: TournamentTable, *statuses: str) -> Table:
    """The table's online table, locked, when its game is in one of `statuses`; NotReady
    says what else it is."""
    online = Table.objects.select_for_update().filter(id=table.online_table_id or 0).first()
    if online is None:
        raise NotReady("not-online", table.number)
    if online.status not in statuses:
        codes: dict[str, str] = {
            Table.OPEN: "not-started",
            Table.RUNNING: "not-open",
            Table.FINISHED: "game-over",
        }
        raise NotReady(codes.get(online.status, "table-stopped"), table.number)
    return online


def start_online(table: TournamentTable) -> None:
    """The organiser starts an online table whose seats are all taken."""
    with transaction.atomic():
        online = _online(table, Table.OPEN)
        try:
            games.start(online.pk, games.EVENT)
        except games.Refused as refused:
            raise NotReady(refused.code, table.number) from None
        _table_started(table.round.stage.tournament, table)
        _changed(table.round.stage.tournament)


def finish(tournament: Tournament) -> None:
    with transaction.atomic():
        where = position(tournament)
        if where.round is None or not round_complete(where.round):
            raise NotReady("round-open")
        try:
            next_stage_and_number(tournament)
        except NotReady as done:
            if done.code != "finished":
                raise
        else:
            raise NotReady("rounds-left")
        tournament.status = Tournament.FINISHED
        tournament.save(update_fields=["status"])
        _changed(tournament)


def result_changed(game: PlayedGame) -> None:
    """Leagues announced a result recorded, confirmed or corrected (leagues.signals).

    An online table's result arrives as a new PlayedGame; it is tied to its tournament
    table here. The tournament's projector pages are told after commit.
    """
    if game.table_id is not None:
        TournamentTable.objects.filter(online_table_id=game.table_id, game__isnull=True).update(
            game=game
        )
        _stand_ins_unrated(game)
    tournament_id = (
        TournamentTable.objects.filter(game=game)
        .values_list("round__stage__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        _round_may_have_ended(tournament_id)
        transaction.on_commit(lambda: live.broadcast_tournament(tournament_id))


def _stand_ins_unrated(game: PlayedGame) -> None:
    """A seat an AI player played for a replaced player (absent, gone, or given away by the
    organiser) is the AI's in the played game: the player is rated only for games he played,
    never for the AI's, and his event score is the event's to set (table_result). Those who
    played are rated against the AI there as against any AI player."""
    replaced = TournamentSeat.objects.filter(table__game=game, replaced=True)
    stand_in = None
    for seat in replaced.values_list("position", "user_id"):
        if stand_in is None:
            rules = registry.get(game.game)
            with translation.override(settings.LANGUAGE_CODE):
                stand_in = str(rules.ai_levels[rules.stand_in_level][0])
        PlayedSeat.objects.filter(game=game, seat=seat[0], user_id=seat[1]).update(
            user=None, guest_name=stand_in
        )


# --- an event that runs itself ---------------------------------------------------------------


def _schedule(tournament: Tournament) -> None:
    """Have the event's next step run when it is due; the sweep (tournaments.tasks) finds it
    as well, should this be lost."""
    if tournament.next_round_at is None:
        return
    from tournaments import tasks

    wait = (tournament.next_round_at - timezone.now()).total_seconds()
    enqueue(tasks.advance_event, tournament.pk, countdown=max(wait, 0) or None)


def _round_may_have_ended(tournament_id: int) -> None:
    """A table's result came in: once it was the last of its round, an event that runs itself
    draws the next round after its interval, or ends when no round is left."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if not tournament.runs_itself or tournament.status != Tournament.RUNNING:
        return
    where = position(tournament)
    if where.round is None or not round_complete(where.round):
        return
    try:
        next_stage_and_number(tournament)
    except NotReady as done:
        if done.code == "finished":
            Tournament.objects.filter(pk=tournament.pk, status=Tournament.RUNNING).update(
                status=Tournament.FINISHED, next_round_at=None
            )
        return
    due = timezone.now() + timedelta(seconds=tournament.round_interval)
    # Only the first report of the round's end sets the time: a correction later does not
    # move it, nor bring back a round being drawn.
    claimed = Tournament.objects.filter(pk=tournament.pk, next_round_at__isnull=True).update(
        next_round_at=due
    )
    if claimed:
        tournament.next_round_at = due
        _schedule(tournament)


def advance(tournament_id: int, now=None) -> bool:
    """Draw and start the event's next round if it is due: every table opened and started at
    once. Safe to run in several processes at the same moment: the one whose conditional
    UPDATE clears the due time draws; the others find nothing to do."""
    now = now or timezone.now()
    with transaction.atomic():
        due = (
            Tournament.objects.filter(pk=tournament_id, paused=False, next_round_at__lte=now)
            .exclude(status=Tournament.FINISHED)
            .values_list("next_round_at", flat=True)
            .first()
        )
        if due is None:
            return False
        claimed = Tournament.objects.filter(pk=tournament_id, next_round_at=due).update(
            next_round_at=None
        )
        if claimed != 1:
            return False
        tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
        try:
            with transaction.atomic():
                round_ = draft_round(tournament)
                begin_round(round_, None)
                for table in round_.tables.prefetch_related("seats"):
                    games.start(table.online_table_id or 0, games.EVENT)
                    _table_started(tournament, table)
        except pairing.PairingError as error:
            # Too few players checked in: the pages say how many more are needed; the draw
            # is tried again a little later, and at once when someone checks in.
            retry = now + timedelta(seconds=RETRY_DRAW_AFTER)
            logger.info("event %s: no draw (%s: %s), tried again", tournament_id, error.code, error)
            missing = _missing(tournament) if error.code == "too-few-players" else 0
            Tournament.objects.filter(pk=tournament_id).update(
                next_round_at=retry, waiting_for=missing
            )
            tournament.next_round_at = retry
            _schedule(tournament)
            _changed(tournament)
            return False
        except NotReady as not_ready:
            # A round still open (its end sets the next time) or nothing left to play.
            logger.info("event %s: no draw (%s)", tournament_id, not_ready.code)
            return False
        if tournament.waiting_for:
            Tournament.objects.filter(pk=tournament_id).update(waiting_for=0)
        return True


def _missing(tournament: Tournament) -> int:
    """How many more players checked in would let the next round be seated."""
    least = registry.get(tournament.game).seats.start
    return max(least - len(active_players(tournament)), 1)


def _draw_if_waiting(tournament: Tournament) -> None:
    """A player came (or came back) while the next round waited for players: try the draw
    now rather than at its next retry."""
    now = timezone.now()
    waiting = Tournament.objects.filter(
        pk=tournament.pk, waiting_for__gt=0, paused=False, next_round_at__gt=now
    )
    if waiting.update(next_round_at=now):
        tournament.next_round_at = now
        _schedule(tournament)


def _table_started(tournament: Tournament, table: TournamentTable) -> None:
    """After commit, the players of a table whose game started see on whatever page they have
    open that their table is ready, with its link."""
    players = [seat.user_id for seat in table.seats.all() if not seat.replaced]
    online, number, name, pk = table.online_table_id or 0, table.number, tournament.name, table.pk
    # Kept for pages opened later, while his seat waits for him.
    wait = tournament.no_show_seconds

    def tell() -> None:
        live.tell_table_ready(pk, online, number, name, players, wait)

    transaction.on_commit(tell)


def absentees(now=None) -> list[tuple[TournamentTable, int]]:
    """(table, player) for each player of a running table of an event that runs itself who
    is not at his table: it started `no_show_seconds` ago or more and he has no page of it
    open (never opened, or left it)."""
    now = now or timezone.now()
    tables = (
        TournamentTable.objects.filter(
            round__stage__tournament__status=Tournament.RUNNING,
            round__stage__tournament__paused=False,
            round__stage__tournament__starts_at__isnull=False,
            round__stage__tournament__mode=Tournament.ONLINE,
            online_table__status=Table.RUNNING,
            game__isnull=True,
        )
        .select_related("online_table", "round__stage__tournament")
        .prefetch_related("seats")
    )
    found: list[tuple[TournamentTable, int]] = []
    for table in tables:
        online = table.online_table
        wait = timedelta(seconds=table.round.stage.tournament.no_show_seconds)
        if online is None or online.started is None or online.started + wait > now:
            continue
        players = [s.user_id for s in table.seats.all() if not s.replaced]
        here = presence.present(table_group(online.pk), players)
        found.extend((table, p) for p in players if p not in here)
    return found


def pause(tournament: Tournament, paused: bool) -> None:
    """The organiser holds an event that runs itself (no draw, nobody found absent) or lets
    it go on; a round due while it was held is drawn as soon as it goes on."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not locked.runs_itself or locked.status == Tournament.FINISHED:
            raise NotReady("not-automatic")
        locked.paused = paused
        locked.save(update_fields=["paused"])
        if not paused:
            _schedule(locked)
        _changed(locked)


def finish_now(tournament: Tournament) -> None:
    """The organiser ends an event early: its running tables end with the scores they have
    (their results count), and the standings so far are final."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.RUNNING:
            raise NotReady("not-running")
        running = TournamentTable.objects.filter(
            round__stage__tournament=locked, online_table__status=Table.RUNNING
        )
        for table in running.select_related("round__stage__tournament"):
            adjudicate(table)
        Tournament.objects.filter(pk=locked.pk).update(
            status=Tournament.FINISHED, next_round_at=None, paused=False, waiting_for=0
        )
        _changed(locked)


def due_events(now=None) -> list[int]:
    """Events whose next round is due now."""
    now = now or timezone.now()
    return list(
        Tournament.objects.filter(paused=False, next_round_at__lte=now)
        .exclude(status=Tournament.FINISHED)
        .values_list("pk", flat=True)
    )


# --- pictures ----------------------------------------------------------------------------------


def bracket(tournament: Tournament, rounds: list[TournamentRound]) -> list[dict]:
    """Columns of tables for the drawn bracket: every round of the bracket stages, with
    each player's place and whether they went through."""
    columns = []
    came_from: dict[int, int] = {}
    for round_ in rounds:
        stage = round_.stage
        if stage.kind != Stage.BRACKET:
            continue
        if round_.number == 1:
            came_from = {}
        last_of_event = (
            round_.number == stage.rounds
            and not tournament.stages.filter(order__gt=stage.order).exists()
        )
        tables = []
        for table in round_.tables.all():
            result = table_result(table)
            places = result.places if result else {}
            scores = result.scores if result else {}
            tables.append(
                {
                    "number": table.number,
                    "players": [
                        {
                            "id": p,
                            "place": places.get(p),
                            "score": scores.get(p),
                            "through": p in places
                            and places[p] <= (1 if last_of_event else stage.advance),
                            "from_table": came_from.get(p),
                        }
                        for p in table.players
                    ],
                }
            )
        came_from = {p: table.number for table in round_.tables.all() for p in table.players}
        columns.append({"round": round_, "final": last_of_event, "tables": tables})
    return columns


def _changed(tournament: Tournament) -> None:
    transaction.on_commit(lambda: live.broadcast_tournament(tournament.pk))
