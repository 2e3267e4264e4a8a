"""Run every round of many engine games through the score pad's check (target: no refusals).

Run: .venv/bin/python benchmarks/pad_rounds.py [GAMES_PER_KIND]
Plays random legal games (seeds 0 .. GAMES_PER_KIND - 1, default 300) with 2, 3 and 4 players,
Imperial Tasks with and without the Power of the Ninja, and checks each finished round's set
scores and task bonuses as a club would enter them on the pad. Prints the rounds checked and
every refusal with its game, so a pad check stricter than the rules shows at once.
"""

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ctg.engine import Options, random_game
from games.ctg.engine.pad import check_round

TASKS = frozenset({"imperial-tasks"})
KINDS = [(players, variants) for players in (2, 3, 4) for variants in (TASKS, TASKS | {"ninja"})]


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    checked = 0
    refused: Counter[str] = Counter()
    for players, variants in KINDS:
        ninja = "ninja" in variants
        for seed in range(games):
            state = random_game(Options(players, 3, variants), seed)
            for round_no, played in enumerate(state.history, 1):
                checked += 1
                sets = [s - b for s, b in zip(played.scores, played.bonus, strict=True)]
                problems = check_round(round_no, sets, list(played.bonus), ninja=ninja)
                for problem in problems:
                    refused[problem.code] += 1
                    print(
                        f"{players} players {sorted(variants)} seed {seed} round {round_no}: "
                        f"sets {sets} bonuses {list(played.bonus)}: {problem.code}"
                    )
    print(f"{checked} rounds checked, {sum(refused.values())} refused {dict(refused)}")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
