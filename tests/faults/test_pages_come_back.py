"""A page in chromium through faults of the web process that serves it.

alice has the table of a two-player game open in her browser.
"""

from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from django.db import connections

from games.models import Table
from tests.conftest import start_daphne, stop_daphne, url_of
from tests.faults.processes import moves_need_a_redis_that_is_away
from tests.games.test_browser_play import session_cookie
from tests.games.test_browser_table import open_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.browser]


def in_thread(work, *args):
    """The database from a thread of its own: the browser's event loop runs in this one."""

    def run():
        try:
            return work(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


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
