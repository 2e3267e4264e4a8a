"""Call to Glory: a planted blunder is marked, the AI's choice is not, and the analysis reads
only what the seat saw."""

from __future__ import annotations

import pytest

from games.ctg import ai, engine
from games.ctg.analysis import analyse, decisions_of
from games.ctg.engine.cards import VALUES, full_deck

from .positions import (
    CTG_AFTER_BLUNDER,
    CTG_BLUNDER,
    CTG_D1,
    CTG_D2,
    CTG_SCRIPT,
    ctg_game,
    ctg_record,
)


def _at_blunder(record: dict) -> int:
    """The index of ann's decision on her fourth turn's Action 2."""
    _, todo = decisions_of(record, "ann")
    return len(todo) - 1


def test_it_marks_a_discard_that_hands_the_next_player_the_round_as_a_blunder() -> None:
    record = ctg_record([*CTG_SCRIPT, f"ann: {CTG_BLUNDER}", *CTG_AFTER_BLUNDER])
    # The record is the whole game: bob's fourth set ended it with him first.
    assert engine.result(engine.from_record(record))["placings"]["bob"] == 1
    a = analyse(record, "ann", samples=30)
    d = a.decisions[_at_blunder(record)]
    assert d.played == CTG_BLUNDER
    assert d.best == "lay 14 3"
    assert d.mark == "??"
    assert d.loss >= 15 and d.loss > 2 * d.error
    assert a.accuracy is not None and a.accuracy < 90


def test_it_gives_the_search_ai_choice_there_no_mark() -> None:
    position = engine.from_record(ctg_record(CTG_SCRIPT))
    choice = ai.decide("search", engine.view(position, 0), seed=7, iterations=2000)
    record = ctg_record([*CTG_SCRIPT, f"ann: {choice}"])
    a = analyse(record, "ann", samples=30)
    d = a.decisions[_at_blunder(record)]
    assert d.played == choice
    assert d.mark is None
    assert d.loss < 5


def _hide_differently(record: dict) -> dict:
    """The same game with cy holding a Daimyo (8) instead of an Emperor (6) he never played,
    and the draw piles' unseen cards in another order."""
    deck = list(record["rounds"][0]["deck"])
    assert deck[6] == 6  # cy's second card, never played
    far = len(deck) - 1 - deck[::-1].index(8)  # an 8 deep in D2, never drawn
    assert far > 61 + len(CTG_D2)
    deck[6], deck[far] = deck[far], deck[6]
    # D1 is deck[12:61], D2 deck[61:]: their cards below those drawn, in another order.
    deck[30:61] = deck[30:61][::-1]
    deck[80:] = deck[80:][::-1]
    assert sorted(deck) == sorted(VALUES[t] for t in full_deck())
    old = record["rounds"][0]["deck"]
    # Every card drawn is the same.
    assert deck[12 : 12 + len(CTG_D1)] == old[12 : 12 + len(CTG_D1)]
    assert deck[61 : 61 + len(CTG_D2)] == old[61 : 61 + len(CTG_D2)]
    return {**record, "rounds": [{**record["rounds"][0], "deck": deck}]}


def test_it_analyses_a_seat_the_same_whatever_it_could_not_see() -> None:
    record = ctg_record([*CTG_SCRIPT, f"ann: {CTG_BLUNDER}"])
    other = _hide_differently(record)
    assert other != record
    engine.from_record(other)  # the same actions are legal with the other hidden cards
    first = analyse(record, "ann", seed=3, samples=12).as_json()
    second = analyse(other, "ann", seed=3, samples=12).as_json()
    for out in (first, second):
        out.pop("seconds")
    assert first == second
    # bob saw cy's hand no more than ann did, but he drew from D2: his analysis may differ,
    # and it must still be the same for the same record.
    assert (
        analyse(record, "bob", seed=3, samples=4).decisions
        == analyse(record, "bob", seed=3, samples=4).decisions
    )


def test_it_reports_progress_and_skips_forced_decisions() -> None:
    record = ctg_game(["heuristic", "greedy", "random", "heuristic"], seed=5, rounds=1)
    seen: list[tuple[int, int]] = []
    a = analyse(record, "cy", samples=2, progress=lambda done, total: seen.append((done, total)))
    total = len(a.decisions)
    assert total > 5
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d.index for d in a.decisions] == list(range(total))
    assert all(len(d.options) > 1 for d in a.decisions)
    # One round of four players: after it, cy's placing score.
    places = engine.result(engine.from_record(record))["placings"]
    beaten = sum(1 for n, p in places.items() if n != "cy" and p > places["cy"])
    tied = sum(1 for n, p in places.items() if n != "cy" and p == places["cy"])
    assert a.rounds == pytest.approx(((beaten + tied / 2) / 3,))


def test_it_refuses_a_seat_not_in_the_record() -> None:
    with pytest.raises(ValueError, match="not a player"):
        analyse(ctg_record(CTG_SCRIPT), "zed")


def test_it_refuses_a_record_that_breaks_a_rule() -> None:
    with pytest.raises(ValueError, match="round 1, action 3"):
        analyse(ctg_record(["ann: draw D1", "ann: draw D2", "ann: lay 9 2"]), "ann")
