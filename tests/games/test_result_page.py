"""A real result: who won in words, each round's breakdown, the replay, rating changes.

alice and bob played a finished four-round game; charlie watched (public table).
"""

import re

import pytest
from django.test import Client

from games import actions
from games.ctg import engine
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db(transaction=True)


def finished(alice, bob, rated=False):
    table = open_table(alice, rounds=4, rated=rated)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    while table.status == Table.RUNNING:
        if table.pause_until is not None:
            for user in (alice, bob):
                actions.continue_round(table.pk, user)
        else:
            state = table.state()
            seat = state.decider
            actions.play(table.pk, seat, engine.view(state, seat)["legal_texts"][0], table.version)
        table.refresh_from_db()
    return table


def get(user, url):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(url).content.decode()


def test_it_says_who_won_to_each_player_and_to_onlookers(alice, bob, charlie):
    table = finished(alice, bob)
    places = table.result["placings"]
    winner, loser = sorted(["alice", "bob"], key=lambda n: places[n])
    users = {"alice": alice, "bob": bob}
    assert places[winner] == 1 and places[loser] == 2, "a shared first place: pick another game"

    url = f"/play/t/{table.pk}/result/"
    assert '<p class="headline" data-zone="headline">You won!</p>' in get(users[winner], url)
    assert "You placed 2nd of 2." in get(users[loser], url)
    assert f"{winner} won." in get(charlie, url)
    # On the board too, where the game ended.
    assert f'<strong class="headline">{winner} won.</strong>' in get(
        charlie, table.get_absolute_url()
    )


def test_the_final_board_names_the_winner_to_every_player(alice, bob, charlie):
    table = finished(alice, bob)
    places = table.result["placings"]
    winner, loser = sorted(["alice", "bob"], key=lambda n: places[n])
    users = {"alice": alice, "bob": bob}
    assert places[winner] == 1 and places[loser] == 2, "a shared first place: pick another game"

    def headline(user) -> str:
        html = get(user, table.get_absolute_url())
        return re.search(r'<strong class="headline">(.*?)</strong>', html, re.S).group(1)

    assert headline(users[winner]) == "You won!"
    assert headline(users[loser]) == f"{winner} won. You placed 2nd of 2."
    assert headline(charlie) == f"{winner} won."
    # The result page says it the same way.
    result = get(users[loser], f"/play/t/{table.pk}/result/")
    assert f'data-zone="headline">{winner} won. You placed 2nd of 2.</p>' in result


def test_the_final_board_names_the_winner_in_the_player_s_language(alice, bob):
    table = finished(alice, bob)
    places = table.result["placings"]
    winner, loser = sorted([alice, bob], key=lambda u: places[u.username])
    loser.preferred_language = "fr"
    loser.save()
    html = get(loser, table.get_absolute_url())
    assert f"{winner.username} a gagné. Vous êtes 2e sur 2." in html


def test_it_breaks_each_round_down_and_links_the_replay(alice, bob):
    table = finished(alice, bob)
    html = get(alice, f"/play/t/{table.pk}/result/")

    assert f'href="/history/replay/{table.pk}/"' in html
    rounds = re.findall(r'<section class="round-end" data-round="(\d)"', html)
    assert rounds == ["1", "2", "3", "4"]
    for n, r in enumerate(table.result["rounds"], 1):
        section = html[html.index(f'data-round="{n}"') :]
        section = section[: section.index("</section>")]
        for name, score in r["scores"].items():
            row = re.search(rf"<th scope=\"row\">{name}</th>.*?</tr>", section, re.S).group(0)
            assert f"<strong>{score}</strong>" in row


def test_it_shows_the_rating_changes_of_a_rated_game(alice, bob):
    from leagues import rating_jobs
    from leagues.models import RecomputeJob

    table = finished(alice, bob, rated=True)
    for job in RecomputeJob.objects.filter(status=RecomputeJob.QUEUED):
        rating_jobs.recompute_ratings(job.pk)

    html = get(alice, f"/play/t/{table.pk}/result/")
    assert f'hx-get="/play/t/{table.pk}/ratings/"' in html
    fragment = get(alice, f"/play/t/{table.pk}/ratings/")
    for name in ("alice", "bob"):
        assert re.search(rf'<li data-player="{name}">{name}: <strong>\d+</strong>', fragment)
