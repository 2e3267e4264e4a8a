"""Every UI string exists in Dutch, German and French, and the pages really use them."""

import re
import shutil
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
