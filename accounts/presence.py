"""Who has a page open: a socket marks its viewer present for a while, and keeps doing so
while it stays open; the mark lapses on its own when a process dies without saying goodbye.

Kept in the cache, which every process shares once Redis is configured (and which the one
process of the embedded default has to itself).
"""

from collections.abc import Iterable

from django.core.cache import cache

# Seconds a mark lasts: a page sends a heartbeat well within it.
TTL = 60


def _key(place: str, user_id: int) -> str:
    return f"present:{place}:{user_id}"


def _watched_key(place: str) -> str:
    return f"watched:{place}"


def mark(place: str, user_id: int, ttl: int = TTL) -> None:
    """The user has `place` (e.g. "tournament.7") open now."""
    cache.set(_key(place, user_id), 1, ttl)


def forget(place: str, user_id: int) -> None:
    cache.delete(_key(place, user_id))


async def amark(place: str, user_id: int, ttl: int = TTL) -> None:
    await cache.aset(_key(place, user_id), 1, ttl)


async def awatch(place: str) -> None:
    """Someone, signed in or not, has `place` open now."""
    await cache.aset(_watched_key(place), 1, TTL)


def watched(place: str) -> bool:
    """Whether anyone has had `place` open within TTL; True when the cache cannot say."""
    try:
        return cache.get(_watched_key(place)) is not None
    except Exception:
        return True


def present(place: str, user_ids: Iterable[int]) -> set[int]:
    """Those of `user_ids` who have `place` open."""
    ids = list(user_ids)
    found = cache.get_many([_key(place, u) for u in ids])
    return {u for u in ids if _key(place, u) in found}
