"""Score wheels: each player's points toward the target, as on the table game's wheels, on the
board, in each round's summary and on the result page.

alice, bob, charlie and dave played a whole game (4 players: the target is 8 points).
"""

import re

import pytest

from games.orc.board import score_wheel
from tests.conftest import persona
from tests.games.orc_helpers import finished_orc_table

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "charlie", "dave"]


@pytest.fixture
def table():
    return finished_orc_table([persona(name) for name in NAMES])


def wheels(html: str) -> list[tuple[int, int, int, int, str]]:
    """Every wheel: points, target, segments filled, segments, and what it says."""
    found = []
    for attrs, inner in re.findall(r'<svg class="score-wheel[^"]*"([^>]*)>(.*?)</svg>', html):
        points = int(re.search(r'data-points="(\d+)"', attrs).group(1))
        target = int(re.search(r'data-target="(\d+)"', attrs).group(1))
        filled, segments = inner.count('class="on"'), inner.count("<path")
        said = re.search(r"<title>(.*?)</title>", inner).group(1)
        shown = re.search(r"<text[^>]*>(\d+)</text>", inner).group(1)
        assert 'role="img"' in attrs and shown == str(points)
        found.append((points, target, filled, segments, said))
    return found


def test_a_wheel_has_a_segment_per_point_up_to_the_target_and_says_its_number():
    wheel = score_wheel(3, 8)
    assert [s["on"] for s in wheel["segments"]] == [True] * 3 + [False] * 5
    assert not wheel["reached"]
    beyond = score_wheel(9, 8)
    assert beyond["reached"] and all(s["on"] for s in beyond["segments"])
    assert len(score_wheel(0, 6)["segments"]) == 6


def test_the_board_shows_each_players_total_on_a_wheel(client, table):
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    totals = table.result["totals"]
    for name in NAMES:
        article = re.search(rf'<article[^>]*data-player="{name}".*?</h2>', html, re.S).group(0)
        points = totals[name]
        assert wheels(article) == [(points, 8, min(points, 8), 8, f"{points} of 8 points")]


def test_each_round_summary_shows_the_round_and_the_total_so_far(client, table):
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    rounds = table.result["rounds"]
    # The rounds' list; the last round's end, still on the finished board, shows one too.
    listed = html[html.index('<section class="rounds">') :]
    summaries = re.findall(r'<details class="round-summary".*?</details>', listed, re.S)
    assert len(summaries) == len(rounds)
    running = dict.fromkeys(NAMES, 0)
    for summary, r in zip(summaries, rounds, strict=True):
        assert f"wizard {r['wizard']}" in summary and f"champion {r['champion']}" in summary
        for name in NAMES:
            running[name] += r["scores"][name]
            row = re.search(rf'<tr data-player="{name}">.*?</tr>', summary, re.S).group(0)
            assert f"<td>{r['scores'][name]}</td>" in row
            assert wheels(row)[0][0] == running[name]
        assert len(re.findall(r"<li>Battle \d, \w+:", summary)) == 4
    assert running == table.result["totals"]


def test_the_result_page_tells_each_round_with_the_wheels(client, table):
    html = client.get(f"/play/t/{table.pk}/result/").content.decode()
    assert 'href="/static/css/orc.css"' in html
    rounds = re.findall(r'<details class="round-summary" data-round="(\d+)" open>', html)
    assert rounds == [str(n) for n in range(1, len(table.result["rounds"]) + 1)]
    last = html[html.rindex('<details class="round-summary"') :]
    assert [w[0] for w in wheels(last)] == [table.result["totals"][n] for n in NAMES]
    # The winner reached the target: his wheel is full.
    winner = min(NAMES, key=lambda n: table.result["placings"][n])
    full = [
        points for points, _target, filled, segments, _said in wheels(last) if filled == segments
    ]
    assert table.result["totals"][winner] in full


def test_the_result_page_names_ai_players_as_their_seats_do(client, alice):
    table = finished_orc_table([alice, persona("bob"), "Sergeant 2", "Sergeant 3"])
    html = client.get(f"/play/t/{table.pk}/result/").content.decode()
    assert '<tr data-player="Sergeant 2"><th scope="row">Sergeant 2</th>' in html
    assert "Sergeant-" not in html.replace('data-player="Sergeant-', "")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_wheels_fit_a_phone_pass_accessibility_checks_and_keep_still_on_request(
    live_server_url, request
):
    from tests.site.test_pages_in_a_browser import PHONE, check

    table = finished_orc_table([persona(name) for name in NAMES])
    paths = [f"/play/t/{table.pk}/", f"/play/t/{table.pk}/result/", f"/history/replay/{table.pk}/"]
    browser = request.getfixturevalue("browser")
    assert check(browser.new_context(**PHONE), live_server_url, paths) == {}
    for motion, duration in (("reduce", "0s"), ("no-preference", "0.4s, 0.4s")):
        page = browser.new_context(**PHONE, reduced_motion=motion).new_page()
        page.goto(live_server_url + paths[1])
        wheel = page.locator(".round-summary .score-wheel path").first
        assert wheel.evaluate("p => getComputedStyle(p).transitionDuration") == duration
