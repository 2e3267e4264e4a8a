from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Club
from games import registry
from leagues import ratings, standings

SCHEME_CHOICES = [
    ("fair", _("Fair placement points (4 players 3-2-1-0, 3 players 3-1.5-0, 2 players 3-0)")),
    ("winner", _("Winner takes 1")),
    ("borda", _("Borda (one point per player finishing behind)")),
]
TIE_BREAK_CHOICES = [
    ("points", _("Points")),
    ("wins", _("Wins")),
    ("ratio", _("Average of own score ÷ table average")),
    ("h2h", _("Head-to-head")),
    ("best_round", _("Best single round")),
    ("average", _("Average score")),
    ("games", _("Fewer games played")),
]
assert {k for k, _l in SCHEME_CHOICES} == set(standings.SCHEMES)
assert {k for k, _l in TIE_BREAK_CHOICES} == set(standings.TIE_BREAKS)


class PlaysOneGame(models.Model):
    """A league or a tournament: every game it holds is of one registered game
    (games.registry), played with the same options."""

    game = models.CharField(_("game"), max_length=16, default=registry.first_key)
    # The game's own (Game.league_option_fields, Game.tournament_option_fields).
    options = models.JSONField(_("options"), default=dict, blank=True)

    class Meta:
        abstract = True

    @property
    def game_name(self) -> str:
        return registry.get(self.game).name

    def option_labels(self) -> list[str]:
        return registry.get(self.game).event_labels(self.options)

    @property
    def table_options(self) -> dict:
        """The options of each of its tables and score pads."""
        return registry.get(self.game).event_table_options(self.options)

    @property
    def rounds_per_game(self) -> int:
        """The options' round count, or the game's only one (Game.rounds); 0 for a game that
        goes on until someone wins (De l'Orc)."""
        fixed = registry.get(self.game).rounds
        return self.table_options.get("rounds", fixed[0] if len(fixed) == 1 else 0)


class League(PlaysOneGame):
    """A league or season inside a club. Its table is a snapshot kept by a background tally.

    ``results_version`` goes up with every result that changes the table; the tally writes
    ``table`` only when ``table_version`` is behind, so running it twice is harmless.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    participants = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="leagues", blank=True, verbose_name=_("players")
    )
    points_scheme = models.CharField(
        _("points scheme"), max_length=10, choices=SCHEME_CHOICES, default="fair"
    )
    tie_breaks = models.CharField(
        _("tie-break order"), max_length=100, default=",".join(standings.DEFAULT_TIE_BREAKS)
    )
    is_open = models.BooleanField(_("open for results"), default=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    results_version = models.PositiveIntegerField(default=0)
    table_version = models.PositiveIntegerField(default=0)
    table = models.JSONField(default=list, blank=True)
    table_updated = models.DateTimeField(null=True, blank=True)
    # The projector's link, which opens without logging in; empty until the organiser makes
    # one, and replaced (the old link then shows nothing) when he resets it.
    projector_token = models.CharField(max_length=43, blank=True, default="")

    class Meta:
        ordering = ["-created"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="league_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True)
                | Q(ends_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")),
                name="league_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(points_scheme__in=list(standings.SCHEMES)),
                name="league_points_scheme_valid",
            ),
            models.CheckConstraint(
                condition=Q(table_version__lte=F("results_version")),
                name="league_table_not_ahead",
            ),
            models.UniqueConstraint(
                fields=["projector_token"],
                condition=~Q(projector_token=""),
                name="league_projector_token_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league", args=[self.club.slug, self.pk])

    @property
    def tie_break_list(self) -> list[str]:
        return [t for t in self.tie_breaks.split(",") if t in standings.TIE_BREAKS]

    def tie_break_labels(self) -> list[str]:
        labels = dict(TIE_BREAK_CHOICES)
        return [str(labels[t]) for t in self.tie_break_list]

    def table_with_ratings(self) -> list[dict]:
        """The table snapshot with each member's current rating, read now: ratings are
        recomputed after the table is tallied, and the page is pushed again then."""
        ids = [row["user_id"] for row in self.table if row.get("user_id")]
        known = dict(
            PlayerRating.objects.filter(user__in=ids, game=self.game, games__gt=0).values_list(
                "user_id", "display"
            )
        )
        return [{**row, "rating": known.get(row.get("user_id"))} for row in self.table]

    @property
    def table_is_current(self) -> bool:
        return self.table_version == self.results_version


class PlayedGameQuerySet(models.QuerySet):
    def confirmed(self):
        return self.filter(status=PlayedGame.CONFIRMED)

    def rated_in_order(self):
        return self.confirmed().filter(rated=True).order_by("played_at", "id")


class PlayedGameSource(models.TextChoices):
    PAD = "pad", _("score pad")
    ONLINE = "online", _("online")


class PlayedGameStatus(models.TextChoices):
    DRAFT = "draft", pgettext_lazy("game status", "being entered")
    AWAITING = "awaiting", _("awaiting confirmation")
    CONFIRMED = "confirmed", _("confirmed")


class PlayedGame(models.Model):
    """One finished (or, on the score pad, still being entered) game of any kind.

    Physical games come from the score pad (draft → awaiting confirmation → confirmed);
    online games arrive confirmed through ``leagues.results.record_result``. Only confirmed
    games count for tables and ratings.
    """

    Source = PlayedGameSource

    PAD = Source.PAD
    ONLINE = Source.ONLINE
    SOURCES = Source.choices

    Status = PlayedGameStatus

    DRAFT = Status.DRAFT
    AWAITING = Status.AWAITING
    CONFIRMED = Status.CONFIRMED
    STATUSES = Status.choices

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="played_games", null=True, blank=True
    )
    league = models.ForeignKey(
        League, on_delete=models.SET_NULL, related_name="games", null=True, blank=True
    )
    game = models.CharField(_("game"), max_length=16, default=registry.first_key)
    source = models.CharField(_("source"), max_length=8, choices=SOURCES, default=PAD)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=DRAFT)
    played_at = models.DateTimeField(_("played at"), default=timezone.now)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=4)
    # The game's own options it was played with (Game.played_options).
    options = models.JSONField(_("options"), default=dict, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    # The online table that was played, for online games.
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="played_game",
    )
    # Only so that recording the same result twice stores it once.
    external_ref = models.CharField(max_length=80, blank=True)
    # The game's own account of the rounds besides the round scores: what its score pad
    # keeps of its entries (games.registry.ScorePad.keep; De l'Orc's {"pad": [entry per
    # round]}), entered on the pad or kept from an online game's result; an imported record
    # also keeps {"record": …, "result": …} (the engine's).
    result = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    corrected_at = models.DateTimeField(null=True, blank=True)

    objects = PlayedGameQuerySet.as_manager()

    class Meta:
        ordering = ["-played_at", "-id"]
        verbose_name = _("played game")
        verbose_name_plural = _("played games")
        indexes = [
            models.Index(fields=["status", "rated", "played_at", "id"], name="game_rating_order"),
            models.Index(fields=["league", "status", "played_at", "id"], name="game_league_order"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=PlayedGameStatus.values),
                name="game_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(source__in=PlayedGameSource.values), name="game_source_valid"
            ),
            # A game's round counts (Game.rounds) are its own: results are checked against
            # them where they come in (leagues.results.record_result), score pads take their
            # league's, and `clean` (the admin) asks the game.
            # Online results arrive finished; only the score pad has drafts.
            models.CheckConstraint(
                condition=Q(source=PlayedGameSource.PAD) | Q(status=PlayedGameStatus.CONFIRMED),
                name="online_game_confirmed",
            ),
            models.CheckConstraint(
                condition=~Q(status=PlayedGameStatus.CONFIRMED) | Q(confirmed_at__isnull=False),
                name="confirmed_game_has_time",
            ),
            models.UniqueConstraint(
                fields=["external_ref"],
                condition=~Q(external_ref=""),
                name="game_external_ref_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_source_display()} {self.played_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        assert self.club is not None
        return reverse("pad", args=[self.club.slug, self.pk])

    def can_be_entered_by(self, user, is_organiser: bool) -> bool:
        """Anyone at the table, whoever started the pad, or an organiser, while in draft."""
        if self.status != self.DRAFT:
            return False
        return is_organiser or user.pk == self.created_by_id or self.has_player(user)

    def can_be_confirmed_by(self, user, is_organiser: bool) -> bool:
        """A second player at the table (not the one who entered it) or an organiser."""
        if self.status != self.AWAITING:
            return False
        return is_organiser or (self.has_player(user) and user.pk != self.created_by_id)

    @property
    def game_name(self) -> str:
        return registry.get(self.game).name

    def clean(self) -> None:
        invalid = forms.ChoiceField.default_error_messages["invalid_choice"]
        if self.game not in registry.all_games():
            raise ValidationError({"game": invalid % {"value": self.game}})
        counts = registry.get(self.game).rounds
        if counts and self.rounds not in counts:
            raise ValidationError({"rounds": invalid % {"value": self.rounds}})

    @property
    def pad_entries(self) -> list[dict]:
        """The rounds entered on its score pad, as its game's pad reads them from what the
        game keeps: its result and its round scores (each round that every seat has)."""
        pad = registry.get(self.game).pad
        if pad is None:
            return []
        seats = self.seats.count()
        scored: dict[int, dict[int, tuple[int, int]]] = {}
        rows = RoundScore.objects.filter(seat__game=self)
        for seat, round_no, score, bonus in rows.values_list(
            "seat__seat", "round_no", "score", "bonus"
        ):
            scored.setdefault(round_no, {})[seat] = (score, bonus)
        rounds: list[list[tuple[int, int]]] = []
        while seats and len(scored.get(len(rounds) + 1, {})) == seats:
            by_seat = scored[len(rounds) + 1]
            rounds.append([by_seat[seat] for seat in range(seats)])
        return pad.entries(self.result, rounds)

    def has_player(self, user) -> bool:
        return any(seat.user_id == user.pk for seat in self.seats.all())

    def option_labels(self) -> list[str]:
        """The options it was played with, as history shows them."""
        return registry.get(self.game).played_labels(self.options)

    @property
    def keeps_bonuses(self) -> bool:
        """Its score pad takes a bonus apart from each round score."""
        pad = registry.get(self.game).pad
        return pad is not None and pad.keeps_bonuses(self.options)


class PlayedSeat(models.Model):
    """A player at a game, in seat order; a member, or a guest named until linked."""

    game = models.ForeignKey(PlayedGame, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    guest_name = models.CharField(_("guest name"), max_length=60, blank=True)
    total = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    best_round = models.IntegerField(default=0)

    class Meta:
        # Ordering by the game_id column: "game" would follow PlayedGame's ordering and
        # join the whole games table into every seat query.
        ordering = ["game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(user__isnull=False),
                name="player_seated_once",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(guest_name=""), name="seat_has_player"
            ),
            # Seat numbers of any hosted game (games.registry): De l'Orc seats up to 7.
            models.CheckConstraint(condition=Q(seat__lt=8), name="seat_below_eight"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1, place__lte=8),
                name="seat_place_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return str(self.user) if self.user_id else self.guest_name


class RoundScore(models.Model):
    """One player's score in one round: the points of the round and, for a game whose score
    pad keeps it apart (ScorePad.keeps_bonuses: Call to Glory's Imperial Tasks), the bonus."""

    seat = models.ForeignKey(PlayedSeat, on_delete=models.CASCADE, related_name="round_scores")
    round_no = models.PositiveSmallIntegerField()
    score = models.PositiveSmallIntegerField()
    bonus = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["seat_id", "round_no"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "round_no"], name="one_score_per_round"),
            # A game's own limits (ScorePad.score_max, its round counts) cannot be asked by a
            # check constraint on rows of every game: the score pad's door
            # (leagues.actions.enter_pad_entry) asks the game, and so does `clean` (the admin).
            models.CheckConstraint(condition=Q(round_no__gte=1), name="round_no_valid"),
        ]

    def __str__(self) -> str:
        return f"round {self.round_no}: {self.score}+{self.bonus}"

    def clean(self) -> None:
        pad = registry.get(self.seat.game.game).pad if self.seat_id else None
        limit = pad.score_max if pad is not None else None
        if limit is not None:
            try:
                MaxValueValidator(limit)(self.score)
            except ValidationError as error:
                raise ValidationError({"score": error.error_list}) from None

    @property
    def total(self) -> int:
        return self.score + self.bonus


class PlayerRating(models.Model):
    """A player's current rating in one game; rebuilt from RatingHistory by the recompute job.

    Games never share a rating: each game's results move only that game's ratings.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(_("game"), max_length=16, default=registry.first_key)
    mu = models.FloatField(default=ratings.MU)
    sigma = models.FloatField(default=ratings.SIGMA)
    games = models.PositiveIntegerField(default=0)
    display = models.IntegerField(default=ratings.display(ratings.MU, ratings.SIGMA))
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["game", "-display"], name="rating_display_order")]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="rating_once_per_game"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.display}"

    @property
    def skill(self) -> ratings.Skill:
        return ratings.Skill(self.mu, self.sigma, self.games)

    @property
    def provisional(self) -> bool:
        return self.skill.provisional


class RatingHistory(models.Model):
    """A player's rating in one game (``game_key``) right after one rated game of it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_history"
    )
    game = models.ForeignKey(PlayedGame, on_delete=models.CASCADE, related_name="rating_rows")
    # The played game's `game`, kept here so that a recompute reads and replaces one game's
    # rows through the index, without joining every played game.
    game_key = models.CharField(max_length=16, default=registry.first_key)
    played_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["user_id", "played_at", "game_id"]
        indexes = [
            models.Index(fields=["user", "game_key", "played_at", "game"], name="history_order")
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="history_once_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} after game {self.game_id}: {self.display}"


class RatingLedger(models.Model):
    """One row per game that its recompute locks, so two recomputes of a game never
    interleave their writes (recomputes of different games touch different rows)."""

    game = models.CharField(max_length=16, unique=True, default=registry.first_key)
    last_run = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.game} ratings last recomputed {self.last_run}"


class RecomputeJobStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class RecomputeJob(models.Model):
    """Recompute one game's ratings from ``from_played_at`` onwards; progress for the
    organiser to see."""

    Status = RecomputeJobStatus
    QUEUED, RUNNING, DONE, FAILED = Status
    STATUSES = Status.choices

    game = models.CharField(max_length=16, default=registry.first_key)
    from_played_at = models.DateTimeField(null=True, blank=True)
    league = models.ForeignKey(
        League, on_delete=models.SET_NULL, null=True, blank=True, related_name="recompute_jobs"
    )
    reason = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=8, choices=STATUSES, default=QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    covered_by = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=RecomputeJobStatus.values),
                name="job_status_valid",
            ),
            models.CheckConstraint(condition=Q(done__lte=F("total")), name="job_done_le_total"),
        ]

    def __str__(self) -> str:
        return f"recompute {self.game} from {self.from_played_at or 'the start'}: {self.status}"

    @property
    def percent(self) -> int:
        if self.status == self.DONE:
            return 100
        return 100 * self.done // self.total if self.total else 0
