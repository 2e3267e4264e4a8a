"""Two daphne instances on one Redis: a move made through one reaches a socket on the other."""

import asyncio
import re
import urllib.request

import pytest
import websockets
from django.test import Client

from games.ctg import engine
from tests.conftest import start_daphne, stop_daphne, url_of, use_redis_layer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_daphnes(redis_url):
    servers = [start_daphne(use_redis_layer), start_daphne(use_redis_layer)]
    yield [url_of(server) for server in servers]
    for server in servers:
        stop_daphne(server)


def test_it_carries_a_move_to_a_socket_on_another_daphne(two_daphnes, running_table, alice, bob):
    first, second = two_daphnes
    client = Client()
    client.force_login(alice)
    cookies = {"sessionid": client.cookies["sessionid"].value}
    state = running_table.state()
    text = engine.action_text(state.legal_actions()[0], state.names)

    def http(url, data=None, headers=()):
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        request = urllib.request.Request(
            url, data=data, headers={"Cookie": cookie, **dict(headers)}
        )
        with urllib.request.urlopen(request) as response:
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                cookies[name] = rest.split(";")[0]
            return response.status, response.read().decode()

    _, page = http(f"{first}/play/t/{running_table.pk}/")
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)

    async def scenario():
        ws_url = second.replace("http", "ws") + f"/ws/tables/{running_table.pk}/"
        cookie = f"sessionid={cookies['sessionid']}"
        async with websockets.connect(
            ws_url, origin="http://localhost", additional_headers={"Cookie": cookie}
        ) as socket:
            await asyncio.wait_for(socket.recv(), 10)  # the board on connect
            body = f"action={text.replace(' ', '+')}&version=0".encode()
            status, _ = await asyncio.to_thread(
                http,
                f"{first}/play/t/{running_table.pk}/play/",
                body,
                {
                    "X-CSRFToken": token,
                    "HX-Request": "true",
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Referer": first + "/",
                }.items(),
            )
            assert status == 204
            return await asyncio.wait_for(socket.recv(), 10)

    pushed = asyncio.run(scenario())

    assert int(re.search(r'data-version="(\d+)"', pushed).group(1)) >= 1
    assert 'data-viewer="0"' in pushed, "rendered for alice, the socket's owner"
