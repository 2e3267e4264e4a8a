from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import Table


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("waiting")
    RUNNING = "running", _("under way")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class AnalysisQuerySet(models.QuerySet["Analysis"]):
    def of_user(self, user):
        """The analyses of the seats `user` played."""
        return self.filter(table__seats__user=user, table__seats__position=F("seat"))


class Analysis(models.Model):
    """One seat's analysis of one finished table: made once in the background, shown to
    every viewer of the game. `result` holds the analyser's answer (games.analysis,
    `SeatAnalysis.as_json()` and what the pages draw besides)."""

    Status = AnalysisStatus
    QUEUED, RUNNING, DONE, FAILED = Status

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="analyses")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(default=0)
    # Kept apart from `result` so that a player's average is one query.
    accuracy = models.FloatField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    queued = models.DateTimeField()
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = AnalysisQuerySet.as_manager()

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_analysis_per_seat"),
            models.CheckConstraint(
                condition=Q(status__in=AnalysisStatus.values), name="analysis_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(done__lte=F("total")), name="analysis_done_le_total"
            ),
        ]
        verbose_name_plural = "analyses"

    def __str__(self) -> str:
        return f"analysis of table {self.table_id}, seat {self.seat}: {self.status}"

    @property
    def pending(self) -> bool:
        return self.status in (self.QUEUED, self.RUNNING)

    @property
    def percent(self) -> int:
        if self.status == self.DONE:
            return 100
        return 100 * self.done // self.total if self.total else 0
