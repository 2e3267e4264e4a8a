"""Whole games of De l'Orc in chromium: two people and three AI players at the fast pace, alice
at a desktop's size (1280×800, slapping with the keyboard) and bob at a phone's (390×844,
tapping), in English and in German (a few minutes each).

Each first reads the rules page the table links to. In the deal every pile is in view while
they put shields and deserters down; a spy names a player, then a kind of card, and the
mercenaries are ticked card by card, the army's strength following each tick; every battle's
reveal and every round's end is seen on both pages, their Continue on the screen, and
continued; the game ends on its result. In German no English card name reaches either page,
in a frame of its socket or in its text. Screenshots of the deal, a reveal, a round's end and
the result at both sizes go to artifacts/screenshots/ (orc-story-*, not kept in git).
"""

import random
import re
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.utils import translation
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.models import Table
from games.orc import engine, names
from tests.conftest import start_daphne, stop_daphne, url_of
from tests.games.orc_helpers import orc_table
from tests.games.orc_worker import pausing_on_redis

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
# Seconds a reveal or a round's end waits for the people: long enough for both pages to see
# it, read it and continue, which ends it at once.
PAUSE = 90
DEAL_SPEED = 3.0
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

# alice plays on a desktop with the keyboard, bob on a phone by tapping; alice deals round 1.


@pytest.fixture
def server(redis_channel_layer, settings):
    # This process deals too (the game starts here): its pushes go through Redis as well.
    settings.REVEAL_PAUSE_SECONDS = settings.ROUND_PAUSE_SECONDS = PAUSE
    # Cards three times as fast as the fast pace: still time for a person's taps.
    settings.DEAL_SPEED = DEAL_SPEED
    daphne = start_daphne(partial(pausing_on_redis, PAUSE, DEAL_SPEED))
    yield url_of(daphne)
    stop_daphne(daphne)


def session_cookie(user, url):
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def english_card_names() -> re.Pattern:
    """The cards', peoples' and mercenaries' English names that German names otherwise
    ("Troll" and "Gremlin" are German words too), as whole words."""
    words = set()
    codes = [*engine.CODES, *engine.PEOPLES, "X"]
    for code in codes:
        with translation.override("en"):
            english = _name(code)
        with translation.override("de"):
            german = _name(code)
        if english != german:
            words.add(english.split(" 1")[0])  # "Spy 1": "Spy"
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, words), key=len)[::-1]) + r")\b")


def _name(code: str) -> str:
    if code == "X":
        return str(names.MERCENARY)
    if code in engine.PEOPLES:
        return names.people(code)
    return names.card(code)


def slap(page, rng: random.Random, keyboard: bool, deserted: bool) -> str | None:
    """Put a card down if the page offers one: a deserter at the first offer, until one went
    down (`deserted`); else a shield when it may, or now and then a deserter. The deserter
    comes first: a page that offers a shield at every look would otherwise never put one
    down. A tap lands on the button where it is at that moment, as a finger's does: the
    piles are redrawn with every card, and on a loaded machine a button is often redrawn
    between a click's finding it and its landing, every time. What it tapped, if anything."""
    shields = "button.slap.shield:not([disabled]):not([hidden])"
    offers = page.evaluate(COUNT, [shields, DESERTERS])
    deserting = offers[1] > 0 and not deserted
    if not deserting and offers[0] > 0:
        pile = rng.randrange(offers[0])
        if keyboard and pile < 9:
            page.keyboard.press(str(pile + 1))
        else:
            page.evaluate(TAP, [shields, pile])
        return f"shield: button {pile + 1} of {offers[0]}"
    elif offers[1] > 0 and (deserting or rng.random() < 0.3):
        pile = rng.randrange(offers[1])
        if keyboard and pile < 9:
            page.keyboard.press(f"Shift+{pile + 1}")
        else:
            page.evaluate(TAP, [DESERTERS, pile])
        return f"desert: button {pile + 1} of {offers[1]}"
    return None


# Every slap a page sends and the answer it gets, with the card count the page showed when it
# was sent, kept in the page: a story that put no card down names them.
SLAPS_ANSWERED = """(() => {
  const real = window.fetch;
  window.slaps = [];
  window.fetch = async (url, options) => {
    const answer = await real(url, options);
    if (options && options.headers && options.headers["X-Slap"]) {
      const counter = document.querySelector("#deal-counter");
      const text = answer.status === 204 ? "" : (await answer.clone().text()).trim();
      window.slaps.push(`${options.body.get("action")} at card ${counter?.dataset.dealt}: `
        + `${answer.status} ${text.replace(/<[^>]*>/g, "").slice(0, 120)}`);
    }
    return answer;
  };
})();"""

DESERTERS = "button.slap.desert:not([hidden])"
# A deserter goes down from the first army card on.
FIRST_CARD = "() => Number(document.querySelector('#deal-counter')?.dataset.dealt) > 0"
COUNT = "(selectors) => selectors.map((s) => document.querySelectorAll(s).length)"
# The button of that pile as the page has it now (none if the piles changed since).
TAP = "([selector, n]) => document.querySelectorAll(selector)[n]?.click()"


# Read in one go with the recap's absence: a push may bring the recap, which may scroll, at
# any moment.
PILES_OUT_OF_VIEW = """() => document.querySelector('#deal-recap') ? []
  : Array.from(document.querySelectorAll('.orc-pile')).filter((p) => {
    const box = p.getBoundingClientRect();
    return box.top < 0 || box.bottom > window.innerHeight || box.left < 0
      || box.right > window.innerWidth;
  }).map((p) => p.dataset.pile + '@' + Math.round(p.getBoundingClientRect().bottom))"""

IN_VIEW = """(node) => { const box = node.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight; }"""


STRENGTH_SHOWN = """() => {
  const form = document.querySelector('form#decision');
  if (!form || !form.dataset.strengths) return null;
  const counts = {GI: 0, TR: 0, WM: 0, GR: 0};
  const ticked = form.querySelectorAll('input[data-code]:checked');
  for (const box of ticked) counts[box.dataset.code] += 1;
  return {key: [counts.GI, counts.TR, counts.WM, counts.GR].join('-'),
    strengths: JSON.parse(form.dataset.strengths),
    shown: document.getElementById('would-be').textContent};
}"""


class Story:
    """What the two pages saw and did."""

    def __init__(self, language: str):
        self.language = language
        self.reveals: dict[str, set] = {"alice": set(), "bob": set()}
        self.round_ends: dict[str, set] = {"alice": set(), "bob": set()}
        self.continue_out_of_view: list[str] = []
        self.piles_out_of_view: list[str] = []
        self.deal_seen: set = set()
        self.choices: list[str] = []
        self.strengths_wrong: list[str] = []
        self.texts: list[str] = []
        self.shots: set = set()
        self.taps: dict[str, list[str]] = {"alice": [], "bob": []}

    def shoot(self, page, name: str, what: str) -> None:
        size = "desktop" if name == "alice" else "phone"
        if (what, size) in self.shots:
            return
        self.shots.add((what, size))
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"orc-story-{self.language}-{what}-{size}.png"))

    def look(self, name: str, page, rng: random.Random, deserted: bool) -> None:
        """One look at a page: the deal, a pause, or a decision."""
        seen = page.evaluate(
            "() => { const b = document.querySelector('#board');"
            " const c = document.querySelector('#deal-counter');"
            " const r = document.querySelector('#reveal');"
            " const e = document.querySelector('#round-end');"
            " const recap = !!document.querySelector('#deal-recap');"
            " return {stamp: b.dataset.stamp, status: b.dataset.status,"
            " dealt: c ? Number(c.dataset.dealt) : null,"
            " reveal: r ? r.dataset.round + ':' + r.dataset.battle : null,"
            " roundEnd: e ? e.dataset.round : null, recap,"
            " decision: !!document.querySelector('form#decision')}; }"
        )
        # The deal's board stays up after its last card, under the wizard's first decision.
        if seen["dealt"] is not None and not seen["decision"]:
            self.deal_seen.add((name, seen["stamp"], seen["dealt"]))
            # While cards are dealt and shields placed; the recap that follows may scroll.
            if seen["dealt"] >= 20 and not seen["recap"]:
                if out := page.evaluate(PILES_OUT_OF_VIEW):
                    self.piles_out_of_view.append(f"{name} at card {seen['dealt']}: P{out}")
                    self.shoot(page, name, "deal-out-of-view")
                self.shoot(page, name, "deal")
            if seen["dealt"] == 0 and not deserted and page.locator(DESERTERS).count():
                # Meaning to put a deserter down at once, he waits for the first card: a
                # loaded machine may give the page no other look until late in the deal.
                try:
                    page.wait_for_function(FIRST_CARD, timeout=30_000)
                except PlaywrightTimeout:
                    return
            if tapped := slap(page, rng, keyboard=name == "alice", deserted=deserted):
                self.taps[name].append(f"{tapped} at card {seen['dealt']}")
            return
        if seen["reveal"] is not None:
            self.look_at_pause(name, page, seen)
            return
        self.decide(name, page, rng)

    def look_at_pause(self, name: str, page, seen: dict) -> None:
        self.reveals[name].add(seen["reveal"])
        if seen["roundEnd"] is not None:
            self.round_ends[name].add(int(seen["roundEnd"]))
            self.shoot(page, name, "round-end")
        else:
            self.shoot(page, name, "reveal")
        if len(self.texts) < 40:
            self.texts.append(page.inner_text("body"))
        # The Continue of the pause seen, not of one that a push brought meanwhile: continued
        # unseen, the next reveal would end before either page saw it.
        r, b = seen["reveal"].split(":")
        button = page.locator(
            f"#round-pause:has(#reveal[data-round='{r}'][data-battle='{b}'])"
            " button[data-action=continue]"
        )
        try:
            if button.count():
                if not button.evaluate(IN_VIEW, timeout=2000):
                    self.continue_out_of_view.append(f"{name} at {seen['reveal']}")
                button.click(timeout=2000)
                page.wait_for_timeout(150)
        except PlaywrightTimeout:
            pass  # the pause ended under the tap

    def decide(self, name: str, page, rng: random.Random) -> None:
        """Make the decision the page offers, if any, as a person would: a spy's player and
        kind of card, mercenaries ticked one by one, or one of the buttons."""
        form = page.locator("form#decision")
        try:
            if not form.count():
                return
            kind = form.get_attribute("class", timeout=1000) or ""
            if "choice-spy" in kind:
                # Counted once: a push may take the form away between two reads.
                targets = form.locator("input[name=target]")
                kinds = form.locator("input[name=part]")
                offered = targets.count(), kinds.count()
                if not all(offered):
                    return  # a push took the form away
                targets.nth(rng.randrange(offered[0])).check(timeout=2000)
                kinds.nth(rng.randrange(offered[1])).check(timeout=2000)
                form.locator("button[value^=spy]:not([form])").click(timeout=2000)
                self.choices.append("spy")
            elif "choice-send" in kind:
                self.tick_mercenaries(name, form, rng)
                form.locator("button[data-action=send]").click(timeout=2000)
                self.choices.append("send")
            else:
                buttons = form.locator("button[data-action]")
                if (offered := buttons.count()) > 0:  # else a push took the form away
                    buttons.nth(rng.randrange(offered)).click(timeout=2000)
        except PlaywrightTimeout:
            return  # a push took the form away under the click: the next look decides
        page.wait_for_timeout(200)

    def tick_mercenaries(self, name: str, form, rng: random.Random) -> None:
        boxes = form.locator("input[type=checkbox]")
        for i in range(boxes.count()):
            if rng.random() < 0.5:
                boxes.nth(i).check(timeout=2000)
                # What is ticked, the strengths of the decision on the page and the strength
                # shown, read at once: a push may bring the next decision at any moment.
                seen = form.page.evaluate(STRENGTH_SHOWN)
                if seen and seen["shown"] != str(seen["strengths"][seen["key"]]):
                    self.strengths_wrong.append(f"{name}: {seen}")


def deserters_down(table_id: int) -> set[str]:
    """The people who have put a deserter down in this game."""
    try:
        record = Table.objects.get(pk=table_id).record
        lines = [line for r in record["rounds"] for line in r["actions"]]
        return {n for n in ("alice", "bob") if any(x.startswith(f"{n}: desert") for x in lines)}
    finally:
        connection.close()


def read_the_rules(page, language: str) -> str:
    """Open the rules from the table, as a newcomer does; their text. The link is in the board,
    which a push may redraw between a click's press and its release: such a click is lost, as
    a person's would be, and clicked again."""
    for _ in range(6):
        try:
            with page.context.expect_page(timeout=5000) as opened:
                page.click(".rules-link")
            break
        except PlaywrightTimeout:
            continue
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/play/rules/orc/")
    text = rules.inner_text("main")
    assert ("Riese" if language == "de" else "Giant") in text
    rules.close()
    return text


@pytest.mark.long
@pytest.mark.timeout(1500)
@pytest.mark.parametrize("language", ["en", "de"])
def test_two_people_and_three_ai_players_play_a_whole_game_in_chromium(
    server, alice, bob, request, language
):
    table = orc_table(alice, [bob], ["beginner", "heuristic", "heuristic"], clock="live")
    cookies = [session_cookie(user, server) for user in (alice, bob)]
    browser = request.getfixturevalue("browser")
    story = Story(language)
    frames: list[str] = []
    pages = []
    for cookie, (width, height) in zip(cookies, SIZES.values(), strict=True):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies([cookie, {"name": "django_language", "value": language, "url": server}])
        context.add_init_script(SLAPS_ANSWERED)
        page = context.new_page()
        page.on(
            "websocket",
            lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))),
        )
        page.goto(f"{server}/play/t/{table.pk}/")
        page.wait_for_selector("body[data-ws=open]")
        story.texts.append(read_the_rules(page, language))
        page.evaluate("window.stayed = true")
        pages.append(page)
    page_of = {"alice": pages[0], "bob": pages[1]}

    rng = random.Random(3)
    deserted: set[str] = set()
    # The ORM from another thread: Playwright's event loop runs in this one.
    database = ThreadPoolExecutor(1)
    for _ in range(4000):
        if pages[0].locator("#board[data-status=finished]").count():
            break
        if len(deserted) < 2:
            deserted = database.submit(deserters_down, table.pk).result()
        for name, page in page_of.items():
            story.look(name, page, rng, deserted=name in deserted)
        pages[0].wait_for_timeout(200)

    # What each page sent, read before bob leaves the table for the result.
    slaps = {name: page.evaluate("window.slaps") for name, page in page_of.items()}
    for name, page in page_of.items():
        page.wait_for_selector("#board[data-status=finished]")
        # The last battle and round, which no pause follows, stay on the finished board.
        story.look_at_pause(
            name,
            page,
            page.evaluate(
                "() => ({reveal: document.querySelector('#reveal').dataset.round + ':'"
                " + document.querySelector('#reveal').dataset.battle,"
                " roundEnd: document.querySelector('#round-end')?.dataset.round ?? null})"
            ),
        )
        page.evaluate("window.scrollTo(0, 0)")
        story.shoot(page, name, "result")
        story.texts.append(page.inner_text("body"))
        assert page.evaluate("window.stayed === true"), "the board moved on by pushes alone"
    pages[1].click("text=See the result" if language == "en" else ".status a[href$='/result/']")
    pages[1].wait_for_selector("table.result")
    assert pages[1].locator("table.result tr[data-player]").count() == 5
    story.texts.append(pages[1].inner_text("body"))

    with database:
        record = database.submit(lambda: Table.objects.get(pk=table.pk).record).result()
    state = engine.from_record(record)
    battles = {f"{r}:{b}" for r, rnd in enumerate(state.history, 1) for b in range(1, 5)}
    lines = [line for r in record["rounds"] for line in r["actions"]]
    # Everything that went wrong, at once: a game takes minutes.
    wrong: dict[str, object] = {}
    for name in ("alice", "bob"):
        for card in ("shield", "desert"):
            if not any(line.startswith(f"{name}: {card}") for line in lines):
                wrong[f"{name} put no {card} down"] = {
                    "tapped": [t for t in story.taps[name] if t.startswith(card)],
                    "sent": [s for s in slaps[name] if s.startswith(card)],
                }
        if story.reveals[name] != battles:
            wrong[f"reveals {name} missed"] = sorted(battles - story.reveals[name])
        if story.round_ends[name] != set(range(1, len(state.history) + 1)):
            wrong[f"rounds' ends {name} saw"] = sorted(story.round_ends[name])
    if len({(stamp, dealt) for _name, stamp, dealt in story.deal_seen}) <= 20:
        wrong["the deal did not move on the pages"] = story.deal_seen
    if story.piles_out_of_view:
        wrong["piles out of view in the deal"] = story.piles_out_of_view[:5]
    if story.continue_out_of_view:
        wrong["Continue below the screen"] = story.continue_out_of_view
    if story.strengths_wrong:
        wrong["strengths shown wrong"] = story.strengths_wrong
    wanted = {(what, size) for what in ("deal", "reveal", "round-end", "result") for size in SIZES}
    if not story.shots >= wanted:
        wrong["screenshots missing"] = sorted(wanted - story.shots)
    if language == "de":
        english = english_card_names()
        found = {m for text in frames + story.texts for m in english.findall(text)}
        if found:
            wrong["English card names on German pages"] = sorted(found)
    print(
        f"\n{language}: {len(state.history)} rounds, {len(frames)} frames, choices {story.choices}"
    )
    assert wrong == {}
