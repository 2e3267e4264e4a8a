"""Text no column can store (NUL, a lone surrogate) is refused with a 400 that says why,
wherever it is sent: path, query or form, page, htmx request or API.

Personas: alice and bob play a running game; charlie is signed out.
"""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse, QueryDict
from django.test import RequestFactory

from ctg_site.middleware import RefuseUnstorableMiddleware
from games import actions
from games.models import ChatMessage
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def running_table(alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    return table


MESSAGE = "cannot be stored: a NUL byte or a broken character"


def test_a_chat_line_with_a_nul_byte_is_refused_and_not_written(client, running_table, alice):
    client.force_login(alice)
    response = client.post(f"/play/t/{running_table.pk}/chat/", {"text": "good\x00luck"})
    assert response.status_code == 400
    assert MESSAGE in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_htmx_gets_the_refusal_as_a_notice(client, running_table, alice):
    client.force_login(alice)
    response = client.post(
        f"/play/t/{running_table.pk}/chat/", {"text": "\x00"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert response.content.decode().startswith('<div class="notice error" role="alert">')
    assert MESSAGE in response.content.decode()


@pytest.mark.parametrize(
    "path", ["/play/join/%00/", "/clubs/join/a%00b/", "/accounts/u/%00/", "/history/?player=%00"]
)
def test_a_nul_byte_in_a_link_gets_a_page_that_says_why(client, path):
    response = client.get(path)
    assert response.status_code == 400
    page = response.content.decode()
    assert "<h1>Bad request</h1>" in page and MESSAGE in page


def test_the_api_says_why_in_json(client):
    response = client.get("/api/v1/ratings/", {"username": "ali\x00ce"})
    assert response.status_code == 400
    assert MESSAGE in response.json()["detail"]


def test_the_message_is_in_the_visitors_language(client):
    response = client.get("/play/join/%00/", headers={"Accept-Language": "de"})
    assert response.status_code == 400
    assert 'lang="de"' in response.content.decode()


def test_a_forged_session_cookie_is_no_session(client):
    client.cookies["sessionid"] = "abcdefgh\x00ijklmn"
    response = client.get("/")
    assert response.status_code == 200
    assert "Sign up" in response.content.decode()


def test_a_lone_surrogate_is_refused_like_a_nul_byte():
    # HTTP form encoding cannot carry one; a server or client that decodes loosely can.
    reached = []
    middleware = RefuseUnstorableMiddleware(
        lambda request: reached.append(request) or HttpResponse()
    )
    request = RequestFactory().post("/play/t/1/chat/")
    request.user = AnonymousUser()
    request.POST = QueryDict(mutable=True)
    request.POST["text"] = "x\ud800"
    assert middleware(request).status_code == 400
    assert not reached
