"""A signed-in person's own pages: the one place that names their group.

Every page of the site keeps a socket in it (accounts.consumers.PersonConsumer). A higher app
tells a person something there, whatever page he has open (his tournament table is ready),
by sending a `notice`: a template and a context of plain values, which each socket renders
in its page's language. A notice may be kept a while for the pages he opens after it was
sent: kept in the cache, which every process shares once Redis is configured.
"""

import time
from collections.abc import Iterable

from django.core.cache import cache


def person_group(user_id: int) -> str:
    return f"person.{user_id}"


def notice(template: str, context: dict, tag: str) -> dict:
    """The message for `person_group`; `tag` names the notice, so that a page and a browser
    show one of it however many times it comes."""
    return {"type": "person.notice", "template": template, "context": context, "tag": tag}


def _key(user_id: int) -> str:
    return f"notices:{user_id}"


def keep(user_ids: Iterable[int], message: dict, seconds: float) -> None:
    """The pages these people open within `seconds` show `message` as they open."""
    now = time.time()
    for user_id in user_ids:
        notices = {
            tag: (kept, until)
            for tag, (kept, until) in (cache.get(_key(user_id)) or {}).items()
            if until > now
        }
        notices[message["tag"]] = (message, now + seconds)
        cache.set(
            _key(user_id), notices, int(max(until for _m, until in notices.values()) - now) + 1
        )


def kept(user_id: int) -> list[dict]:
    """The notices a page opening now shows."""
    now = time.time()
    return [m for m, until in (cache.get(_key(user_id)) or {}).values() if until > now]
