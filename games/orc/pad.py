"""De l'Orc's score pad (ORC-RULES.md §7) on the site: the round form and the engine's checks in
the reader's language. A round's entry is stored as seat numbers:
``{"wizard": 0, "champion": 2, "winners": [[1], [], [2, 3], [1]]}``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.orc import names as orc_names
from games.orc.engine import PadError, PadRound, score_pad
from games.registry import PadRefused, PadSheet


def _key(seat: int) -> str:
    # The engine's names admit no spaces; a guest's may have some.
    return f"p{seat}"


def next_wizard(entries: Sequence[dict[str, Any]], players: int) -> int:
    """The wizard passes to the left (§2); the first seat is round 1's."""
    return (entries[-1]["wizard"] + 1) % players if entries else 0


class RoundForm(forms.Form):
    """One round: the wizard, his champion, and who won each battle (nobody when none ticked)."""

    def __init__(self, *args, names: Sequence[str], initial_entry=None, wizard: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.names = list(names)
        seats = [(str(i), name) for i, name in enumerate(self.names)]
        entry = initial_entry or {"wizard": wizard, "champion": None, "winners": [[]] * 4}
        self.fields["wizard"] = forms.TypedChoiceField(
            label=orc_names.WIZARD, choices=seats, coerce=int, initial=str(entry["wizard"])
        )
        self.fields["champion"] = forms.TypedChoiceField(
            label=orc_names.CHAMPION,
            choices=[("", gettext_lazy("— choose —")), *seats],
            coerce=int,
            initial="" if entry["champion"] is None else str(entry["champion"]),
        )
        for number in range(1, 5):
            self.fields[f"battle_{number}"] = forms.TypedMultipleChoiceField(
                label=orc_names.battle(number),
                choices=seats,
                coerce=int,
                required=False,
                initial=[str(s) for s in entry["winners"][number - 1]],
                widget=forms.CheckboxSelectMultiple(attrs={"class": "orc-winner"}),
            )

    def battles(self):
        return [self[f"battle_{number}"] for number in range(1, 5)]

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "wizard": data["wizard"],
            "champion": data["champion"],
            "winners": [sorted(data[f"battle_{number}"]) for number in range(1, 5)],
        }


def refusal(error: PadError, names: Sequence[str]) -> str:
    """The engine's refusal in the reader's language, naming the round and the reason."""
    params = dict(error.params)
    if "wizard" in params:
        params["wizard"] = names[int(str(params["wizard"])[1:])]
    values = {"round": error.round, **params}
    texts = {
        "players": _("De l'Orc pour les Braves is for 4 to 7 players."),
        "no-rounds": _("Enter at least one round."),
        "ended": _(
            "Round %(round)s cannot be played: the game ended after round %(ended_after)s, "
            "when someone reached %(target)s points."
        ),
        "wizard": _("Round %(round)s: the wizard must be one of the players."),
        "rotation": _(
            "Round %(round)s: the wizard passes to the left each round, so this round's wizard "
            "is %(wizard)s."
        ),
        "champion": _("Round %(round)s: the champion must be a player other than the wizard."),
        "battles": _("Round %(round)s: a round has four battles."),
        "winner": _(
            "Round %(round)s: battle %(battle)s can only be won by players other than the wizard."
        ),
        "twice": _("Round %(round)s: battle %(battle)s names a winner twice."),
        "unfinished": _(
            "Round %(round)s: nobody has reached %(target)s points yet, so the game goes on: "
            "enter the next round."
        ),
    }
    return texts[error.code] % values


def sheet(names: Sequence[str], entries: Sequence[dict[str, Any]], *, finished: bool) -> PadSheet:
    n = len(names)
    keys = [_key(seat) for seat in range(n)]

    def key(seat: Any) -> str:
        return keys[seat] if isinstance(seat, int) and 0 <= seat < n else "?"

    rounds = [
        PadRound(
            key(e["wizard"]),
            key(e["champion"]),
            tuple(tuple(key(s) for s in won) for won in e["winners"]),
        )
        for e in entries
    ]
    try:
        result = score_pad(keys, rounds, finished=finished)
    except PadError as error:
        raise PadRefused(refusal(error, names)) from None
    placings = result.get("placings")
    return PadSheet(
        round_scores=[[r["scores"][k] for r in result["rounds"]] for k in keys],
        placings=[placings[k] for k in keys] if placings else None,
        rounds=[
            {
                "wizard": names[entry["wizard"]],
                "champion": names[entry["champion"]],
                "battles": [
                    {
                        "winners": [names[s] for s in won],
                        "points": battle["points"],
                    }
                    for won, battle in zip(entry["winners"], r["battles"], strict=True)
                ],
                "scores": [r["scores"][k] for k in keys],
            }
            for entry, r in zip(entries, result["rounds"], strict=True)
        ],
    )


def from_result(result: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Pad entries from an engine result (§8 shape, keyed by `names`)."""
    seat = {name: i for i, name in enumerate(names)}
    return [
        {
            "wizard": seat[r["wizard"]],
            "champion": seat[r["champion"]],
            "winners": [[seat[w] for w in b["winners"]] for b in r["battles"]],
        }
        for r in result["rounds"]
    ]


def played_rounds(result: dict[str, Any] | None, shown: Mapping[str, str]) -> list[dict] | None:
    """Per round of a result (§8 shape), what a played game's page shows: wizard, champion,
    and per battle its people (when the record tells) and winners; `shown`: the players' names
    as the page shows them, by their names in the result."""
    if result is None:
        return None
    return [
        {
            "wizard": shown.get(r["wizard"], r["wizard"]),
            "champion": shown.get(r["champion"], r["champion"]),
            "battles": [
                {
                    "people": orc_names.people(b["people"]) if b.get("people") else "",
                    "winners": [shown.get(name, name) for name in b["winners"]],
                    "points": b["points"],
                }
                for b in r["battles"]
            ],
        }
        for r in result["rounds"]
    ]
