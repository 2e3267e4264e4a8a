from tests.tournaments.pairing.sizes import CALL_TO_GLORY
from tournaments.pairing import (
    GameResult,
    first_stage,
    meeting_counts,
    qualification_marks,
    repeat_count,
    seat_first_round,
    seat_swiss_round,
    standings,
)

# Nine players, two Swiss rounds at tables of 3, then a final table of the top 4.
PLAYERS = list(range(1, 10))
# Each player's score in a game; higher ids score more, so the standing is predictable.
SCORE = {p: 40 + 10 * p for p in PLAYERS}


def play(tables: list[list[int]], round_number: int) -> list[GameResult]:
    return [GameResult.from_scores(round_number, {p: SCORE[p] for p in t}) for t in tables]


def test_it_runs_two_swiss_rounds_and_a_cut_to_a_final_table() -> None:
    round_one = seat_first_round(PLAYERS, seeding="random", seed=42, max_size=3, rule=CALL_TO_GLORY)
    assert sorted(len(t) for t in round_one) == [3, 3, 3]
    results = play(round_one, 1)
    standing = [row.player for row in standings(results, players=PLAYERS)]

    round_two = seat_swiss_round(standing, round_one, max_size=3, rule=CALL_TO_GLORY)
    assert sorted(p for t in round_two for p in t) == PLAYERS
    # Nine players at tables of 3 can always avoid every round-one opponent.
    assert repeat_count(round_two, meeting_counts(round_one)) == 0
    # With this draw nobody who started in round one starts again.
    assert not {t[0] for t in round_one} & {t[0] for t in round_two}
    results += play(round_two, 2)

    rows = standings(results, players=PLAYERS)
    points = {row.player: row.points for row in rows}
    marks = qualification_marks(points, cut=4, rounds_left=0, max_per_round=3)
    top = [row.player for row in rows[:4]]
    assert all(marks[p] in ("qualified", "open") for p in top)
    assert all(marks[row.player] in ("eliminated", "open") for row in rows[4:])

    final = first_stage(top, rule=CALL_TO_GLORY)
    assert len(final.tables) == 1
    assert sorted(final.tables[0]) == sorted(top)
    # The lowest seed starts the final.
    assert final.tables[0][0] == top[-1]
