"""Debian's chromium for the browser tests: one per xdist worker, started when a test first
needs it, which each test drives through Playwright over the DevTools protocol in contexts of
its own (closed after it, so no cookie or page outlives the test)."""

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class KeptChromium:
    def __init__(self, executable: str):
        self.profile = Path(tempfile.mkdtemp(prefix="ctg-chromium-"))
        self.process = subprocess.Popen(
            [executable, *ARGS, "--remote-debugging-port=0", f"--user-data-dir={self.profile}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Chromium writes the port it took, and its endpoint's path, into the profile.
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while len(lines := port_file.read_text().split() if port_file.exists() else []) < 2:
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError("chromium did not open its DevTools port within 30 s")
            time.sleep(0.05)
        self.endpoint = f"ws://127.0.0.1:{lines[0]}{lines[1]}"

    def is_alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


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
