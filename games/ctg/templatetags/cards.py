"""{% card c %}: one character card, drawn by games/_card.html.

A board shows dozens of cards and every push draws a board for each viewer: each distinct
card (value, name in the page's language, count) is drawn once per process and kept.
"""

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@lru_cache(maxsize=2048)
def _drawn(value: int, name: str, count: int | None) -> SafeString:
    c = {"value": value, "name": name, "count": count}
    return mark_safe(render_to_string("games/_card.html", {"c": c}))


@register.simple_tag
def card(c: dict) -> SafeString:
    return _drawn(c["value"], str(c["name"]), c.get("count") or c.get("size"))
