"""runserver (daphne's), stopping on SIGTERM without cutting short the AI moves under way.

Django's reloader answers SIGTERM by killing the process that serves with SIGKILL. Here it
passes SIGTERM on and waits; the serving process lets the AI moves under way finish
(infra.background) and exits, and this one with it. A supervisor may signal both (a
process group): the serving process takes the first SIGTERM and ignores a second, which
would otherwise cut its shutdown short.
"""

import contextlib
import os
import signal
import subprocess
import sys

from daphne.management.commands.runserver import Command as DaphneRunserver
from django.utils import autoreload


class Command(DaphneRunserver):
    def run(self, **options):
        if not options["use_reloader"]:
            super().run(**options)
        elif os.environ.get(autoreload.DJANGO_AUTORELOAD_ENV) == "true":
            # What Django's run_with_reloader does in the serving process, but for the signal.
            signal.signal(signal.SIGTERM, _exit_once)
            reloader = autoreload.get_reloader()
            autoreload.logger.info("Watching for file changes with %s", type(reloader).__name__)
            with contextlib.suppress(KeyboardInterrupt):
                autoreload.start_django(reloader, self.inner_run, **options)
        else:
            sys.exit(_serve_in_child())


def _exit_once(*args) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(0)


def _serve_in_child() -> int:
    """Django's restart_with_reloader, but a SIGTERM here is passed on rather than a SIGKILL."""
    environ = {**os.environ, autoreload.DJANGO_AUTORELOAD_ENV: "true"}
    while True:
        child = subprocess.Popen(autoreload.get_child_arguments(), env=environ, close_fds=False)
        signal.signal(signal.SIGTERM, lambda *_, child=child: child.terminate())
        # Ctrl-C in a terminal reaches the child too; it stops, and this one waits for it.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        code = child.wait()
        if code != 3:  # 3: a file changed, the child starts again
            return code
