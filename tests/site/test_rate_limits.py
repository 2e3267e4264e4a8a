"""Floods: sign-ups per address and writes per user and per address answer 429 past their rate.

The limits are lowered here so a test needs a handful of requests, not hundreds.
alice   seat 0 of a running 2-player game, the one who floods.
bob     seat 1 of the same game, who plays on undisturbed.
"""

import json
import time
from functools import partial

import pytest
import redis
import requests
from django.test import Client
from django.urls import reverse

from accounts.limits import SIGNUP_WINDOW
from accounts.models import User
from ctg_site.settings import redis_cache
from games import actions
from games.ctg import engine
from games.models import ChatMessage, Table
from tests.conftest import counting_in_redis, start_daphne, stop_daphne, url_of
from tests.faults.processes import OwnRedis

TOO_FAST = "You are sending requests faster than anyone plays. Please wait a minute and try again."
TOO_MANY_ACCOUNTS = "Too many accounts were created from your network in the last hour."
PASSWORD = "shogun-and-daimyo-77"


# Seconds a test's posts may take, however loaded the machine.
TEST_SECONDS = 20


@pytest.fixture(autouse=True)
def _within_one_window(settings):
    """The counts are kept in fixed windows (accounts/limits.py: a minute for posts, an hour
    for sign-ups) that begin afresh on the clock: a test begun in a window's last seconds
    waits for the next, so that its posts all count in one window."""
    for window in (settings.RATE_LIMIT_WINDOW, SIGNUP_WINDOW):
        left = window - time.time() % window
        if left < TEST_SECONDS:
            time.sleep(left)


@pytest.fixture
def table(alice, bob):
    table = actions.create_table(
        alice,
        seats_count=2,
        options={"rounds": 1},
        visibility=Table.PUBLIC,
        seat_order=Table.HOST_ORDER,
    )
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table


def player(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sign_up(name: str, address: str):
    data = {
        "username": name,
        "email": f"{name}@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return Client().post(reverse("signup"), data, REMOTE_ADDR=address)


def test_it_refuses_sign_ups_from_one_address_past_the_hourly_rate(db, settings):
    settings.RATE_LIMIT_SIGNUPS_PER_ADDRESS = 3
    for n in range(3):
        assert sign_up(f"player{n}", "198.51.100.7").status_code == 302
    response = sign_up("player3", "198.51.100.7")
    assert response.status_code == 429
    assert TOO_MANY_ACCOUNTS in response.content.decode()
    assert response["Retry-After"] == "3600"
    assert not User.objects.filter(username="player3").exists()
    # Someone elsewhere signs up as usual.
    assert sign_up("player4", "203.0.113.20").status_code == 302


def test_it_counts_only_sign_ups_that_would_make_an_account(db, settings):
    settings.RATE_LIMIT_SIGNUPS_PER_ADDRESS = 1
    mismatch = {
        "username": "dora",
        "email": "dora@example.com",
        "password1": PASSWORD,
        "password2": "typo",
    }
    client = Client()
    for _ in range(3):
        assert client.post(reverse("signup"), mismatch).status_code == 200
    assert sign_up("dora", "127.0.0.1").status_code == 302


def test_it_refuses_a_flood_of_moves_without_applying_the_move(table, alice, bob, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = 5
    url = reverse("table_play", args=[table.pk])
    flooder = player(alice)
    for _ in range(5):
        response = flooder.post(url, {"action": "fly away", "version": 0}, HTTP_HX_REQUEST="true")
        assert response.status_code == 400

    state = table.state()
    assert state.decider == 0
    move = engine.action_text(state.legal_actions()[0], state.names)
    response = flooder.post(url, {"action": move, "version": 0}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 429
    # htmx swaps it into the table's notice, like any refusal: a fragment, not a page.
    assert body.strip() == f'<div class="notice error" role="alert">{TOO_FAST}</div>'
    assert response["Retry-After"] == "60"
    table.refresh_from_db()
    assert table.version == 0
    assert f"alice: {move}" not in table.record["rounds"][0]["actions"]

    # bob has his own allowance: his chat line gets through.
    chat = player(bob).post(
        reverse("table_chat", args=[table.pk]), {"text": "slow down"}, HTTP_HX_REQUEST="true"
    )
    assert chat.status_code == 200
    assert ChatMessage.objects.filter(table=table, text="slow down").exists()


def test_it_counts_a_player_over_all_their_addresses(table, alice, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = 2
    url = reverse("table_chat", args=[table.pk])
    client = player(alice)
    client.post(url, {"text": ""}, REMOTE_ADDR="198.51.100.7")
    client.post(url, {"text": ""}, REMOTE_ADDR="203.0.113.20")
    response = client.post(url, {"text": "hello"}, REMOTE_ADDR="192.0.2.1")
    assert response.status_code == 429
    assert not ChatMessage.objects.filter(text="hello").exists()


def test_it_answers_a_page_to_a_plain_form_post(table, alice, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = 1
    client = player(alice)
    url = reverse("table_chat", args=[table.pk])
    client.post(url, {"text": ""})
    response = client.post(url, {"text": "hello"})
    body = response.content.decode()
    assert response.status_code == 429
    assert "<h1>Too many requests</h1>" in body
    assert TOO_FAST in body
    assert "<html" in body


def test_it_bounds_the_posts_of_one_address_across_visitors(db, settings):
    settings.RATE_LIMIT_POSTS_PER_ADDRESS = 3
    for n in range(3):
        response = Client().post(
            reverse("login"), {"username": f"x{n}", "password": "y"}, REMOTE_ADDR="198.51.100.7"
        )
        assert response.status_code == 200
    refused = Client().post(
        reverse("login"), {"username": "x9", "password": "y"}, REMOTE_ADDR="198.51.100.7"
    )
    assert refused.status_code == 429
    assert TOO_FAST in refused.content.decode()
    elsewhere = Client().post(
        reverse("login"), {"username": "x9", "password": "y"}, REMOTE_ADDR="203.0.113.20"
    )
    assert elsewhere.status_code == 200


def test_it_answers_json_under_the_api(db, settings):
    settings.RATE_LIMIT_POSTS_PER_ADDRESS = 1
    client = Client()
    client.post(reverse("api_games"))
    response = client.post(reverse("api_games"))
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"error": TOO_FAST}


def test_it_never_bounds_reading(table, alice, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = 1
    settings.RATE_LIMIT_POSTS_PER_ADDRESS = 1
    client = player(alice)
    for _ in range(5):
        assert client.get(reverse("table", args=[table.pk])).status_code == 200


def test_it_answers_in_the_visitors_language(table, alice, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = 0
    client = player(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.post(reverse("table_chat", args=[table.pk]), {"text": "bonjour"})
    assert response.status_code == 429
    assert '<html lang="fr">' in response.content.decode()


def test_it_keeps_the_count_in_redis_for_every_process(table, alice, bob, settings, redis_url):
    settings.CACHES = {"default": redis_cache(redis_url)}
    settings.RATE_LIMIT_POSTS_PER_USER = 2
    url = reverse("table_chat", args=[table.pk])
    # Two sessions stand for two web processes: the count is in Redis, not in either.
    for client in (player(alice), player(alice)):
        client.post(url, {"text": ""})
    response = player(alice).post(url, {"text": "hello"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 429
    assert TOO_FAST in response.content.decode()
    assert player(bob).post(url, {"text": "fine"}, HTTP_HX_REQUEST="true").status_code == 200
    server = redis.Redis.from_url(redis_url)
    counters = server.keys("*limit:post-user*")
    assert counters
    # A count lasts its window, and no longer.
    assert all(0 < server.ttl(key) <= settings.RATE_LIMIT_WINDOW + 1 for key in counters)


def test_a_web_process_counts_every_post_over_the_connections_it_keeps(transactional_db):
    # Under an ASGI server each request has a cache of its own: every POST used to connect to
    # Redis afresh, and leave the connection to the garbage collector. A Redis of the test's
    # own counts the connections of this server alone (other tests' and runs' connect too).
    own = OwnRedis()
    own.start()
    server = start_daphne(partial(counting_in_redis, own.url))
    try:
        stats = redis.Redis.from_url(own.url)
        before = stats.info("stats")["total_connections_received"]
        home = url_of(server) + "/"
        with requests.Session() as browser:
            browser.get(home).raise_for_status()  # its language switcher sets the CSRF cookie
            for _ in range(20):
                form = {"language": "fr", "csrfmiddlewaretoken": browser.cookies["csrftoken"]}
                answer = browser.post(f"{home}i18n/setlang/", form, headers={"Referer": home})
                assert answer.status_code == 200
        opened = stats.info("stats")["total_connections_received"] - before
        assert stats.keys("*limit:post-address*")  # the posts were counted, in Redis
    finally:
        stop_daphne(server)
        own.kill()
    assert opened <= 3


def test_it_lets_posts_through_uncounted_while_redis_is_away(
    table, alice, settings, caplog, monkeypatch
):
    # Nothing answers on port 1: Redis is away (a restart). The counts only assist, so the
    # move is played, and /healthz tells how many posts went uncounted.
    from accounts import limits

    monkeypatch.setattr(limits, "failed_open", limits.FailOpen())  # this test's own tally
    settings.CACHES = {"default": redis_cache("redis://127.0.0.1:1/0")}
    state = table.state()
    move = engine.action_text(state.legal_actions()[0], state.names)

    response = player(alice).post(
        reverse("table_play", args=[table.pk]),
        {"action": move, "version": 0},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 204
    table.refresh_from_db()
    assert table.version > 0
    assert "rate limits fail open" in caplog.text
    shown = Client().get("/healthz").json()["rate_limits"]
    # Two counts for the move (its address, its user), the second not even tried: Redis was
    # found away a moment before.
    assert shown["failed_open"] == 2
    assert shown["seconds_since_failed_open"] < 5
