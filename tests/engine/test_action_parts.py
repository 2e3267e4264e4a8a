"""Taking an action apart gives back exactly what its notation says."""

import pytest

from games.ctg import engine
from games.ctg.engine import ActionParts, action_parts, action_text, parse_action

NAMES = ["ann", "bo b", "cy"]


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("draw D2", ActionParts("draw", "draw D2", pile="D2")),
        ("lay 20 4", ActionParts("lay", "lay 20 4", value=20, count=4)),
        ("discard 7 X2", ActionParts("discard", "discard 7 X2", value=7, pile="X2")),
        ("bury X1", ActionParts("bury", "bury X1", pile="X1")),
        ("ninja bo b 14", ActionParts("ninja", "ninja bo b 14", value=14, target="bo b")),
        ("reveal C18", ActionParts("reveal", "reveal C18", value=18, deck="C")),
        ("end", ActionParts("end", "end")),
    ],
)
def test_it_takes_each_kind_of_action_apart(text, parts):
    assert action_parts(parse_action(text, NAMES), NAMES) == parts


def test_it_takes_every_action_code_apart_consistently_with_its_notation():
    for code in range(engine.N_ACTIONS):
        parts = action_parts(code, NAMES)
        assert parts.text == action_text(code, NAMES)
        assert parts.text.split(" ")[0] == parts.verb
        # Sets of no cards and ninjas against empty seats have codes but no notation.
        if (parts.verb, parts.count) != ("lay", 0) and parts.target in ("", *NAMES):
            assert parse_action(parts.text, NAMES) == code
