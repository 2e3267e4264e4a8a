"""Time the seating of a 256-player Swiss round (target: 200 ms or less).

Run: .venv/bin/python benchmarks/seating.py
Plays four rounds with random results (fixed seed), then times the seating of round five.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import (
    GameResult,
    SizeRule,
    meeting_counts,
    repeat_count,
    seat_first_round,
    seat_swiss_round,
    standings,
)

PLAYERS = 256
EARLIER_ROUNDS = 4
# Call to Glory's tables (2 to 4 players, best with 4): games.ctg.game would load Django.
RULE = SizeRule(seats=range(2, 5), preferred=(4,))


def play(tables: list[list[int]], round_number: int, rng: random.Random) -> list[GameResult]:
    return [
        GameResult.from_scores(round_number, {p: rng.randint(60, 220) for p in table})
        for table in tables
    ]


def main() -> None:
    rng = random.Random(2024)
    players = list(range(1, PLAYERS + 1))
    ratings = {p: rng.gauss(1500, 200) for p in players}
    past: list[list[int]] = []
    results: list[GameResult] = []
    tables = seat_first_round(players, ratings=ratings, rule=RULE)
    for round_number in range(1, EARLIER_ROUNDS + 1):
        if round_number > 1:
            standing = [row.player for row in standings(results, players=players)]
            tables = seat_swiss_round(standing, past, rule=RULE)
        past.extend(tables)
        results.extend(play(tables, round_number, rng))

    standing = [row.player for row in standings(results, players=players)]
    timings = []
    for _ in range(5):
        started = time.perf_counter()
        tables = seat_swiss_round(standing, past, rule=RULE)
        timings.append(time.perf_counter() - started)
    naive = [standing[i : i + 4] for i in range(0, PLAYERS, 4)]
    met = meeting_counts(past)
    print(
        f"seated {PLAYERS} players at {len(tables)} tables for round {EARLIER_ROUNDS + 1}: "
        f"best {min(timings) * 1000:.1f} ms, worst {max(timings) * 1000:.1f} ms "
        f"(target 200 ms); repeat meetings {repeat_count(tables, met)} "
        f"(consecutive groups would have {repeat_count(naive, met)})"
    )


if __name__ == "__main__":
    main()
