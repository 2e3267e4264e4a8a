import secrets
import threading
from collections import OrderedDict

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import new_invite_token
from games.registry import Game, first_key
from games.registry import first as first_game
from games.registry import get as get_game

_states: OrderedDict[tuple[int, int, int], object] = OrderedDict()
_states_lock = threading.Lock()


def new_seed() -> int:
    return secrets.randbits(62)


class TableQuerySet(models.QuerySet["Table"]):
    def visible_to(self, user):
        """Public tables, and club-only tables of the user's clubs."""
        public = models.Q(visibility=Table.PUBLIC)
        if not user.is_authenticated:
            return self.filter(public)
        return self.filter(public | models.Q(club__memberships__user=user)).distinct()

    def playing(self, user) -> list["Table"]:
        """Tables where the user has a seat, waiting to start or under way; those waiting
        for the user's move first, each marked `my_move`."""
        if not user.is_authenticated:
            return []
        found = self.filter(
            seats__user=user, seats__left=False, status__in=[Table.OPEN, Table.RUNNING]
        )
        tables: list[Table] = list(found.prefetch_related("seats").distinct())
        for table in tables:
            table.my_move = table.waits_for(user)
        return sorted(tables, key=lambda table: not table.my_move)


class TableStatus(models.TextChoices):
    OPEN = "open", _("waiting for players")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")
    CLOSED = "closed", _("closed")


class TableVisibility(models.TextChoices):
    PUBLIC = "public", _("public")
    CLUB = "club", _("club members only")


class TableClock(models.TextChoices):
    NO_CLOCK = "none", _("no clock")
    LIVE = "live", _("live")
    CORRESPONDENCE = "correspondence", _("correspondence")


class TimeoutPolicy(models.TextChoices):
    AI_MOVES = "ai", _("an AI player moves for the absent player")
    FORFEIT = "forfeit", _("the absent player forfeits")


class SeatOrder(models.TextChoices):
    RANDOM_ORDER = "random", _("random")
    HOST_ORDER = "host", _("as the host sets it")


class Table(models.Model):
    """One game from the lobby to its result. `record` (RULES.md §10) is the truth."""

    Status = TableStatus
    OPEN, RUNNING, FINISHED, CANCELLED, CLOSED = Status
    STATUSES = Status.choices
    Visibility = TableVisibility
    PUBLIC, CLUB = Visibility
    VISIBILITIES = Visibility.choices
    Clock = TableClock
    NO_CLOCK, LIVE, CORRESPONDENCE = Clock
    CLOCKS = Clock.choices
    TimeoutPolicy = TimeoutPolicy
    AI_MOVES, FORFEIT = TimeoutPolicy
    TIMEOUT_POLICIES = TimeoutPolicy.choices
    SeatOrder = SeatOrder
    RANDOM_ORDER, HOST_ORDER = SeatOrder
    SEAT_ORDERS = SeatOrder.choices

    # The registered game played here (games.registry), and its own options (JSON the game
    # validates, Game.clean_options).
    game = models.CharField(_("game"), max_length=16, default=first_key)
    options = models.JSONField(_("options"), default=dict, blank=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables"
    )
    club = models.ForeignKey(
        "accounts.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    visibility = models.CharField(_("who may join"), max_length=8, choices=VISIBILITIES)
    seats_count = models.PositiveSmallIntegerField(_("players"), default=4)
    seat_order = models.CharField(
        _("seat order"), max_length=8, choices=SEAT_ORDERS, default=RANDOM_ORDER
    )
    clock = models.CharField(_("clock"), max_length=16, choices=CLOCKS, default=NO_CLOCK)
    clock_seconds = models.PositiveIntegerField(_("time per decision (seconds)"), default=60)
    timeout_policy = models.CharField(
        _("when time runs out"), max_length=8, choices=TIMEOUT_POLICIES, default=AI_MOVES
    )
    rated = models.BooleanField(_("rated"), default=False)
    # Opened by an event (a tournament round): its seats, start and cancel are the event's,
    # and its host (the first player seated) has no more say over them than anyone seated.
    managed = models.BooleanField(_("run by its event"), default=False)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    seed = models.BigIntegerField(default=new_seed)
    record = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    # The next game of the same players, opened from this one once it finished.
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # When a round ends, the next waits until every person playing has continued (their
    # positions are in `continued`) or `pause_until` has passed. Kept out of the record,
    # which holds the game itself; this is only when its players see it.
    pause_until = models.DateTimeField(null=True, blank=True)
    continued = models.JSONField(default=list, blank=True)

    objects = TableQuerySet.as_manager()
    # Set by TableQuerySet.playing: the user's move is awaited here.
    my_move: bool

    class Meta:
        ordering = ["-created"]
        constraints = [
            # Seats of any hosted game. A game's own seats and options (Game.seats,
            # Game.clean_options) are checked where tables are opened (actions.create_table):
            # a check constraint cannot ask a game, and one per game would put every game's
            # rules into this shared table.
            models.CheckConstraint(
                condition=models.Q(seats_count__gte=1, seats_count__lte=8),
                name="table_seats_in_range",
            ),
            models.CheckConstraint(
                condition=~models.Q(visibility=TableVisibility.CLUB) | models.Q(club__isnull=False),
                name="table_club_only_needs_club",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=TableStatus.values), name="table_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(visibility__in=TableVisibility.values),
                name="table_visibility_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(clock__in=TableClock.values), name="table_clock_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(timeout_policy__in=TimeoutPolicy.values),
                name="table_timeout_policy_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(seat_order__in=SeatOrder.values),
                name="table_seat_order_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])

    @property
    def identity(self) -> tuple[int, int]:
        """(pk, creation stamp): a cache key that stays unique where ids of deleted rows return."""
        return self.pk, int(self.created.timestamp() * 1_000_000)

    @property
    def plugin(self) -> Game:
        return get_game(self.game)

    @property
    def named_game(self) -> str:
        """The game's name as lists of tables show it: none for the site's own game."""
        return "" if self.game == first_game().key else self.plugin.name

    def option_labels(self) -> list[str]:
        """The game's options as lists show them."""
        return self.plugin.option_labels(self.options)

    def state(self):
        """The position, rebuilt from the record by its game (Game.load).

        Rebuilds are cached per process by (table, version); callers get their own clone,
        brought to the present by a game that plays in real time (`RealTime.catch_up`).
        """
        key = (*self.identity, self.version)
        with _states_lock:
            cached = _states.get(key)
        if cached is None:
            cached = self.plugin.load(self)
            with _states_lock:
                _states[key] = cached
                while len(_states) > 256:
                    _states.popitem(last=False)
        state = self.plugin.clone(cached)
        if (realtime := self.plugin.realtime) is not None:
            realtime.catch_up(self, state)
        return state

    @property
    def board_state(self) -> str:
        """What a board shows besides the position: the status, who continued in a pause, and
        a rematch opened from a finished game."""
        if self.rematch_id is not None:
            return f"{self.status}:rematch:{self.rematch_id}"
        if self.pause_until is None:
            return self.status
        return f"{self.status}:paused:{','.join(map(str, sorted(self.continued)))}"

    def waiting_stamp(self) -> str:
        """What the waiting room shows of the table: it changes with every seat and the status."""
        seats = sorted((s.position, s.name, s.ai_level, s.left) for s in self.seats.all())
        return f"{self.status}|{self.host_id}|{self.seat_order}|{seats}"

    def decider_seat(self) -> "Seat | None":
        """The seat whose decision the running game waits for."""
        if self.status != Table.RUNNING:
            return None
        decider = self.plugin.decider(self.state())
        return next((s for s in self.seats.all() if s.position == decider), None)

    def waits_for(self, user) -> bool:
        """The running game waits for this person: for his decision or, while the players
        look at a round's end, for him to continue (whoever begins the next round)."""
        if self.status == Table.RUNNING and self.pause_until is not None:
            return any(
                s.user_id == user.pk and not s.left and s.position not in self.continued
                for s in self.seats.all()
            )
        seat = self.decider_seat()
        return seat is not None and seat.user_id == user.pk

    def waits_for_ai(self) -> bool:
        """An AI player, or one standing in for a person who left, is to decide."""
        seat = self.decider_seat()
        return seat is not None and (seat.is_ai or seat.left) and self.pause_until is None


class Seat(models.Model):
    """A place at a table: a person, or an AI player (`ai_level` set, `user` empty)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="table_seats",
    )
    ai_level = models.CharField(max_length=16, blank=True)
    name = models.CharField(max_length=40)
    left = models.BooleanField(default=False)
    forfeited = models.BooleanField(default=False)
    # The table version of the last "your move" email: one email per wait, however often
    # the reminder runs.
    reminded_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
            models.UniqueConstraint(fields=["table", "name"], name="seat_names_distinct"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(ai_level=""),
                name="seat_person_or_ai",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_ai(self) -> bool:
        return bool(self.ai_level)

    @property
    def display_name(self) -> str:
        """The name to show: an AI player's stored name (its level's English name and a
        number, the same in every language, as the record knows it) in the active language."""
        return self.table.plugin.seat_name(self.name, self.ai_level)


class ChatMessage(models.Model):
    """A line a player says at a table; everyone who may watch the table reads it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.seat}: {self.text}"
