"""Every level plays whole games with legal reactions and decisions, at human speed."""

from __future__ import annotations

import statistics

import pytest

from games.orc.ai import LEVELS, MIN_DELAY, decide
from games.orc.engine import view
from tests.orc.engine.helpers import act, after_recruitment

from .helpers import play_game

ALL = ["random", *LEVELS]


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_it_plays_whole_games_with_legal_choices_only(players: int) -> None:
    # Every level at the table, in a different seat for each player count.
    levels = [ALL[(i + players) % len(ALL)] for i in range(players)]
    for seed in range(2):
        played = play_game(levels, seed=100 * players + seed)
        assert played.state.game_over
        assert max(played.state.totals) >= played.state.target
        assert played.reactions > 0 and played.decisions > 0


def test_it_never_reacts_faster_than_a_person_and_the_beginner_is_slowest() -> None:
    delays: dict[str, list[float]] = {}
    for seed in range(3):
        played = play_game(["heuristic", "beginner", "expert", "heuristic", "beginner"], seed)
        for level, ds in played.delays.items():
            delays.setdefault(level, []).extend(ds)
    assert min(min(ds) for ds in delays.values()) >= MIN_DELAY
    median = {level: statistics.median(ds) for level, ds in delays.items()}
    assert median["beginner"] > median["heuristic"] > median["expert"]
    assert min(delays["beginner"]) > max(min(delays["heuristic"]), min(delays["expert"]))
    # The easy level's hand is also the least steady.
    assert statistics.pstdev(delays["beginner"]) > statistics.pstdev(delays["expert"])


@pytest.mark.parametrize("level", ALL)
def test_it_leaves_an_army_alone_that_a_commando_would_only_strengthen(level: str) -> None:
    # Battle 4, the Dwarves: dee's are worth 0 with two chiefs, and taking a chief would
    # give her 12. She sent no mercenary, so her people's cards are the only legal target.
    s = after_recruitment(4, {1: ["D2", "GR", "GI", "TR", "WM", "CG"], 3: ["D6", "DC", "DC"]})
    for people in "BMS":
        act(s, f"ann: people {people}")
        act(s, "bob: send")
    assert s.pending == "send" and s.people == 3
    act(s, "bob: send")
    assert s.pending == "commando"
    v = view(s, 1)
    assert v["legal"] == ["commando pass", "commando dee people"]
    for seed in range(10):
        choice = decide(level, v, seed=seed, iterations=40)
        assert choice in v["legal"]
        if level in ("heuristic", "expert"):
            assert choice == "commando pass"
