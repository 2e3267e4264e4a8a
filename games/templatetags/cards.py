from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def card(c: dict) -> str:
    """A card face: value, character and, for a hand or a set, how many."""
    count = c.get("count") or c.get("size")
    return format_html(
        '<span class="card v{0}" data-card="{0}" title="{1} ({0})">'
        "<b>{0}</b><small>{1}</small>{2}</span>",
        c["value"],
        c["name"],
        format_html('<i class="count">×{}</i>', count) if count else "",
    )
