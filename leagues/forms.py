from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from games import registry
from leagues.models import TIE_BREAK_CHOICES, League

User = get_user_model()


def posted_number(data, name: str) -> int | None:
    """A whole number sent by one of our forms, or None for anything else (a tampered value)."""
    value = data.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None


def game_form(form_class, request, **kwargs):
    """The form of a page with a Game choice. A POST with "show_options" (another game chosen:
    by htmx, or by the button without JavaScript) gets the form back as it was sent, unsaved
    and without errors, with the chosen game's option fields."""
    form = form_class(request.POST or None, **kwargs)
    if "show_options" in request.POST:
        sent = {field.name: field.data for field in form if not field.field.disabled}
        kwargs["initial"] = kwargs.get("initial", {}) | sent
        form = form_class(**kwargs)
    return form


class GameOptionsForm(forms.BaseForm):
    """A form with a Game choice and the chosen game's option fields, which its template shows
    in a region of their own (the partial "options"): htmx swaps it when the choice changes."""

    def chosen_game(self) -> registry.Game:
        """The one sent, else the one it shows."""
        field = self.fields["game"]
        key = self.data.get("game") if self.is_bound and not field.disabled else None
        key = key or self.initial.get("game") or field.initial
        return registry.all_games().get(key) or registry.get(field.initial)

    def add_option_fields(self, fields: dict[str, forms.Field]) -> None:
        self.option_names = list(fields)
        self.fields |= fields

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.option_names]

    def options(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.option_names}


class LeagueForm(GameOptionsForm, forms.ModelForm):
    # The site's first game unless the organiser chooses another.
    game = forms.ChoiceField(label=_("Game"), choices=registry.choices, required=False)
    tie_break_order = forms.CharField(
        label=_("Tie-break order"),
        required=False,
        help_text=_("Comma-separated, first applied first. Known: %(known)s.")
        % {"known": ", ".join(k for k, _l in TIE_BREAK_CHOICES)},
    )

    class Meta:
        model = League
        fields = [
            "name",
            "game",
            "starts_on",
            "ends_on",
            "points_scheme",
            "is_open",
            "participants",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
            "participants": forms.CheckboxSelectMultiple,
        }

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].initial = registry.first().key
        self.club = club
        self.fields["participants"].queryset = club.members.order_by("username")
        self.fields["participants"].required = False
        self.initial.setdefault("tie_break_order", self.instance.tie_breaks)
        if self.instance.pk and self.instance.games.exists():
            # A league is for one game: its results are of that game.
            self.fields["game"].disabled = True
            self.fields["game"].help_text = _("The league has results: its game stays.")
        self.game = self.chosen_game()
        self.add_option_fields(self.game.league_option_fields())
        if self.instance.game == self.game.key:
            self.initial = self.instance.options | self.initial

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        clash = League.objects.filter(club=self.club, name__iexact=name)
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(_("This club already has a league of that name."))
        return name

    def clean_game(self):
        return self.cleaned_data.get("game") or self.instance.game or registry.first().key

    def clean_tie_break_order(self):
        raw = self.cleaned_data["tie_break_order"] or self.instance.tie_breaks
        order = [part.strip() for part in raw.split(",") if part.strip()]
        known = {k for k, _l in TIE_BREAK_CHOICES}
        unknown = [p for p in order if p not in known]
        if unknown:
            raise forms.ValidationError(
                _("Unknown tie-breaks: %(names)s.") % {"names": ", ".join(unknown)}
            )
        if len(set(order)) != len(order):
            raise forms.ValidationError(_("Each tie-break can appear once."))
        return ",".join(order)

    def clean(self):
        data = super().clean()
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The league cannot end before it starts."))
        return data

    def save(self, commit=True):
        self.instance.club = self.club
        self.instance.tie_breaks = self.cleaned_data["tie_break_order"]
        self.instance.options = self.options()
        return super().save(commit)


class NewPadForm(forms.Form):
    """Up to as many seats as the game has, each a member or a guest's name; empty seats are
    left out."""

    def __init__(self, *args, club, seats: range = range(2, 5), **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        members = club.members.order_by("username")
        for i in range(seats.stop - 1):
            self.fields[f"member_{i}"] = forms.ModelChoiceField(
                members,
                required=False,
                label=_("Seat %(n)s: member") % {"n": i + 1},
                empty_label=_("— guest or empty —"),
            )
            self.fields[f"guest_{i}"] = forms.CharField(
                required=False,
                max_length=60,
                label=_("Seat %(n)s: or a guest's name") % {"n": i + 1},
                widget=forms.TextInput(attrs={"placeholder": _("Guest's name")}),
            )

    def seat_rows(self):
        return [(self[f"member_{i}"], self[f"guest_{i}"]) for i in range(self.seats.stop - 1)]

    def clean(self):
        data = super().clean()
        seats = []
        for i in range(self.seats.stop - 1):
            member, guest = data.get(f"member_{i}"), (data.get(f"guest_{i}") or "").strip()
            if member and guest:
                raise forms.ValidationError(
                    _("Seat %(n)s: choose a member or name a guest, not both.") % {"n": i + 1}
                )
            if member or guest:
                seats.append((member, guest))
        if len(seats) not in self.seats:
            if self.seats == range(2, 5):
                raise forms.ValidationError(_("A game has 2, 3 or 4 players."))
            raise forms.ValidationError(
                _("A game has %(low)s to %(high)s players.")
                % {"low": self.seats.start, "high": self.seats.stop - 1}
            )
        members = [m.pk for m, _g in seats if m]
        guests = [g.lower() for _m, g in seats if g]
        if len(set(members)) != len(members) or len(set(guests)) != len(guests):
            raise forms.ValidationError(_("Each player can sit at the table only once."))
        data["seats"] = seats
        return data
