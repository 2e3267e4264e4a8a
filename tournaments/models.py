"""Tournaments: events of stages, rounds and tables, settled by played games.

The tables keep their names from when tournaments lived in the leagues app, so no row moved.
"""

from collections.abc import Sequence
from datetime import datetime, timedelta

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Club
from games import registry
from games.models import TableClock, TimeoutPolicy
from leagues.models import PlayedGame, PlaysOneGame


class TournamentMode(models.TextChoices):
    ONLINE = "online", _("online")
    PHYSICAL = "physical", _("at physical tables")
    MIXED = "mixed", _("online and at physical tables")


class TournamentSeeding(models.TextChoices):
    BY_RATING = "rating", _("by rating")
    RANDOM = "random", _("random")


class AbsenteePlace(models.TextChoices):
    LAST = "last", _("last place at the table")
    NONE = "none", _("no place at the table, as a player replaced")


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("registration")
    RUNNING = "running", pgettext_lazy("tournament status", "running")
    FINISHED = "finished", pgettext_lazy("tournament status", "finished")


class Tournament(PlaysOneGame):
    """An event of one or more stages, played online, at physical tables, or both; its game's
    table sizes seat the rounds."""

    Mode = TournamentMode

    ONLINE = Mode.ONLINE
    PHYSICAL = Mode.PHYSICAL
    MIXED = Mode.MIXED
    MODES = Mode.choices

    Seeding = TournamentSeeding

    BY_RATING = Seeding.BY_RATING
    RANDOM = Seeding.RANDOM
    SEEDINGS = Seeding.choices

    Status = TournamentStatus

    REGISTRATION = Status.REGISTRATION
    RUNNING = Status.RUNNING
    FINISHED = Status.FINISHED
    STATUSES = Status.choices

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=80)
    mode = models.CharField(_("where it is played"), max_length=8, choices=MODES, default=PHYSICAL)
    max_table = models.PositiveSmallIntegerField(_("players per table at most"), default=4)
    seeding = models.CharField(
        _("first round seeding"), max_length=8, choices=SEEDINGS, default=BY_RATING
    )
    rated = models.BooleanField(_("rated"), default=True)
    allow_ai = models.BooleanField(_("an AI player may fill a no-show's seat"), default=False)
    # The time control of its online tables, as a live table's: a clock per decision, and
    # what happens to a player whose time runs out.
    clock = models.CharField(
        _("clock"), max_length=16, choices=TableClock.choices, default=TableClock.NO_CLOCK
    )
    clock_seconds = models.PositiveIntegerField(_("time per decision (seconds)"), default=60)
    timeout_policy = models.CharField(
        _("when time runs out"),
        max_length=8,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.AI_MOVES,
    )
    # When the first round is drawn; players check themselves in from `checkin_minutes`
    # before it. Without a start time the organiser checks players in and draws the rounds.
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    checkin_minutes = models.PositiveSmallIntegerField(
        _("check-in opens (minutes before the start)"), default=30
    )
    # Seconds between the end of a round's last table and the draw of the next.
    round_interval = models.PositiveIntegerField(_("seconds between rounds"), default=60)
    # When the event draws and starts its next round by itself (the start time, then each
    # round's end plus the interval); empty while a round is played, or run by hand. The
    # sweep claims it by clearing it, so one process alone draws a round.
    next_round_at = models.DateTimeField(null=True, blank=True, db_index=True)
    paused = models.BooleanField(_("paused"), default=False)
    # The next round could not be seated: this many more players must check in (0: none
    # missing). Tried again now and then, and at once when someone checks in.
    waiting_for = models.PositiveSmallIntegerField(default=0)
    # A player who has not opened his table this long after its start, or who left it this
    # long, is absent: an AI player takes his seat, and he is not drawn again until he
    # checks in again.
    no_show_seconds = models.PositiveIntegerField(
        _("seconds before a player is absent"), default=60
    )
    absentee_place = models.CharField(
        _("an absent player takes"),
        max_length=8,
        choices=AbsenteePlace.choices,
        default=AbsenteePlace.LAST,
    )
    status = models.CharField(max_length=12, choices=STATUSES, default=REGISTRATION)
    seed = models.PositiveIntegerField(default=0)
    # The projector's link, which opens without logging in; empty until the organiser makes
    # one, and replaced (the old link then shows nothing) when he resets it.
    projector_token = models.CharField(max_length=43, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "leagues_tournament"
        ordering = ["-created"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            # Tables of any hosted game; the game's own sizes (Game.seats) are checked where
            # a tournament is set up (tournaments.actions.create, change) and by `clean`.
            models.CheckConstraint(
                condition=Q(max_table__gte=2, max_table__lte=8), name="tournament_table_size"
            ),
            models.CheckConstraint(
                condition=Q(mode__in=TournamentMode.values), name="tournament_mode_valid"
            ),
            models.CheckConstraint(
                condition=Q(clock__in=TableClock.values), name="tournament_clock_valid"
            ),
            models.CheckConstraint(
                condition=Q(clock_seconds__gte=10), name="tournament_clock_seconds_min"
            ),
            models.CheckConstraint(
                condition=Q(status__in=TournamentStatus.values),
                name="tournament_status_valid",
            ),
            models.UniqueConstraint(
                fields=["projector_token"],
                condition=~Q(projector_token=""),
                name="tournament_projector_token_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.club.slug, self.pk])

    @property
    def time_control(self) -> str:
        """The clock of its online tables in a few words (empty without one)."""
        if self.clock == TableClock.NO_CLOCK:
            return ""
        return _("%(clock)s clock, %(seconds)s s per decision") % {
            "clock": self.get_clock_display(),
            "seconds": self.clock_seconds,
        }

    @property
    def runs_itself(self) -> bool:
        """An online event with a start time draws, starts and ends its rounds itself."""
        return self.starts_at is not None and self.mode == TournamentMode.ONLINE

    @property
    def checkin_opens(self) -> datetime | None:
        if self.starts_at is None:
            return None
        return self.starts_at - timedelta(minutes=self.checkin_minutes)

    def checkin_open(self, now: datetime) -> bool:
        """Players may check themselves in: from the window before the start until the end
        (one marked absent comes back so)."""
        opens = self.checkin_opens
        return opens is not None and opens <= now and self.status != TournamentStatus.FINISHED

    def clean(self) -> None:
        game = registry.all_games().get(self.game)
        if game is None:
            invalid = forms.ChoiceField.default_error_messages["invalid_choice"]
            raise ValidationError({"game": invalid % {"value": self.game}})
        if self.max_table not in game.seats:
            message = _("A table of %(game)s seats %(low)s to %(high)s players.") % {
                "game": game.name,
                "low": game.seats.start,
                "high": game.seats.stop - 1,
            }
            raise ValidationError({"max_table": message})


class StageKind(models.TextChoices):
    SWISS = "swiss", _("Swiss table rounds")
    BRACKET = "bracket", _("elimination bracket of tables")
    ROUND_ROBIN = "robin", _("round robin")


class Stage(models.Model):
    """One format of the event; a later stage takes the top ``cut`` of the one before."""

    Kind = StageKind

    SWISS = Kind.SWISS
    BRACKET = Kind.BRACKET
    ROUND_ROBIN = Kind.ROUND_ROBIN
    KINDS = Kind.choices

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(default=1)
    kind = models.CharField(_("format"), max_length=8, choices=KINDS, default=SWISS)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=1)
    cut = models.PositiveSmallIntegerField(
        _("players taken from the stage before"), null=True, blank=True
    )
    advance = models.PositiveSmallIntegerField(_("players advancing from each table"), default=1)

    class Meta:
        db_table = "leagues_stage"
        ordering = ["tournament_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
            models.CheckConstraint(condition=Q(kind__in=StageKind.values), name="stage_kind_valid"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="stage_has_rounds"),
            models.CheckConstraint(condition=Q(advance__gte=1), name="stage_advance_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.order}"


class Entry(models.Model):
    """A registered player; only those checked in and not dropped are seated."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    checked_in = models.BooleanField(_("present"), default=False)
    dropped = models.BooleanField(_("dropped out"), default=False)
    # Found away from his table (tournaments.actions.mark_absent) since he last checked in.
    absent = models.BooleanField(_("absent"), default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "leagues_entry"
        ordering = ["tournament_id", "created", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tournament}"

    @property
    def active(self) -> bool:
        return self.checked_in and not self.dropped


class TournamentRoundStatus(models.TextChoices):
    DRAFT = "draft", _("tables drafted")
    PLAYING = "playing", _("playing")


class TournamentRound(models.Model):
    """A round of a stage: drafted (tables editable), then playing."""

    Status = TournamentRoundStatus

    DRAFT = Status.DRAFT
    PLAYING = Status.PLAYING
    STATUSES = Status.choices

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds_played")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=STATUSES, default=DRAFT)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "leagues_tournamentround"
        ordering = ["stage_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique"),
            models.CheckConstraint(
                condition=Q(status__in=TournamentRoundStatus.values), name="tround_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} · {self.number}"


class TournamentTable(models.Model):
    """One table of a round: its players in seat order (TournamentSeat), and the game that
    settles it."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    users = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="TournamentSeat",
        related_name="tournament_tables",
        verbose_name=_("players"),
    )
    online = models.BooleanField(default=False)
    game = models.OneToOneField(
        PlayedGame,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_table",
    )
    online_table = models.OneToOneField(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_table",
    )

    class Meta:
        db_table = "leagues_tournamenttable"
        ordering = ["round_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"

    @property
    def players(self) -> list[int]:
        """The players' user ids in seat order (prefetch ``seats`` to read many tables)."""
        return [seat.user_id for seat in self.seats.all()]

    def seat_players(self, user_ids: Sequence[int]) -> None:
        """Seat these players, in this order, in place of whoever sat here."""
        self.seats.all().delete()
        TournamentSeat.objects.bulk_create(
            TournamentSeat(table=self, position=i, user_id=u) for i, u in enumerate(user_ids)
        )
        # A prefetched list of seats is out of date now.
        getattr(self, "_prefetched_objects_cache", {}).pop("seats", None)


class TournamentSeat(models.Model):
    """A player's seat at a tournament table."""

    table = models.ForeignKey(TournamentTable, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_seats"
    )
    # An AI player took the seat (a no-show's, or one the organiser gave away): the player
    # stays drawn here and in the event, but takes no place at this table.
    replaced = models.BooleanField(default=False)
    # Replaced because he was absent, in an event that places an absent player last: he
    # takes the last place at this table.
    absent = models.BooleanField(default=False)

    class Meta:
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="tournament_seat_position_unique"
            ),
            models.UniqueConstraint(fields=["table", "user"], name="tournament_seat_user_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.position}: {self.user_id}"
