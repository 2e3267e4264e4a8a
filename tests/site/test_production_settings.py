"""A deployment that forgets a variable fails loudly instead of running in debug mode."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What the README's deployment section sets, and nothing else of this test run's.
PRODUCTION = {
    "SECRET_KEY": "a-long-random-production-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "clubs.example.org",
    "DATABASE_URL": "postgres://ctg@db.example.org/ctg",
    "REDIS_URL": "redis://redis.example.org:6379/0",
}
OURS = {
    "SECRET_KEY",
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SECURE_COOKIES",
    "DATABASE_URL",
    "REDIS_URL",
    "EMAIL_BACKEND",
    "DJANGO_SETTINGS_MODULE",
}


def setting(name: str, **env: str) -> str:
    shown = manage(
        "shell",
        "--no-imports",
        "-c",
        f"from django.conf import settings; print(settings.{name})",
        **env,
    )
    return shown.stdout.strip()


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in OURS}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=clean | {"DJANGO_SETTINGS_MODULE": "ctg_site.settings"} | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_refuses_to_start_without_a_secret_key():
    result = manage("check")

    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_it_runs_in_debug_mode_only_when_asked():
    assert setting("DEBUG", SECRET_KEY="x" * 50) == "False"
    assert setting("DEBUG", DEBUG="1") == "True"


def test_it_passes_the_deployment_checks_with_the_readmes_variables():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_it_trusts_a_tls_proxys_header_only_when_told():
    assert setting("SECURE_PROXY_SSL_HEADER", **PRODUCTION) == "None"
    told = PRODUCTION | {"SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https"}
    assert setting("SECURE_PROXY_SSL_HEADER", **told) == "('HTTP_X_FORWARDED_PROTO', 'https')"
