"""Player statistics on the profile, over the games the visitor may see."""

from history.stats import profile_stats_context
from tests.history.conftest import online_game, pad_game


def test_it_counts_games_wins_averages_and_best_round(alice, bob, charlie):
    pad_game([alice, bob], [[30, 30, 0, 0], [10, 10, 10, 10]], day=1)
    pad_game([alice, bob, charlie], [[10], [30], [20]], day=2)
    stats = profile_stats_context(alice, alice)
    assert stats["hs_games"] == 2 and stats["hs_wins"] == 1
    assert stats["hs_best_round"] == 30
    assert [
        (r["players"], r["games"], r["average_score"], r["average_place"])
        for r in stats["hs_per_count"]
    ] == [(2, 1, 60.0, 1.0), (3, 1, 10.0, 3.0)]
    h2h = {o["username"]: o for o in stats["hs_opponents"]}
    assert h2h["bob"] == {"username": "bob", "games": 2, "ahead": 1, "behind": 1}
    assert [b["count"] for b in stats["hs_places"]["bars"]] == [1, 1]


def test_it_counts_the_types_laid_from_online_records(alice, bob):
    table, _game = online_game([alice, bob], seed=11)
    laid = sum(
        int(line.split(" ")[-1])
        for rnd in table.record["rounds"]
        for line in rnd["actions"]
        if line.startswith("alice: lay ")
    )
    stats = profile_stats_context(alice, bob)
    (chart,) = stats["hs_tallies"]
    assert chart["title"] == "Favourite characters laid (online games)"
    assert sum(bar["count"] for bar in chart["bars"]) == laid


def test_it_leaves_out_private_club_games_for_outsiders(client, alice, bob, charlie, club):
    pad_game([alice, bob], [[30], [10]], club=club)
    pad_game([alice, charlie], [[30], [10]])
    assert profile_stats_context(alice, charlie)["hs_games"] == 1
    assert profile_stats_context(alice, bob)["hs_games"] == 2
    client.force_login(charlie)
    html = client.get("/accounts/u/alice/").content.decode()
    assert 'id="statistics"' in html and "1 game, 1 won" in html
