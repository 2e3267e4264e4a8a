"""Templates compare a model's choice fields to its TextChoices (`game.Status.CONFIRMED`),
never to a bare string that a renamed value would silently stop matching."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# The models' choice fields ("kind" aside: De l'Orc's pile entries have a kind that is no field).
CHOICE_FIELDS = "status|source|mode|role|seat_order|visibility|clock|timeout_policy|seeding"
BARE = re.compile(rf"\.({CHOICE_FIELDS})\s*(==|!=)\s*[\"']")


def test_it_compares_choice_fields_to_their_choices():
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}: {line.strip()}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if BARE.search(line)
    ]
    assert not found, "\n".join(found)
