"""A page in chromium through faults of the web process that serves it.

alice has the table of a two-player game open in her browser.
"""

from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from django.db import connection, connections

from games import actions
from games.ctg import engine
from games.models import Table
from tests import services
from tests.conftest import start_daphne, stop_daphne, url_of
from tests.faults.processes import Balancer, Cluster, moves_need_a_redis_that_is_away
from tests.games.test_browser_play import session_cookie
from tests.games.test_browser_table import open_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.browser]

# A page must be back with the whole board this soon after its daphne died.
BACK_WITHIN = 2.0
# The close and open of the page's socket, in the page's own clock.
WATCH_SOCKET = """() => {
    window.socketTimes = [];
    for (const kind of ["htmx:wsClose", "htmx:wsOpen"]) {
        const note = () => window.socketTimes.push([kind, performance.now()]);
        document.body.addEventListener(kind, note);
    }
}"""


def in_thread(work, *args):
    """The database from a thread of its own: the browser's event loop runs in this one."""

    def run():
        try:
            return work(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def move_unheard(table_id: int) -> int:
    """The next move, saved by this process: no page hears of it. The version it makes."""
    table = Table.objects.get(pk=table_id)
    state = table.state()
    text = engine.action_text(state.legal_actions()[0], state.names)
    actions.play(table_id, state.decider, text, table.version)
    return Table.objects.get(pk=table_id).version


@pytest.fixture
def balanced(own_redis, tmp_path):
    """Two daphnes on the test's own Redis, behind a balancer."""
    services.need("PostgreSQL", connection.vendor == "postgresql", "the daphnes share it")
    cluster = Cluster(own_redis, tmp_path)
    balancer = None
    try:
        cluster.start_daphnes("a", "b")
        balancer = Balancer([cluster.ports["a"], cluster.ports["b"]])
        yield cluster, balancer
    finally:
        if balancer is not None:
            balancer.close()
        cluster.stop_all()


def test_a_page_is_back_on_another_daphne_at_once_with_the_whole_board(
    balanced, running_table, alice, request
):
    cluster, balancer = balanced
    table_id = running_table.pk
    url = f"{balancer.url}/play/t/{table_id}/"
    cookie = session_cookie(alice, balancer.url)
    page = open_page(request.getfixturevalue("browser"), cookie, url)

    # The page's own schedule: a first try after a little jitter, then about a second apart.
    delays = page.evaluate(
        """() => typeof htmx.config.wsReconnectDelay !== "function" ? null
            : [...Array(400).keys()].map((i) => htmx.config.wsReconnectDelay(i % 8))"""
    )
    assert delays is not None, "a schedule of the site's own, not the growing default"
    assert max(delays[0::8]) <= 400
    assert max(delays) <= 1200

    # A move her page does not hear of; then the daphne holding her socket dies.
    version = in_thread(move_unheard, table_id)
    page.evaluate(WATCH_SOCKET)
    socket_at = balancer.backend_of(f"GET /ws/tables/{table_id}/")
    cluster.kill(next(n for n, p in cluster.ports.items() if p == socket_at))
    page.wait_for_function(
        "v => document.querySelector('#board').dataset.version === String(v)",
        arg=version,
        timeout=10_000,
    )
    times = dict(page.evaluate("window.socketTimes"))
    back = (times["htmx:wsOpen"] - times["htmx:wsClose"]) / 1000
    print(f"\nthe page was back on the other daphne {back:.2f} s after its own died")
    assert back <= BACK_WITHIN
    assert balancer.backend_of(f"GET /ws/tables/{table_id}/") != socket_at
    assert page.errors == []


def test_a_refused_move_says_to_try_again_in_the_page(own_redis, running_table, alice, request):
    server = start_daphne(partial(moves_need_a_redis_that_is_away, own_redis.url))
    try:
        base = url_of(server)
        cookie = session_cookie(alice, base)
        page = open_page(
            request.getfixturevalue("browser"), cookie, f"{base}/play/t/{running_table.pk}/"
        )
        page.click("form.decision button[data-action]")
        page.wait_for_selector("#notice .notice.error")
        assert page.inner_text("#notice") == (
            "The site could not reach one of its services just now. "
            "Please try again in a few seconds."
        )

        # No answer at all (its web process went away), or a proxy's bare 502: the same words.
        for answer in ("abort", "502"):
            page.evaluate("document.getElementById('notice').replaceChildren()")
            page.route(
                "**/play/",
                lambda route, answer=answer: (
                    route.abort()
                    if answer == "abort"
                    else route.fulfill(status=502, body="Bad Gateway")
                ),
            )
            page.click("form.decision button[data-action]")
            page.wait_for_selector("#notice .notice.error")
            assert page.inner_text("#notice") == (
                "The site did not answer. Please try again in a few seconds."
            ), answer
            page.unroute("**/play/")
        now = in_thread(lambda: Table.objects.get(pk=running_table.pk).version)
        assert now == running_table.version
    finally:
        stop_daphne(server)
