"""Call to Glory's own rows: the printed Imperial Tasks cards."""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.ctg.engine.cards import DEFAULT_TASKS, VALUES


def _default(letter: str) -> str:
    return ", ".join(map(str, DEFAULT_TASKS[letter]))


def task_values(text: str) -> list[int]:
    """The card values a deck's four task cards name, from "6, 7, 8, 9"."""
    try:
        values = [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise ValidationError(_("Write four card values, such as 6, 7, 8, 9.")) from None
    if len(values) != 4 or len(set(values)) != 4:
        raise ValidationError(_("A deck has four task cards, each naming a different card."))
    if not set(values) <= set(VALUES):
        raise ValidationError(
            _("Task cards name one of the card values %(values)s.")
            % {"values": ", ".join(map(str, VALUES))}
        )
    return values


class TaskCards(models.Model):
    """The printed Imperial Tasks cards (RULES.md §7): the four card values each deck names.

    The rules text does not list them, so an administrator can set them; one row at most,
    and without it the rules' default applies. A game keeps the cards it was dealt from, so
    a change counts for games started after it.
    """

    a = models.CharField(_("deck A (5 points per card)"), max_length=40, default=_default("A"))
    b = models.CharField(_("deck B (4 points per card)"), max_length=40, default=_default("B"))
    c = models.CharField(_("deck C (3 points per card)"), max_length=40, default=_default("C"))

    class Meta:
        verbose_name = verbose_name_plural = _("Imperial Tasks cards")
        # The table it had in the shared games app, rows and all (migrations 0001).
        db_table = "games_taskcards"

    def __str__(self) -> str:
        return str(self._meta.verbose_name)

    def clean(self) -> None:
        errors = {}
        for field in ("a", "b", "c"):
            try:
                task_values(getattr(self, field))
            except ValidationError as error:
                errors[field] = error
        if errors:
            raise ValidationError(errors)

    def distribution(self) -> dict[str, list[int]]:
        return {"A": task_values(self.a), "B": task_values(self.b), "C": task_values(self.c)}

    @classmethod
    def current(cls) -> dict[str, list[int]]:
        row = cls.objects.first()
        return row.distribution() if row else {k: list(v) for k, v in DEFAULT_TASKS.items()}
