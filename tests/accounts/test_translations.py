"""Every UI string exists in Dutch, German and French, and the pages really use them."""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

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
