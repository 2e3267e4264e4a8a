"""Call to Glory's score pad (RULES.md §5–§7) on the site: the engine's round checks in the
reader's language."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.ctg.engine.pad import RoundProblem


def problem_text(problem: RoundProblem, names: Sequence[str]) -> str:
    """A round problem in the reader's language: which round, which scores, and why."""
    who_parts = [
        _("%(name)s's %(score)s") % {"name": names[p], "score": s}
        for p, s in zip(problem.players, problem.scores, strict=True)
    ]
    who = (
        who_parts[0]
        if len(who_parts) == 1
        else _("%(list)s and %(last)s") % {"list": ", ".join(who_parts[:-1]), "last": who_parts[-1]}
    )
    values = {"round": problem.round, "who": who, **problem.params}
    texts = {
        "negative": _("Round %(round)s: %(who)s cannot be right: a score is never negative."),
        "not-a-sum": _(
            "Round %(round)s: %(who)s cannot be right: it is not a sum of different card "
            "values (6, 7, 8, 9, 12, 14, 16, 18, 20)."
        ),
        "too-many-types": _(
            "Round %(round)s: %(who)s cannot be right: it needs more than %(limit)s types, "
            "the most one player can hold with %(players)s players."
        ),
        "over-110": _(
            "Round %(round)s: %(who)s cannot all be right: together they make %(total)s, and a "
            "round holds at most 110."
        ),
        "not-disjoint": _(
            "Round %(round)s: %(who)s cannot all be right: each type lies before at most one "
            "player, and no choice of different types for each player gives these scores."
        ),
        "bonus": _(
            "Round %(round)s: the task bonus %(who)s cannot be right: task cards pay 5, 4 or 3 "
            "points per card of a set of at least 2 cards, one card revealed per player."
        ),
        "bonus-ninja": _(
            "Round %(round)s: the task bonus %(who)s cannot be right: task cards pay 5, 4 or 3 "
            "points per card of a set of at least 1 card (a Ninja miniature may leave one), one "
            "card revealed per player."
        ),
        "bonus-without-types": _(
            "Round %(round)s: the task bonus %(who)s cannot be right: that player has no set "
            "in front of them."
        ),
    }
    code = problem.code
    if code == "bonus" and problem.params.get("smallest_set") == 1:
        code = "bonus-ninja"
    return texts[code] % values
