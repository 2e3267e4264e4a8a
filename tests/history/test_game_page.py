"""The game page: scores by round, placings, rating changes, league and replay links."""

from leagues.models import RatingHistory
from tests.history.conftest import online_game, pad_game, when


def test_it_shows_rounds_placings_league_and_rating_changes(client, alice, bob, league):
    earlier = pad_game([alice, bob], [[10, 0, 0, 0], [0, 0, 0, 5]], day=1, league=league)
    game = pad_game([alice, bob], [[30, 30, 0, 0], [10, 10, 10, 10]], day=2, league=league)
    for g, shown_a, shown_b in ((earlier, 1510, 1490), (game, 1532, 1470)):
        for user, display in ((alice, shown_a), (bob, shown_b)):
            RatingHistory.objects.create(
                user=user, game=g, played_at=g.played_at, mu=25, sigma=8, display=display, games=1
            )
    client.force_login(bob)
    html = client.get(f"/history/game/{game.pk}/").content.decode()
    assert "League Spring of Kyoto" in html
    assert "<td>30</td><td>10</td>" in html
    assert "1. " in html and "rating 1532 (+22)" in html and "rating 1470 (-20)" in html
    assert "Replay" not in html


def test_it_links_online_games_to_replay_and_record(client, alice, bob):
    table, game = online_game([alice, bob], seed=2, day=3)
    html = client.get(f"/history/game/{game.pk}/").content.decode()
    assert f"/history/replay/{table.pk}/" in html
    assert f"/history/record/{table.pk}.json" in html
    assert when(3).year == 2026
