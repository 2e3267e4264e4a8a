"""Every UI string exists in Dutch, German and French, and the pages really use them."""

import ast
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tests import services
from tests.accounts.conftest import client_for

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{\w*\}")


def catalogue(language: str) -> polib.POFile:
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path} is missing: run makemessages -l {language}"
    return polib.pofile(str(path))


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_has_a_complete_catalogue(language):
    po = catalogue(language)
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert not untranslated, f"{language}: untranslated {untranslated}"
    assert not fuzzy, f"{language}: fuzzy {fuzzy}"
    assert not po.metadata_is_fuzzy, f"{language}: the catalogue header is marked fuzzy"
    assert len(po.translated_entries()) > 0


def test_it_has_extracted_every_string_of_the_code(tmp_path, monkeypatch, settings):
    """A string added to the code but not yet in the catalogues is untranslated too."""
    services.need(
        "GNU gettext", shutil.which("xgettext"), "xgettext is missing (apt-get install gettext)"
    )
    # makemessages writes next to any locale/ it walks past, so extract from a copy of the
    # sources: the real catalogues stay untouched.
    source = tmp_path / "src"
    shutil.copytree(
        settings.BASE_DIR,
        source,
        ignore=shutil.ignore_patterns(
            ".*", "locale", "tests", "staticfiles", "node_modules", "*.sqlite3*", "__pycache__"
        ),
    )
    monkeypatch.chdir(source)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("makemessages", locale=["nl"], verbosity=0)
    fresh = polib.pofile(str(tmp_path / "locale" / "nl" / "LC_MESSAGES" / "django.po"))
    wanted = {(entry.msgctxt, entry.msgid) for entry in fresh}
    for language in LANGUAGES:
        known = {(e.msgctxt, e.msgid) for e in catalogue(language) if not e.obsolete}
        new = sorted(msgid for _ctx, msgid in wanted - known)
        assert not new, (
            f"{language}: not in the catalogue yet, run `manage.py makemessages -l nl -l de -l fr "
            f"--ignore=.venv --ignore=tests` and translate: {new}"
        )


# The translation functions and the names makemessages extracts them under (its xgettext
# keywords): imported or assigned under any other name, a call's string reaches no catalogue.
TRANSLATION_FUNCTIONS = {
    "gettext": {"gettext", "_"},
    "gettext_lazy": {"gettext_lazy", "_"},
    "gettext_noop": {"gettext_noop", "_"},
    "ngettext": {"ngettext"},
    "ngettext_lazy": {"ngettext_lazy"},
    "pgettext": {"pgettext"},
    "pgettext_lazy": {"pgettext_lazy"},
    "npgettext": {"npgettext"},
    "npgettext_lazy": {"npgettext_lazy"},
}
# What makemessages skips (test_it_has_extracted_every_string_of_the_code) needs no check.
NOT_EXTRACTED = {"locale", "tests", "staticfiles", "node_modules", "__pycache__"}


def _aliases(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, function, name) for each translation function bound to a name extraction misses."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            found += [
                (node.lineno, alias.name, alias.asname)
                for alias in node.names
                if alias.name in TRANSLATION_FUNCTIONS
                and alias.asname
                and alias.asname not in TRANSLATION_FUNCTIONS[alias.name]
            ]
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            value = node.value
            function = getattr(value, "id", None) or getattr(value, "attr", None)
            if isinstance(value, ast.Name | ast.Attribute) and function in TRANSLATION_FUNCTIONS:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found += [
                    (node.lineno, function, ast.unparse(target))
                    for target in targets
                    if ast.unparse(target) not in TRANSLATION_FUNCTIONS[function]
                ]
    return found


def test_it_calls_translation_functions_by_names_extraction_sees():
    base = Path(settings.BASE_DIR)
    wrong = []
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(base).parts
        if any(part.startswith(".") or part in NOT_EXTRACTED for part in parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        wrong += [
            f"{path.relative_to(base)}:{line}: {function} as {name}"
            for line, function, name in _aliases(tree)
        ]
    assert not wrong, f"makemessages does not extract these names' strings: {wrong}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_keeps_the_placeholders_of_every_entry(language):
    wrong = []
    for entry in catalogue(language).translated_entries():
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        wrong += [
            entry.msgid for text in translations if sorted(PLACEHOLDER.findall(text)) != wanted
        ]
    assert not wrong, f"{language}: placeholders differ in {wrong}"


@pytest.mark.parametrize(
    ("language", "log_in", "sign_up"),
    [
        ("nl", "Inloggen", "Registreren"),
        ("de", "Anmelden", "Registrieren"),
        ("fr", "Se connecter", "S'inscrire"),
    ],
)
def test_it_renders_pages_in_the_chosen_language(client, db, language, log_in, sign_up):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    body = client.get(reverse("login")).content.decode()
    assert f'<html lang="{language}">' in body
    assert f"<h1>{log_in}</h1>" in body
    assert sign_up in body


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("nl", "Deze club bestaat niet, of je bent er geen lid van."),
        ("de", "Diesen Club gibt es nicht, oder du bist kein Mitglied."),
        ("fr", "Ce club n&#x27;existe pas, ou vous n&#x27;en êtes pas membre."),
    ],
)
def test_it_translates_messages_from_python_code(club, charlie, language, text):
    client = client_for(charlie)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(club.get_absolute_url())
    assert response.status_code == 404
    assert text in response.content.decode()


class _Text(HTMLParser):
    """The words a reader sees: text outside code and scripts, and labels read aloud."""

    SKIP = {"script", "style", "code", "textarea"}

    def __init__(self):
        super().__init__()
        self.segments: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        self.segments += [v for k, v in attrs if k in ("title", "aria-label", "alt") and v]

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.segments.append(" ".join(data.split()))


ENGLISH_WORDS = re.compile(r"[A-Za-z]{2,} [a-z]{2,}")
# Names that are the same in every language.
PROPER_NAMES = ("Call to Glory", "De l'Orc pour les Braves", "OpenAPI")


def untranslated(get, language: str) -> list[str]:
    """Phrases a page shows in English whatever the language: built outside the catalogues.

    `get(language)` renders the same page in a language; a phrase of two or more words that
    reads the same in English and in `language` was never translated.
    """

    def phrases(lang: str) -> set[str]:
        parser = _Text()
        parser.feed(get(lang))
        return {s for s in parser.segments if ENGLISH_WORDS.search(s)}

    same = phrases(language) & phrases("en")
    return sorted(s for s in same if not any(name in s for name in PROPER_NAMES))


def page_in(client, url):
    def get(language: str) -> str:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(url)
        assert response.status_code == 200, url
        return response.content.decode()

    return get


@pytest.fixture
def ai_tables(alice):
    """alice against two Card counters: a table still open, one running, one finished."""
    from games import actions
    from tests.games.conftest import open_table
    from tests.games.test_rematch import finished_table

    waiting = open_table(alice, seats_count=3)
    running = open_table(alice, seats_count=3)
    for table in (waiting, running):
        actions.add_ai(table.pk, alice, "heuristic")
        actions.add_ai(table.pk, alice, "heuristic")
    actions.start(running.pk, alice)
    finished = finished_table([alice], ai_level="heuristic")
    return waiting, running, finished


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_shows_ai_players_names_in_the_viewers_language(ai_tables, alice, language):
    waiting, running, finished = ai_tables
    client = client_for(alice)
    game = finished.played_game
    pages = [
        waiting.get_absolute_url(),
        running.get_absolute_url(),
        reverse("lobby"),
        reverse("history"),
        reverse("history_game", args=[game.pk]),
        reverse("history_replay", args=[finished.pk]),
    ]
    left = {url: untranslated(page_in(client, url), language) for url in pages}
    assert {url: phrases for url, phrases in left.items() if phrases} == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_translates_the_api_page_built_from_its_schema(client, db, language):
    assert untranslated(page_in(client, reverse("api_docs")), language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_translates_the_empty_choice_of_a_select(alice, language):
    page = page_in(client_for(alice), reverse("table_create"))(language)
    assert '<select name="club"' in page
    assert "- Select an option -" not in page


@pytest.fixture
def orc_waiting_room(alice):
    """alice's De l'Orc table, not started, with a Recruit and a Warlord added while alice
    reads French: AI players keep their English names in the record."""
    from django.utils import translation

    from games import actions

    table = actions.create_table(
        alice, game="orc", options={"pace": 1.2}, seats_count=4, visibility="public"
    )
    with translation.override("fr"):
        actions.add_ai(table.pk, alice, "beginner")
        actions.add_ai(table.pk, alice, "expert")
    return table


def test_it_stores_de_lorcs_ai_players_under_their_english_names(orc_waiting_room):
    names = [seat.name for seat in orc_waiting_room.seats.filter(ai_level__gt="")]
    assert names == ["Recruit 2", "Warlord 3"]


@pytest.mark.parametrize(
    ("language", "level", "pace"),
    [
        ("nl", "Rekruut 2", "snel: 0,8 s per kaart"),
        ("de", "Rekrut 2", "schnell: 0,8 s pro Karte"),
        ("fr", "Recrue 2", "rapide : 0,8 s par carte"),
    ],
)
def test_it_shows_de_lorcs_ai_levels_and_pace_in_the_viewers_language(
    orc_waiting_room, alice, language, level, pace
):
    client = client_for(alice)
    waiting_room = page_in(client, orc_waiting_room.get_absolute_url())
    create = page_in(client, reverse("table_create") + "?game=orc")
    assert level in waiting_room(language)
    assert pace in create(language)
    assert untranslated(waiting_room, language) == []
    assert untranslated(create, language) == []
