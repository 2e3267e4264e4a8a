"""Card art: every card has a picture, and pages draw a player's cards with it and their names.

The names are text of the page's language, never part of the pictures.
"""

import re
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games import actions
from games.ctg import engine, replay
from games.ctg.engine.cards import TASK_DECKS, VALUES
from games.orc import engine as orc_engine
from games.orc import names as orc_names
from games.records import action_lines
from tests.games.conftest import open_table
from tests.history.conftest import online_game

ART = Path(settings.BASE_DIR) / "games" / "ctg" / "static" / "img"  # Call to Glory's
SITE_ART = Path(settings.BASE_DIR) / "static" / "img"
SVG = "{http://www.w3.org/2000/svg}svg"
GERMAN = {
    6: "Kaiser",
    7: "Kaiserin",
    8: "Daimyo",
    9: "Shogun",
    12: "Samurai",
    14: "Ninja",
    16: "Gesandter",
    18: "Mönch",
    20: "Bauer",
}


@pytest.mark.parametrize(
    "name",
    [f"ctg/card-{value}.svg" for value in VALUES]
    + ["ctg/back.svg", "ctg/ninja.svg", "favicon.svg"]
    + [f"ctg/task-{deck}.svg" for deck in TASK_DECKS],
)
def test_every_card_has_art_that_parses_as_svg(name):
    root = ElementTree.parse((SITE_ART if name == "favicon.svg" else ART) / name).getroot()
    assert root.tag == SVG
    assert root.get("viewBox")


def test_the_stylesheet_draws_every_picture():
    css = (Path(settings.BASE_DIR) / "games" / "ctg" / "static" / "css" / "ctg.css").read_text()
    for value in VALUES:
        assert f'.art-{value} {{ background-image: url("../img/ctg/card-{value}.svg"); }}' in css
    for deck in TASK_DECKS:
        assert f'.art-task-{deck} {{ background-image: url("../img/ctg/task-{deck}.svg"); }}' in css
    assert '.art-back { background-image: url("../img/ctg/back.svg"); }' in css
    assert '.art-ninja { background-image: url("../img/ctg/ninja.svg"); }' in css


def test_no_picture_carries_a_name():
    # Names are translated text on the page; a picture may only carry numbers and deck letters.
    for path in ART.rglob("*.svg"):
        texts = [t.text for t in ElementTree.parse(path).iter("{http://www.w3.org/2000/svg}text")]
        assert all(t.strip().lstrip("+").isdigit() or t in TASK_DECKS for t in texts), path


class _Cards(HTMLParser):
    """Per zone, the cards drawn in it: value, pictures (their classes and labels), visible name."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.cards: dict[str, list[dict]] = {}
        self.card: dict | None = None
        self.in_name = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        zone = next((a["data-zone"] for _, a in reversed(self.stack) if "data-zone" in a), None)
        if "data-card" in attrs or "data-task" in attrs:
            self.card = {"attrs": attrs, "images": [], "name": ""}
            self.cards.setdefault(zone, []).append(self.card)
        elif "art" in (attrs.get("class") or "").split() and self.card is not None:
            self.card["images"].append(attrs)
        self.in_name = "card-name" in (attrs.get("class") or "").split()
        self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        self.in_name = False
        while self.stack:
            open_tag, attrs = self.stack.pop()
            if "data-card" in attrs or "data-task" in attrs:
                self.card = None
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self.in_name and self.card is not None:
            self.card["name"] += data


def cards_in(html: str) -> dict[str, list[dict]]:
    parser = _Cards()
    parser.feed(html)
    return parser.cards


def in_german(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"


def assert_drawn_in_german(card: dict) -> None:
    value = int(card["attrs"]["data-card"])
    art = card["images"][0]
    assert f"art-{value}" in art["class"].split()
    assert art["role"] == "img"
    assert art["aria-label"] == f"{GERMAN[value]} ({value})"
    assert card["name"] == GERMAN[value]


def test_the_table_draws_the_viewers_hand_with_art_and_german_names(client, running_table, alice):
    in_german(client, alice)
    html = client.get(f"/play/t/{running_table.pk}/").content.decode()

    hand = cards_in(html)["hand"]
    held = engine.view(running_table.state(), 0)["hand"]
    assert sorted(int(c["attrs"]["data-card"]) for c in hand) == sorted(int(v) for v in held)
    for card in hand:
        assert_drawn_in_german(card)
    # The draw piles show the card back only, with their sizes; no page draws an <img> tag.
    assert html.count("art-back") == 2
    assert "<img" not in html


def test_the_replay_draws_the_seats_hand_with_art_and_german_names(client, alice, bob):
    table, _game = online_game([alice, bob], seed=7)
    in_german(client, alice)
    step = len(action_lines(table.record)) // 2
    html = client.get(f"/history/replay/{table.pk}/?step={step}&seat=0").content.decode()

    cards = cards_in(html)
    held = replay.position(table.record, step).hands[0]
    assert {int(c["attrs"]["data-card"]) for c in cards["hand"]} == {
        VALUES[t] for t, n in enumerate(held) if n
    }
    for card in cards["hand"] + cards.get("sets", []):
        assert_drawn_in_german(card)


def test_task_cards_show_the_decks_frame_and_the_named_character(client, alice, bob):
    table = open_table(alice, rounds=3, imperial_tasks=True, ninja=True)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    in_german(client, alice)
    html = client.get(f"/play/t/{table.pk}/").content.decode()

    tasks = cards_in(html)["tasks"]
    assert len(tasks) == 3
    for task in tasks:
        code = task["attrs"]["data-task"]
        deck, value = code[0], int(code[1:])
        frame, named = (image["class"].split() for image in task["images"])
        assert f"art-task-{deck}" in frame and f"art-{value}" in named
        assert task["images"][0]["aria-label"] == f"{deck}: {GERMAN[value]} ({value})"
        assert task["name"] == f"{deck}: {GERMAN[value]} ({value})"
    # All four miniatures wait in the supply.
    assert html.count("art-ninja") == 4


def test_the_site_icon_is_linked_and_answers_at_favicon_ico(client):
    assert "img/favicon.svg" in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith("img/favicon.svg")


# De l'Orc: one sprite of our own pictures, a symbol per people and per kind of mercenary.
ORC_SPRITE = Path(settings.BASE_DIR) / "static" / "img" / "orc" / "cards.svg"
ORC_KINDS = {
    f"orc-{kind}" for kind in ["B", "M", "S", "D", "GI", "TR", "WM", "GR", "FM", "CG", "SP"]
}
PICTURE = re.compile(
    r'data-card="(\w+)"[^>]*>\s*<span class="face" aria-hidden="true">'
    r'<svg class="art" focusable="false"><use href="([^"#]*)#([\w-]+)"/></svg>'
    r'(?:(<svg class="art crown")|<b>([^<]*)</b>)?'
)


def orc_symbols() -> dict[str, bytes]:
    root = ElementTree.parse(ORC_SPRITE).getroot()
    return {
        symbol.get("id"): ElementTree.tostring(symbol)
        for symbol in root.iter("{http://www.w3.org/2000/svg}symbol")
    }


def test_de_lorc_has_its_own_picture_for_each_people_and_each_kind_of_mercenary():
    symbols = orc_symbols()
    assert {orc_names.face(code)["icon"] for code in orc_engine.CODES} == ORC_KINDS
    assert ORC_KINDS | {"orc-X", "orc-crown", "orc-shield", "orc-deserter"} <= set(symbols)
    # Each a shape of its own, not another's in a different colour: told apart without
    # colour. Drawn in the page's colour (currentColor), so that a group's frame sets it.
    drawings = [re.sub(rb' id="[^"]*"', b"", drawing) for drawing in symbols.values()]
    assert len(set(drawings)) == len(drawings)
    paints = set(re.findall(rb'(?:fill|stroke)="([^"]*)"', b"".join(symbols.values())))
    assert paints <= {b"currentColor", b"none"}


def pictures(html: str) -> dict[str, set[tuple[str, str]]]:
    """Per card code drawn, its pictures: the symbol and the value (or the chief's crown)."""
    drawn: dict[str, set[tuple[str, str]]] = {}
    for code, sprite, icon, crown, value in PICTURE.findall(html):
        assert sprite.endswith("img/orc/cards.svg")
        drawn.setdefault(code, set()).add((icon, "crown" if crown else value))
    return drawn


def assert_each_drawn_as_its_kind(html: str) -> set[str]:
    drawn = pictures(html)
    codes_on_page = set(re.findall(r'class="orc-card[^"]*" data-card="(\w+)"', html))
    assert codes_on_page <= set(drawn), "a card without its picture"
    for code, looks in drawn.items():
        face = orc_names.face(code)
        value = "crown" if face["chief"] else face["value"]
        assert looks == {(face["icon"], value)}, code
        if code[0] in "BMSD" and code[1:] in ("2", "6"):
            assert value == code[1]
    return set(drawn)


def test_the_deal_draws_each_pile_card_and_each_holding_with_its_picture(client, alice):
    from tests.games.orc_helpers import orc_table, people, set_deal

    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave], pace=2.0)
    set_deal(table, 60.02)
    client.force_login(bob)
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    drawn = assert_each_drawn_as_its_kind(html)
    assert drawn == set(table.record["rounds"][0]["deck"][:60])


def test_a_reveal_and_the_holdings_draw_their_cards_with_pictures(db, client, settings):
    from games import actions as game_actions
    from tests.games.test_orc_reveal import before_a_reveal

    settings.REVEAL_PAUSE_SECONDS = 30
    users, table, state, move = before_a_reveal(1)
    game_actions.play(table.pk, state.decider, move, table.version)
    client.force_login(users[1])
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    reveal = re.search(r'<section class="reveal".*?</section>', html, re.S).group(0)
    holdings = re.findall(r'data-zone="holding".*?</div>', html, re.S)
    assert assert_each_drawn_as_its_kind(reveal)
    assert assert_each_drawn_as_its_kind("".join(holdings))


def test_the_replay_draws_de_lorcs_cards_with_pictures(client, alice, bob):
    from tests.games.orc_helpers import finished_orc_table, people

    table = finished_orc_table([alice, bob, *people("charlie", "dave")])
    client.force_login(alice)
    first = client.get(f"/history/replay/{table.pk}/?step=0").content.decode()
    total = int(re.search(r'data-total="(\d+)"', first).group(1))
    # In the first deal, in the middle of the game, at its last battle's reveal.
    drawn = {}
    for step in (40, total // 2, total):
        html = client.get(f"/history/replay/{table.pk}/?step={step}").content.decode()
        drawn[step] = assert_each_drawn_as_its_kind(html)
    assert drawn[40] and drawn[total], drawn


def test_the_rules_page_shows_every_card_with_its_picture_in_german(db, client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get("/play/rules/orc/").content.decode()
    table = re.search(r'<table class="rules-cards">.*?</table>', html, re.S).group(0)
    drawn = assert_each_drawn_as_its_kind(table)
    codes = [f"{p}{k}" for p in "BMSD" for k in "26C"] + ["GR", "GI", "TR", "WM", "FM", "CG"]
    assert drawn == set(codes) | {f"SP{n}" for n in range(1, 5)}
    assert {orc_names.face(code)["icon"] for code in drawn} == ORC_KINDS
    with translation.override("de"):
        assert all(orc_names.card(code) in table for code in drawn)
