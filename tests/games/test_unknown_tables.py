"""A table id that does not exist answers like a table the visitor may not see: one 404.

Personas: alice hosts a table of her club "Kyoto"; bob is in no club, so her table is as
closed to him as an id that was never used.
"""

import pytest

from accounts.models import Club, Membership
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_table(alice):
    club = Club.objects.create(name="Kyoto", slug="kyoto")
    Membership.objects.create(club=club, user=alice, role=Membership.ORGANISER)
    return open_table(alice, visibility=Table.CLUB, club=club)


def main(response) -> str:
    """What the page says; the rest (a fresh CSRF token, the path) differs on every page."""
    page = response.content.decode()
    return page[page.index("<main>") : page.index("</main>")]


def move(client, table_id):
    return client.post(f"/play/t/{table_id}/play/", {"action": "draw D1", "version": "3"})


@pytest.mark.parametrize("table_id", [0, 999_999, 2**31, 2**63 - 1])
def test_it_answers_a_move_at_a_table_that_does_not_exist_with_not_found(client, bob, table_id):
    client.force_login(bob)
    response = move(client, table_id)
    assert response.status_code == 404
    assert "There is no such table" in response.content.decode()


def test_a_club_table_and_a_missing_one_look_the_same_to_an_outsider(client, bob, club_table):
    client.force_login(bob)
    missing = club_table.pk + 1000
    for path in ["/play/t/{}/", "/play/t/{}/play/", "/history/record/{}.json"]:
        method = client.post if path.endswith("play/") else client.get
        hidden = method(path.format(club_table.pk))
        absent = method(path.format(missing))
        assert hidden.status_code == absent.status_code == 404
        assert main(hidden) == main(absent), path


def test_every_table_url_answers_a_hidden_table_like_a_missing_one(client, bob, club_table):
    from tests.site.test_hostile_input import build, params_of, routes

    client.force_login(bob)
    missing = club_table.pk + 1000
    checked = 0
    for route in routes():
        params = dict(params_of(route))
        if "table_id" not in params:
            continue
        fill = {name: "X1" for name in params}
        hidden = build(route, fill | {"table_id": str(club_table.pk)})
        absent = build(route, fill | {"table_id": str(missing)})
        for method in (client.get, client.post):
            seen, unseen = method(hidden), method(absent)
            assert seen.status_code == unseen.status_code, hidden
            assert seen.status_code in (404, 405), hidden  # 405: a GET where only POST is taken
            if seen.status_code == 404:
                assert main(seen) == main(unseen), hidden
            checked += 1
    assert checked >= 16
