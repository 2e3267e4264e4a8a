"""The plain score pad's round (games.registry.ScorePadBase): a score per player and, if the
pad keeps it apart (Call to Glory's Imperial Tasks), a bonus per player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class RoundScoresForm(forms.Form):
    def __init__(
        self,
        *args,
        names: Sequence[str],
        entry: dict[str, Any] | None,
        score_max: int | None,
        bonuses: bool,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.names = list(names)
        self.with_bonus = bonuses
        for i, name in enumerate(self.names):
            self.fields[f"score_{i}"] = forms.IntegerField(
                label=name,
                min_value=0,
                max_value=score_max,
                initial=entry["scores"][i] if entry else None,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "lg-big"}),
            )
            if bonuses:
                self.fields[f"bonus_{i}"] = forms.IntegerField(
                    label=_("%(name)s: task bonus") % {"name": name},
                    min_value=0,
                    initial=entry["bonuses"][i] if entry else 0,
                    required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )

    def rows(self):
        return [
            (self[f"score_{i}"], self[f"bonus_{i}"] if self.with_bonus else None)
            for i in range(len(self.names))
        ]

    def entry(self) -> dict[str, Any]:
        seats = range(len(self.names))
        return {
            "scores": [self.cleaned_data[f"score_{i}"] for i in seats],
            "bonuses": [
                (self.cleaned_data.get(f"bonus_{i}") or 0) if self.with_bonus else 0 for i in seats
            ],
        }
