"""De l'Orc's own rows: the real-time deal of a table (games.orc.dealer)."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Table


class Deal(models.Model):
    """The real-time part of a table's game: De l'Orc's deal (ORC-RULES.md §6).

    The deal is a function of time: the current round's deal began at `started`, and
    `min(80, floor((now - started) / pace))` army cards are down, whoever looks. No process
    deals a card, so none can deal one twice or skip one; a process only pushes what time has
    dealt, while it holds the lease (`holder` until `held_until`, renewed with every card).
    """

    table = models.OneToOneField(Table, primary_key=True, on_delete=models.CASCADE)
    pace = models.FloatField(_("seconds per card"), default=1.2)
    # The round (from 0) whose deal began at `started`.
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    started = models.DateTimeField(null=True, blank=True)
    # The end of that deal is saved (the placing step or the champion is due): nothing to push.
    ended = models.BooleanField(default=False)
    holder = models.CharField(max_length=64, blank=True)
    held_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The table it had in the shared games app, rows and all (migrations 0001).
        db_table = "games_deal"
        constraints = [
            models.CheckConstraint(condition=models.Q(pace__in=[0.8, 1.2, 2.0]), name="deal_pace"),
        ]

    def __str__(self) -> str:
        return f"Deal of table {self.table_id}"

    @property
    def card_seconds(self) -> float:
        """Seconds from one army card to the next: the pace, on the site. A test's server
        that must see whole games in a few minutes deals faster (settings.DEAL_SPEED)."""
        return self.pace / settings.DEAL_SPEED

    def dealt_at(self, moment) -> int:
        """Army cards down at `moment` (a datetime) in the current round's deal."""
        if self.started is None or moment < self.started:
            return 0
        # In whole microseconds: a float division would put card 3 of 0.8 s at 2.4000000000000004.
        elapsed = (moment - self.started) // timedelta(microseconds=1)
        return min(80, elapsed // round(self.card_seconds * 1_000_000))

    def card_time(self, k: int):
        """When the k-th army card of the current round is (or was) dealt."""
        assert self.started is not None
        return self.started + timedelta(microseconds=k * round(self.card_seconds * 1_000_000))
