"""Debian's chromium for the browser tests: one of each build (headless, desktop) per xdist
worker, started when a test first needs it, which each test drives through Playwright over the
DevTools protocol in contexts of its own (closed after it, so no cookie or page outlives the
test).

Playwright launches it, on a thread of its own, with the switches it gives any browser it
launches (hidden scrollbars, a mouse as the pointer, no throttled timers), so that a page
looks and behaves as in a browser a test launched itself."""

import socket
import threading
import urllib.request

# Beside Playwright's own switches.
ARGS = ["--disable-gpu", "--disable-quic"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class KeptChromium:
    def __init__(self, executable: str):
        self.endpoint = f"http://127.0.0.1:{free_port()}"
        self._ready, self._done = threading.Event(), threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(executable,), daemon=True)
        self._thread.start()
        if not self._ready.wait(60) or self._failure:
            raise RuntimeError(f"chromium did not start: {self._failure}")

    def _run(self, executable: str) -> None:
        from playwright.sync_api import sync_playwright

        port = self.endpoint.rsplit(":", 1)[1]
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=executable, args=[*ARGS, f"--remote-debugging-port={port}"]
                )
                self._ready.set()
                self._done.wait()
                browser.close()
        except BaseException as failure:
            self._failure = failure
            self._ready.set()

    def is_alive(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.endpoint}/json/version", timeout=5):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        self._done.set()
        self._thread.join(30)


class ReducedMotion:
    """The browser as a test sees it: a new context or page asks for reduced motion, as many
    phones do, unless the test asks otherwise (the stories of the motion itself do). Moving
    nothing, the pages redraw only when they change."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **options):
        return self._browser.new_context(**{"reduced_motion": "reduce", **options})

    def new_page(self, **options):
        return self._browser.new_page(**{"reduced_motion": "reduce", **options})
