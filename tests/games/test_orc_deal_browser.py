"""The deal on one screen, in chromium at a desktop's (1280×800) and a phone's (390×844) size:
every pile and its buttons in view without scrolling, big enough to tap, no keyboard hints on
a touch screen, and the recap of who took which pile once the deal is over (screenshots in
artifacts/orc-deal/).

alice is round 1's wizard; bob plays, on a desktop or a phone; the others race him.
"""

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

from games import actions
from games.orc import engine
from tests.conftest import start_daphne, stop_daphne, url_of, use_redis_layer
from tests.games.orc_helpers import orc_table, people, set_deal
from tests.games.test_browser_play import session_cookie
from tests.games.test_browser_table import open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "orc-deal"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
OTHERS = ["charlie", "dave", "erin", "frank", "grace"]


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def busy_deal(alice, bob, players: int, dealt: int):
    """A table of `players` people in the deal, `dealt` cards down: every player but bob has
    put his deserters and a shield down, bob holds all of his."""
    others = people(*OTHERS[: players - 2])
    table = orc_table(alice, [bob, *others], pace=2.0)
    npiles = engine.new_game([f"p{i}" for i in range(players)], seed=1).npiles
    start = table.record["rounds"][0]["start_after"]
    set_deal(table, 8.02)
    deserters = 2 if players <= 5 else 1
    for i, user in enumerate(others):
        for d in range(deserters):
            actions.play_for(table.pk, user, f"desert P{(3 * i + d) % npiles + 1}", None)
    set_deal(table, start + 0.02)
    for i, user in enumerate(others):
        actions.play_for(table.pk, user, f"shield P{(2 * i + 1) % npiles + 1}", None)
    set_deal(table, dealt + 0.02)
    return table, npiles


# Every pile's box, and each of its buttons' boxes and whether their words fit, in one read:
# a push may redraw a pile at any moment.
BOXES = """() => [...document.querySelectorAll('.orc-pile')].map((pile) => ({
  pile: pile.dataset.pile,
  box: pile.getBoundingClientRect().toJSON(),
  buttons: [...pile.querySelectorAll('button.slap')].map((b) => ({
    kind: b.classList.contains('desert') ? 'desert' : 'shield',
    box: b.getBoundingClientRect().toJSON(),
    fits: b.scrollWidth <= b.clientWidth && b.scrollHeight <= b.clientHeight,
  })),
}))"""


def inside(box: dict, outer: dict) -> bool:
    return (
        box["left"] >= outer["left"] - 0.5
        and box["top"] >= outer["top"] - 0.5
        and box["right"] <= outer["right"] + 0.5
        and box["bottom"] <= outer["bottom"] + 0.5
    )


@pytest.mark.parametrize("players", [4, 7])
@pytest.mark.parametrize(
    ("size", "language"), [("desktop", "en"), ("phone", "en"), ("phone", "de"), ("phone", "fr")]
)
def test_every_pile_and_its_buttons_are_in_view_during_the_deal(
    live_server_url, alice, bob, request, players, size, language
):
    table, npiles = busy_deal(alice, bob, players, dealt=70)
    viewport = SIZES[size]
    cookie = session_cookie(bob, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/", viewport=viewport)
    if language != "en":
        page.context.add_cookies([{**cookie, "name": "django_language", "value": language}])
        page.reload()
        page.wait_for_selector("body[data-ws=open]")
    screen = {"left": 0, "top": 0, "right": viewport["width"], "bottom": viewport["height"]}
    piles = page.evaluate(BOXES)
    shoot(page, f"deal-{size}-{players}-players-{language}")

    assert len(piles) == npiles
    for pile in piles:
        assert inside(pile["box"], screen), f"P{pile['pile']} is out of view: {pile['box']}"
        kinds = [b["kind"] for b in pile["buttons"]]
        assert kinds == ["shield", "desert"], f"P{pile['pile']} offers {kinds}"
        for button in pile["buttons"]:
            box = button["box"]
            assert box["width"] >= 44 and box["height"] >= 44, f"P{pile['pile']} {button}"
            assert inside(box, pile["box"]), f"P{pile['pile']}'s {button['kind']} sticks out"
            assert button["fits"], f"P{pile['pile']}'s {button['kind']} cuts its words"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # The player's own holding and the line saying what happens now are a scroll away.
    assert page.locator("#board .now").is_visible()
    page.locator("article.player.you").scroll_into_view_if_needed()
    assert page.locator("article.player.you").is_visible()
    assert page.errors == []


def test_a_touch_screen_shows_no_keyboard_hints_and_a_desktop_does(
    live_server_url, alice, bob, request
):
    table, _npiles = busy_deal(alice, bob, 4, dealt=60)
    cookie = session_cookie(bob, live_server_url)
    browser = request.getfixturevalue("browser")
    url = f"{live_server_url}/play/t/{table.pk}/"
    phone = open_page(browser, cookie, url, viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    desktop = open_page(browser, cookie, url, viewport=SIZES["desktop"])

    assert phone.locator(".slap-hint").is_visible()
    assert not phone.locator(".slap-hint .keys").is_visible()
    assert phone.locator("kbd:visible").count() == 0
    assert desktop.locator(".slap-hint .keys").is_visible()
    assert desktop.locator("kbd:visible").count() == 9


@pytest.fixture
def server(redis_channel_layer):
    # This process deals too (its slaps set the dealer going here): its pushes reach the
    # pages through Redis.
    daphne = start_daphne(use_redis_layer)
    yield url_of(daphne)
    stop_daphne(daphne)


def test_the_recap_of_who_took_which_pile_appears_when_the_deal_ends(server, alice, bob, request):
    charlie, dave = people("charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave], pace=2.0)
    start = table.record["rounds"][0]["start_after"]
    set_deal(table, 20.02)
    actions.play_for(table.pk, charlie, "desert P2", None)
    set_deal(table, start + 0.02)
    for user, piles in [(bob, (1, 4)), (charlie, (2, 5)), (dave, (2, 7))]:
        for pile in piles:
            actions.play_for(table.pk, user, f"shield P{pile}", None)
    set_deal(table, 60.02)

    cookie = session_cookie(bob, server)
    browser = request.getfixturevalue("browser")
    url = f"{server}/play/t/{table.pk}/"
    pages = {size: open_page(browser, cookie, url, viewport=v) for size, v in SIZES.items()}
    for page in pages.values():
        page.evaluate("window.stayed = true")
        assert not page.locator("#deal-recap").count(), page.inner_text("#board")
    # The deal's last cards (the ORM away from Playwright's event loop).
    with ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: (set_deal(table, 78.02), connection.close())).result()
    for size, page in pages.items():
        page.locator("#deal-recap").wait_for(timeout=20_000)
        assert page.evaluate("window.stayed === true"), "the recap came by a push"
        page.locator("#deal-recap").scroll_into_view_if_needed()
        shoot(page, f"recap-{size}")

    # bob took P1 and P4, charlie P2 (below dave's shield) and P5, dave P7; nobody the rest.
    recap = pages["phone"].locator("#deal-recap")
    taken = {
        li.get_attribute("data-player"): li.get_attribute("data-piles")
        for li in recap.locator("li[data-player]").all()
    }
    assert taken == {"bob": "P1, P4", "charlie": "P2, P5", "dave": "P7"}
    assert recap.locator("[data-nobody]").get_attribute("data-nobody") == "P3, P6, P8, P9"
    # Each player's new holding: his piles' cards, those a deserter removed excepted.
    cards = recap.locator("li[data-player=charlie] [data-card]").count()
    assert cards > 0
    for page in pages.values():
        assert page.locator("#deal-recap").is_visible()
        assert page.errors == []
