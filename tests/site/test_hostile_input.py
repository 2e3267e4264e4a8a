"""No request, however hostile, makes the site answer 5xx.

Every URL of the URLconf (walked from the resolver, so a new URL is covered without touching
this file) is requested by each persona with its path parameters filled with ids the persona
can reach, ids it cannot, and hostile ones. Every form found on those pages, and every URL
that may take a POST, then receives hostile values one field at a time, missing and repeated
fields, and wrong methods. A 500 is counted (the client does not raise), so one run lists
every failure at once.

Personas (on the demo club, plus an outsider and a club of their own for "not yours"):
- anonymous: signed out, carrying forged cookies (a NUL in the session id, the CSRF token,
  the language and the time zone);
- outsider: signed in, in no club of the demo club's; sees only public things;
- bob: a plain member, seated at no open or running table;
- organiser: manages the demo club;
- charlie: seated (and host) at the open table;
- dave: seated at the running correspondence game, whose turn it is.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from urllib.parse import quote, urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

from accounts.models import Club, Membership, User
from games import actions as tables
from games.models import Table
from leagues import actions as league_actions
from leagues.models import League, PlayedGame
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PERSONAS = ["anonymous", "outsider", "bob", "organiser", "charlie", "dave"]
ADMIN_PERSONAS = ["organiser"]

# Values a visitor can type or forge. Lone surrogates cannot travel in UTF-8; they are sent as
# the bytes a client would produce with "surrogatepass", which is what reaches a server.
HOSTILE_VALUES = [
    "\x00",
    "ab\x00cd",
    "\ud800",
    "x\udfffy",
    "²",
    "١٢",
    "-1",
    "0",
    "2147483648",
    "9223372036854775808",
    "-9223372036854775809",
    "9" * 5000,
    "x" * 5000,
    "1e309",
    " ",
    "../../",
]
HOSTILE_INTS = ["0", "2147483647", "2147483648", "9223372036854775808", "9" * 5000]
HOSTILE_SEGMENTS = ["%00", "a%00b", "%ED%A0%80", "%C2%B2", "x" * 300, "%F0%9F%8E%B4"]
# Query parameters the pages read; names of GET form fields are added as they are found.
QUERY_NAMES = ["page", "page_size", "step", "seat", "username", "next", "q", "language"]
FORGED_COOKIES = ["sessionid", "csrftoken", "django_language", "tz"]
WRONG_METHODS = ["put", "delete", "patch", "options", "head"]


def encode(value: str) -> str:
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def form_body(pairs: list[tuple[str, str]]) -> str:
    return "&".join(f"{encode(k)}={encode(v)}" for k, v in pairs)


# --- the URLconf --------------------------------------------------------------------------


@dataclass
class Route:
    parts: list  # RoutePattern / RegexPattern from the root to the view
    name: str

    @property
    def admin(self) -> bool:
        return str(self.parts[0]) == "admin/"


def routes() -> list[Route]:
    found = []

    def walk(resolver, parts):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                walk(entry, [*parts, entry.pattern])
            elif isinstance(entry, URLPattern):
                name = entry.name or entry.lookup_str
                found.append(Route([*parts, entry.pattern], name))

    walk(get_resolver(), [])
    return found


ROUTE_PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
REGEX_PARAM = re.compile(r"\(\?P<(?P<name>\w+)>(?P<body>[^)]*)\)")


def params_of(route: Route) -> list[tuple[str, str]]:
    """(name, kind) of each path parameter; kind is the converter, or "regex"."""
    params = []
    for part in route.parts:
        if isinstance(part, RoutePattern):
            params += [
                (m["name"], m["converter"] or "str") for m in ROUTE_PARAM.finditer(str(part))
            ]
        else:
            params += [(m["name"], "regex") for m in REGEX_PARAM.finditer(str(part))]
    return params


def build(route: Route, values: dict[str, str]) -> str:
    path = ""
    for part in route.parts:
        text = str(part)
        if isinstance(part, RoutePattern):
            text = ROUTE_PARAM.sub(lambda m: values[m["name"]], text)
        else:
            assert isinstance(part, RegexPattern)
            text = REGEX_PARAM.sub(lambda m: values[m["name"]], text)
            text = text.removeprefix("^").removesuffix("$").removesuffix("\\Z")
        path += text
    return "/" + path


# --- the world ------------------------------------------------------------------------------


@dataclass
class World:
    users: dict[str, User]
    real: dict[str, list[str]]  # path parameter name -> values worth trying


def make_world() -> World:
    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get(slug="demo-club")
    users = {u.username: u for u in User.objects.all()}
    users["outsider"] = User.objects.create_user("outsider", password="pw-outsider-1")
    # A club none of the personas belongs to, with something behind every kind of id.
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    stranger = User.objects.create_user("stranger", password="pw-stranger-1")
    Membership.objects.create(club=other, user=stranger, role=Membership.ORGANISER)
    hidden_table = tables.create_table(
        stranger, club=other, visibility=Table.CLUB, seats_count=2, options={"rounds": 1}
    )
    hidden_league = League.objects.create(club=other, name="Hidden")
    hidden_league.participants.add(stranger)
    league = League.objects.get(club=club, name="Autumn season")
    draft = league_actions.start_pad_game(
        league,
        users["organiser"],
        [
            league_actions.Player(user=users["bob"]),
            league_actions.Player(guest_name="Guest"),
        ],
    )
    tables_by_status = {t.status: t for t in Table.objects.filter(club=club)}
    real = {
        "slug": ["demo-club", "elsewhere"],
        "table_id": [str(t.pk) for t in [*tables_by_status.values(), hidden_table]],
        "game_id": [
            str(PlayedGame.objects.filter(source=PlayedGame.PAD, club=club).first().pk),
            str(draft.pk),
            str(PlayedGame.objects.filter(source=PlayedGame.ONLINE).first().pk),
        ],
        "league_id": [str(league.pk), str(hidden_league.pk)],
        "tournament_id": [str(Tournament.objects.get().pk)],
        "user_id": [str(users["alice"].pk), str(users["organiser"].pk)],
        "round_no": ["1", "4"],
        "seat": ["0", "3"],
        "token": [tables_by_status[Table.OPEN].invite_token, club.invite_token],
        "username": ["alice"],
        "pile": ["X1"],
        "game": ["ctg"],
        "uidb64": ["MQ"],
        "object_id": [str(users["alice"].pk)],
        "id": [str(users["alice"].pk)],
        "url": ["nowhere/"],
        "app_label": ["accounts"],
        "content_type_id": ["1"],
        "code": ["404"],
    }
    return World(users, real)


# --- forms on the pages --------------------------------------------------------------------


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    textareas: set[str] = field(default_factory=set)
    files: set[str] = field(default_factory=set)


class FormParser(HTMLParser):
    def __init__(self, page: str):
        super().__init__()
        self.page = page
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            action = a.get("action") or a.get("hx-post") or self.page
            method = "post" if a.get("hx-post") else (a.get("method") or "get").lower()
            self.current = Form(urlsplit(action).path or self.page, method)
            self.forms.append(self.current)
            return
        if self.current is None or not a.get("name"):
            return
        name = a["name"]
        if tag == "input" and a.get("type") == "file":
            self.current.files.add(name)
        elif tag == "input":
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                self.current.fields.setdefault(name, "")
            else:
                self.current.fields[name] = a.get("value") or ""
        elif tag in ("textarea", "button"):
            if tag == "textarea":
                self.current.textareas.add(name)
            self.current.fields.setdefault(name, a.get("value") or "")
        elif tag == "select":
            self.select = name
            self.current.fields.setdefault(name, "")
        if tag == "option" and self.select and not self.current.fields[self.select]:
            self.current.fields[self.select] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None


def forms_in(page: str, html: str) -> list[Form]:
    parser = FormParser(page)
    parser.feed(html)
    return parser.forms


# --- the crawl ----------------------------------------------------------------------------


def hostile_records(record: dict) -> list[str]:
    """The record of a finished game, its players renamed to names no column should take."""
    first, second = record["players"][:2]
    text = json.dumps(record)
    renamings = [(name, second) for name in ["\x00", "a\x00b", "\ud800", "x\udfffy", "", "a: b"]]
    renamings += [
        ("n" * 41, second),
        ("n" * 61, second),
        ("n" * 200, second),
        ("z" * 40 + "1", "z" * 40 + "2"),
        (first, first),
    ]
    documents = [text]
    for one, two in renamings:
        # A placeholder keeps a name that contains the other from being renamed twice.
        renamed = text.replace(first, "\x01").replace(second, json.dumps(two)[1:-1])
        documents.append(renamed.replace("\x01", json.dumps(one)[1:-1]))
    return documents


@dataclass
class Crawl:
    clients: dict[str, Client]
    cookies: dict[str, SimpleCookie]
    requests: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def send(
        self,
        kind: str,
        persona: str,
        method: str,
        path: str,
        query: str = "",
        body=None,
        *,
        htmx: bool = False,
        multipart: dict | None = None,
    ):
        client = self.clients[persona]
        url = f"{path}?{query}" if query else path
        kwargs: dict = {"headers": {"HX-Request": "true"}} if htmx else {}
        if body is not None:
            kwargs |= {"data": body, "content_type": "application/x-www-form-urlencoded"}
        if multipart is not None:
            kwargs["data"] = multipart
        # Each request starts from the same world and the same signed-in persona: whatever a
        # POST changed (a seat, a club left, a logout, a language) is undone for the next.
        client.cookies = SimpleCookie(self.cookies[persona].output(header="", sep=";"))
        with transaction.atomic():
            response = getattr(client, method)(url, **kwargs)
            transaction.set_rollback(True)
        self.requests[kind] += 1
        if response.status_code >= 500:
            error = response.exc_info[1] if response.exc_info else None
            self.failures.append(
                f"{response.status_code} {persona} {method.upper()} {url[:160]} "
                f"{(body or '')[:160]!r}: {error!r}"[:500]
            )
        return response


NUMBER = re.compile(r"/\d+/")


def with_hostile_ids(path: str) -> list[str]:
    """The path with each of its numeric segments in turn replaced by a hostile id."""
    return [
        path[: m.start()] + f"/{value}/" + path[m.end() :]
        for m in NUMBER.finditer(path)
        for value in HOSTILE_INTS
    ]


@dataclass
class Site:
    """The demo club as every persona sees it: its URLs, and the forms each is shown."""

    clients: dict[str, Client]
    cookies: dict[str, SimpleCookie]
    route_count: tuple[int, int]  # URL patterns, and those outside the admin
    real_urls: list[tuple[str, list[str]]]
    hostile_urls: list[tuple[str, list[str]]]
    forms: dict[tuple[str, tuple[str, ...]], Form]
    shown_to: dict[tuple[str, tuple[str, ...]], set[str]]
    query_names: set[str]
    looks: int  # requests of the look around
    crawl_failures: list[str]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """One world for the personas' tests that run on this worker, kept in a transaction rolled
    back after the last (each request rolls its own changes back too), and every persona's
    look at it.
    Thousands of refused requests would each log a warning: the failures are listed instead."""
    with django_db_blocker.unblock(), transaction.atomic():
        logging.disable(logging.CRITICAL)
        try:
            yield look_around(make_world())
        finally:
            logging.disable(logging.NOTSET)
            transaction.set_rollback(True)


def look_around(world: World) -> Site:
    clients, cookies = {}, {}
    for someone in PERSONAS:
        client = Client(raise_request_exception=False)
        if someone == "anonymous":
            for name in FORGED_COOKIES:
                client.cookies[name] = "forged\x00value"
        else:
            client.force_login(world.users[someone])
        clients[someone] = client
        cookies[someone] = SimpleCookie(client.cookies.output(header="", sep=";"))
    crawl = Crawl(clients, cookies)
    all_routes = routes()

    # The admin only sends the personas (none of them staff) to its login page: one of them
    # knocks on every door there, all of them everywhere else.
    real_urls: list[tuple[str, list[str]]] = []
    hostile_urls: list[tuple[str, list[str]]] = []
    unfilled = []
    for route in all_routes:
        params = params_of(route)
        if any(name not in world.real for name, _kind in params):
            unfilled.append(route.name)
            continue
        personas = ADMIN_PERSONAS if route.admin else PERSONAS
        width = max((len(world.real[name]) for name, _kind in params), default=1)
        for i in range(width):
            values = {name: world.real[name][i % len(world.real[name])] for name, _ in params}
            real_urls.append((build(route, values), personas))
        first = {name: world.real[name][0] for name, _kind in params}
        for name, kind in params:
            for value in HOSTILE_INTS if kind == "int" else HOSTILE_SEGMENTS:
                hostile_urls.append((build(route, first | {name: value}), personas))
    assert not unfilled, f"give these routes' path parameters a value: {unfilled}"

    # Every real URL as every persona; the forms each persona is shown are kept.
    forms: dict[tuple[str, tuple[str, ...]], Form] = {}
    shown_to: dict[tuple[str, tuple[str, ...]], set[str]] = {}
    query_names = set(QUERY_NAMES)
    for looker in PERSONAS:
        for path, personas in real_urls:
            if looker not in personas:
                continue
            response = crawl.send("pages", looker, "get", path)
            if "html" not in response.get("Content-Type", ""):
                continue
            for form in forms_in(path, response.content.decode()):
                if form.method == "get":
                    query_names |= set(form.fields)
                    continue
                key = (form.action, tuple(sorted(form.fields)))
                forms.setdefault(key, form)
                shown_to.setdefault(key, set()).add(looker)
    return Site(
        clients,
        cookies,
        (len(all_routes), sum(not r.admin for r in all_routes)),
        real_urls,
        hostile_urls,
        forms,
        shown_to,
        query_names,
        crawl.requests.total(),
        crawl.failures,
    )


@pytest.mark.long
@pytest.mark.timeout(900)  # some 3,000 requests
@pytest.mark.parametrize("persona", PERSONAS)
def test_no_request_of_any_persona_gets_a_server_error(persona, site, capsys):
    """One persona's hostile requests, after every persona's look at the pages (which
    forms each is shown), on the demo club shared by the personas of its worker."""
    started = time.monotonic()
    crawl = Crawl(site.clients, site.cookies)
    real_urls, hostile_urls, forms = site.real_urls, site.hostile_urls, site.forms
    query_names = site.query_names
    shown_to = site.shown_to

    finished = Table.objects.get(club__slug="demo-club", status=Table.FINISHED)
    documents = hostile_records(finished.record)
    first_name = finished.record["players"][0]
    uploads = [d.encode() for d in documents] + [
        b"",
        b"\x00" * 64,
        b"\xff\xfe{\x00}",
        documents[0].encode("utf-16"),
        # A raw NUL inside a name, where JSON allows no control character.
        documents[0].replace(first_name, f"\x00{first_name}").encode(),
    ]
    # Each field of a form gets every hostile value from two of the personas it is shown to,
    # the most particular ones (a seated player before a member before a visitor).
    hostile_for = {key: sorted(seen, key=PERSONAS.index)[-2:] for key, seen in shown_to.items()}
    field_names = sorted({name for form in forms.values() for name in form.fields})
    names = sorted(query_names)
    index = PERSONAS.index(persona)
    # Hostile query strings: across the personas every name gets every value.
    for path, personas in real_urls:
        if persona not in personas:
            continue
        # (The admin reads no query of a visitor it sends to its login page: a few do.)
        step = len(PERSONAS) if personas is ADMIN_PERSONAS else len(personas)
        for k in range(personas.index(persona), len(HOSTILE_VALUES), step):
            query = [
                (n, HOSTILE_VALUES[(i + k) % len(HOSTILE_VALUES)]) for i, n in enumerate(names)
            ]
            crawl.send("queries", persona, "get", path, form_body(query))
        repeated = form_body([(n, "1") for n in names] * 2)
        crawl.send("queries", persona, "get", path, repeated, htmx=True)
    # Hostile ids and segments in the path.
    for number, (path, personas) in enumerate(hostile_urls):
        if persona not in personas:
            continue
        crawl.send("hostile paths", persona, "get", path)
        # A POST to each from one of the personas in turn.
        if personas[number % len(personas)] == persona:
            crawl.send("hostile paths", persona, "post", path, body="")
    # Every URL that might take a POST: nothing, everything any form sends (hostile), and
    # a method it does not expect.
    for path, personas in real_urls:
        if persona not in personas:
            continue
        crawl.send("posts", persona, "post", path, body="")
        pairs = [
            (n, HOSTILE_VALUES[(i + index) % len(HOSTILE_VALUES)])
            for i, n in enumerate(field_names)
        ]
        crawl.send("posts", persona, "post", path, body=form_body(pairs))
        crawl.send("posts", persona, WRONG_METHODS[index % len(WRONG_METHODS)], path)
    # Every form: as shown, with fields missing and repeated, and (for those it is shown
    # to) each field hostile in turn and its ids replaced by hostile ones.
    for key, form in forms.items():
        fields = list(form.fields.items())
        crawl.send("forms", persona, "post", form.action, body=form_body(fields))
        crawl.send("forms", persona, "post", form.action, body=form_body(fields), htmx=True)
        crawl.send("forms", persona, "post", form.action, body=form_body(fields * 2))
        if persona not in hostile_for[key]:
            continue
        for path in with_hostile_ids(form.action):
            crawl.send("forms", persona, "post", path, body=form_body(fields))
        for name in form.files:
            for content in uploads:
                upload = SimpleUploadedFile("record.json", content)
                data = {**form.fields, name: upload}
                crawl.send("forms", persona, "post", form.action, multipart=data)
        for name, _value in fields:
            if name in form.files or name == "csrfmiddlewaretoken":
                continue  # the test client does not check it
            values = HOSTILE_VALUES + (documents if name in form.textareas else [])
            for value in values:
                pairs = [(n, value if n == name else v) for n, v in fields]
                crawl.send("forms", persona, "post", form.action, body=form_body(pairs))
            crawl.send(
                "forms",
                persona,
                "post",
                form.action,
                body=form_body([(n, v) for n, v in fields if n != name]),
            )

    seconds = time.monotonic() - started
    with capsys.disabled():
        print(
            f"\nhostile input: {site.route_count[0]} URL patterns "
            f"({site.route_count[1]} outside the admin), "
            f"{len(real_urls)} real URLs, {len(hostile_urls)} hostile URLs, {len(forms)} forms, "
            f"as {persona}: {crawl.requests.total()} requests after {site.looks} looks "
            f"({', '.join(f'{n} {kind}' for kind, n in crawl.requests.items())}) "
            f"in {seconds:.0f} s, {len(crawl.failures)} server errors"
        )
    assert crawl.requests.total() > 1_000
    failures = site.crawl_failures + crawl.failures
    assert not failures, "\n".join(failures[:150])
