"""What the Django benchmarks share: a PostgreSQL database of their own, created and migrated.

Import it first: it puts the project on the path and selects its settings.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ctg_site.settings")
# Production settings, spoken to over plain HTTP on this machine.
os.environ.setdefault("SECRET_KEY", "benchmark-only-key")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")


def setup_django(default_url: str) -> None:
    """Use DATABASE_URL (else `default_url`), creating the database if missing; migrate it."""
    url = os.environ.setdefault("DATABASE_URL", default_url)
    if not url.startswith("postgres"):
        sys.exit(f"set DATABASE_URL to a PostgreSQL database, e.g. {default_url}")
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.DEBUG = False
    call_command("migrate", verbosity=0)
