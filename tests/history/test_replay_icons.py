"""The replay's step buttons draw their arrows themselves: no font has ⏮ and ⏭."""

import re

import pytest

from tests.history.conftest import online_game

pytestmark = pytest.mark.django_db


def test_it_draws_the_replays_first_and_last_buttons_as_icons(client, alice, bob):
    table, _game = online_game([alice, bob], seed=5)
    client.force_login(alice)

    html = client.get(f"/history/replay/{table.pk}/").content.decode()

    for symbol in "⏮⏭◀▶":
        assert symbol not in html
    for link in ("replay-first", "replay-prev", "replay-next", "replay-last"):
        anchor = re.search(rf'<a id="{link}"[^>]*>(.*?)</a>', html, re.S).group(1)
        assert '<svg class="icon"' in anchor and 'aria-hidden="true"' in anchor
