"""De l'Orc: a planted blunder is marked, the AI's choice is not, the analysis reads only what
the seat saw, and the deal is summarised."""

from __future__ import annotations

import pytest

from games.orc import ai, engine
from games.orc.analysis import analyse, replay

from .positions import ORC_BLUNDER, ORC_DEAL, orc_game, orc_record


def test_it_marks_every_mercenary_sent_into_a_battle_already_lost_as_a_blunder() -> None:
    record = orc_record([*ORC_DEAL, f"bob: {ORC_BLUNDER}"])
    a = analyse(record, "bob")
    (d,) = a.decisions
    assert (d.index, d.round, d.played) == (0, 1, ORC_BLUNDER)
    assert d.mark == "??"
    assert d.loss >= 15 and d.loss > 2 * d.error
    # Every send bob could make is an option, once: a giant, two trolls, a war machine and
    # two gremlins make 2 × 3 × 2 × 3 of them.
    texts = [o.option for o in d.options]
    assert len(set(texts)) == len(texts) == 36
    assert "send" in texts


def test_it_gives_the_warlord_choice_there_no_mark() -> None:
    _, todo, _ = replay(orc_record([*ORC_DEAL, f"bob: {ORC_BLUNDER}"]), "bob")
    seen = todo[0][0]
    choice = ai.decide("expert", seen, seed=7, iterations=600)
    a = analyse(orc_record([*ORC_DEAL, f"bob: {choice}"]), "bob")
    (d,) = a.decisions
    assert d.played == choice
    assert d.mark is None
    assert d.loss < 5


def _battle_two(dee_sends: str) -> dict:
    """bob keeps his mercenaries in battle 1; in battle 2 (Monsters) dee commits one card face
    down before bob decides."""
    return orc_record(
        [
            *ORC_DEAL,
            "bob: send",
            "dee: send",
            "ann: people M",
            f"dee: send {dee_sends}",
            "bob: send GI",
        ]
    )


def test_it_analyses_a_seat_the_same_whatever_was_committed_face_down() -> None:
    giant, troll = _battle_two("GI"), _battle_two("TR")
    # The battles went differently: dee's giant beat bob's, his troll did not.
    assert engine.result(engine.from_record(giant)) != engine.result(engine.from_record(troll))
    first = analyse(giant, "bob", seed=4, samples=40).as_json()
    second = analyse(troll, "bob", seed=4, samples=40).as_json()
    assert len(first["decisions"]) == 2
    for out in (first, second):
        out.pop("seconds")
    assert first == second


def test_it_summarises_the_deal_without_marking_it() -> None:
    record = orc_record([*ORC_DEAL, f"bob: {ORC_BLUNDER}"])
    (deal,) = analyse(record, "bob", samples=4).deal
    assert (deal.round, deal.wizard, deal.piles_claimed, deal.piles_spoiled) == (1, False, 2, 0)
    assert [(c.pile, c.at, c.won) for c in deal.claims] == [(1, 40, True), (2, 40, True)]
    # Pile 3 (cy's Barbarians) was open when bob claimed pile 1: worth more to his hand.
    assert deal.claims[0].best_pile == 3
    assert deal.claims[0].best_worth > deal.claims[0].worth
    (wizard,) = analyse(record, "ann", samples=4).deal
    assert wizard.wizard and not wizard.claims


def test_it_analyses_a_whole_game_with_progress() -> None:
    record = orc_game(["heuristic", "random", "beginner", "heuristic"], seed=3)
    seen: list[tuple[int, int]] = []
    a = analyse(record, "bob", samples=4, progress=lambda done, total: seen.append((done, total)))
    total = len(a.decisions)
    assert total > 0
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert len(a.deal) == len(record["rounds"])
    assert sum(d.wizard for d in a.deal) == sum(
        1 for i in range(len(record["rounds"])) if i % 4 == 1
    )
    places = engine.result(engine.from_record(record))["placings"]
    beaten = sum(1 for n, p in places.items() if n != "bob" and p > places["bob"])
    tied = sum(1 for n, p in places.items() if n != "bob" and p == places["bob"])
    assert a.rounds[-1] == pytest.approx((beaten + tied / 2) / 3)
    verbs = {d.played.split()[0] for d in a.decisions}
    assert verbs <= {"champion", "spy", "people", "send", "commando", "fly", "shield"}


def test_it_refuses_a_seat_not_in_the_record() -> None:
    with pytest.raises(ValueError, match="not a player"):
        analyse(orc_record(ORC_DEAL), "zed")
