"""A live server's setup for stories that need the sweeps (imported by the server process
before Django is set up: no model imports here)."""


def sweeping_server() -> None:
    """The test database, and the sweeps run from a thread, as in the embedded default."""
    from channels.testing.live import set_database_connection
    from django.conf import settings

    set_database_connection()
    settings.BACKGROUND_SWEEPS = True
    from infra.background import start_sweeps

    start_sweeps()
