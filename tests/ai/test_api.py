"""The bot API the site relies on."""

from __future__ import annotations

from games.ctg.ai import DEFAULT_LEVEL, LEVELS, decide
from games.ctg.engine import Options, new_game, view


def test_it_lists_levels_with_names_and_descriptions() -> None:
    assert list(LEVELS)[:3] == ["greedy", "heuristic", "search"]
    assert DEFAULT_LEVEL in LEVELS
    for name, description in LEVELS.values():
        assert name and description


def test_it_answers_in_notation_without_the_player_prefix() -> None:
    state = new_game(Options(3, 1), ["ann", "bob", "cy"], seed=2)
    v = view(state, 0)
    for level in LEVELS:
        text = decide(level, v, seed=1, iterations=20)
        assert text in v["legal_texts"]
        assert ":" not in text
