"""Waiting in tests for what happens in the background (a worker, a thread, a socket)."""

import time


def wait_for(predicate, seconds: float = 20.0) -> bool:
    """Poll `predicate` until it is true (True) or `seconds` have passed (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
