"""Settings driven by environment variables.

The defaults run the whole site with nothing installed: SQLite, an in-memory channel layer
and background work in a thread of the web process. Set DATABASE_URL and REDIS_URL to scale
out (see the README).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from infra.redis_pool import redis_retry

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Production unless told otherwise: `make run` asks for DEBUG=1 explicitly. A production
# process refuses to start without a key of its own rather than fall back to a known one.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for a development server).")
    SECRET_KEY = "insecure-development-key"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Where links in emails sent outside a request point (the reminder of a waiting move).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Seconds a person may leave a move waiting before the reminder email (no live clock).
TURN_REMINDER_DELAY = 300
# Seconds the players have to look at a round's end before the next round begins anyway.
ROUND_PAUSE_SECONDS = int(os.environ.get("ROUND_PAUSE_SECONDS", "45"))
# Seconds De l'Orc's players have to read a battle's reveal before the next decision.
REVEAL_PAUSE_SECONDS = int(os.environ.get("REVEAL_PAUSE_SECONDS", "12"))
# De l'Orc's deal comes at the table's pace (seconds a card): 1. A test's live server that
# must see whole games within minutes deals this many times faster.
DEAL_SPEED = 1.0
# Seconds every AI move of a level that thinks (not a quick one) lasts at least: 0, each
# level thinks its own time. Fault tests raise it for a move that lasts long enough to kill
# its worker in the middle of it.
AI_MOVE_AT_LEAST_SECONDS = 0.0

INSTALLED_APPS = [
    # First, so that its runserver (daphne's, stopping gracefully) is the one manage.py runs.
    "ctg_site",
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    # Below the apps: its ready() makes the Celery app and connects its signals first.
    "infra",
    "accounts",
    "games",
    # Each game is an app of its own, above the shared `games` app (games/registry.py).
    "games.ctg",
    "games.orc",
    "leagues",
    "tournaments",
    "analysis",
    "history",
]

# The games this site hosts (games/registry.py): each names a games.registry.Game instance.
GAMES = ["games.ctg.game.CALL_TO_GLORY", "games.orc.game.DE_L_ORC"]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ctg_site.middleware.ForgetUnstorableCookiesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "accounts.middleware.BrowserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "ctg_site.middleware.RefuseUnstorableMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "ctg_site.middleware.RedisAwayMiddleware",
]

ROOT_URLCONF = "ctg_site.urls"
ASGI_APPLICATION = "ctg_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.context_processors.moves_waiting",
            ],
        },
    },
]

DATABASE_POOL = {"min_size": 2, "max_size": 20, "timeout": 10}
DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A pool, not persistent connections: under ASGI each request runs in a thread of its
    # own, and a connection kept for a finished thread would linger until collected.
    DATABASES["default"]["OPTIONS"] = {"pool": DATABASE_POOL}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Background work writes while requests do: writers queue for the lock, not fail.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def redis_channel_layer(url: str) -> dict:
    return {
        "BACKEND": "infra.channel_layer.RedisChannelLayer",
        "CONFIG": {
            # redis-py 8 reads with a 5 s socket timeout by default, as long as the layer's
            # blocking pop waits: a quiet socket would then fail. Give reads more time.
            "hosts": [{"address": url, "socket_timeout": 15, **redis_retry(asyncio=True)}],
            # The sockets of a daphne that died leave their groups after this long; those of
            # living ones are added again every quarter of it (infra.channel_layer).
            "group_expiry": 120,
        },
    }


def redis_cache(url: str) -> dict:
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "ctg",
        "OPTIONS": {"pool_class": "infra.redis_pool.SharedConnectionPool", **redis_retry()},
    }


REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL)}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Celery reads these through infra.celery. Without a broker, infra.background runs
# tasks in a thread of this process instead.
CELERY_BROKER_URL = REDIS_URL
# Without a broker, the web process runs the beat schedule itself (infra.background).
BACKGROUND_SWEEPS = True
# Nothing reads a task's result: storing them only added a write per task, one that hung
# (and ran into the time limits) while Redis was away.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes a prefork child's database pool before and after every task
# unless told to reuse it: two new PostgreSQL connections for each AI move. Reused, the pool
# is closed only every this many tasks; after each task its connections go back to the pool
# (infra.celery), so a connection broken meanwhile is replaced, not kept.
CELERY_DB_REUSE_MAX = 1000
# The longest a task is queued to wait (a live clock's check): a deadline further off (a
# correspondence game's day) is left to the sweeps, which find it within seconds of passing.
LONGEST_COUNTDOWN = 300
# With Redis as broker, a task taken by a worker that died (kill -9) is delivered again only
# after the visibility timeout (late acknowledgement and reject-on-worker-lost hand it back
# at once only when a pool process dies and the worker's main process lives). It stays
# longer than the longest countdown, or a task waiting for its time would be delivered
# twice; the sweeps that every worker runs find lost AI moves within a second and a half (their
# claims lapse: infra.claims), and clock checks and rating jobs within seconds.
#
# No retry of a command on a new connection here (redis-py retries once with retry_on_timeout):
# retried on a connection made afresh after a Redis restart, the read that the worker's event
# loop makes on its broadcast (pub/sub) connection blocked for good, and the worker took no
# task until it was killed. Failing instead, it reconnects as Celery does after a lost
# connection.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 600,
    "socket_connect_timeout": 2,
    "socket_keepalive": True,
}
# A worker never gives up on a Redis that is away; it consumes again as soon as it is back.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Queueing a task while Redis restarts waits a little for it, then gives up: the request
# answers, the post-commit retry (infra.background) and the sweeps do the rest.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 3,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# SIGTERM: a worker finishes the tasks it runs (warm shutdown) and gives back to Redis those
# it holds for later. On a cold shutdown (a second signal) it still gives running tasks this
# many seconds and gives back the rest, rather than leave them to the visibility timeout.
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = 10
CELERY_WORKER_ENABLE_SOFT_SHUTDOWN_ON_IDLE = True
# Seconds between beat's heartbeats (infra.liveness); /healthz counts a process as alive
# while its last heartbeat is younger than three of these.
HEARTBEAT_EVERY = 1.0
# Seconds between a worker's rounds: its heartbeat and, one worker a round, the sweeps. An AI
# move lost with its worker is set going again within this much of its claim lapsing
# (infra.claims).
SWEEP_EVERY = 0.5
CELERY_TIMEZONE = "UTC"
# The periodic jobs. Every worker runs them every few seconds, one worker at a time
# (infra.liveness): lost work is picked up whether or not beat runs. Beat, if one runs, adds a
# run a minute. Without a broker the web process runs them itself (infra.background).
CELERY_BEAT_SCHEDULE = {
    "sweep-clocks": {"task": "games.tasks.sweep_clocks", "schedule": 60.0},
    "sweep-pauses": {"task": "games.tasks.sweep_pauses", "schedule": 60.0},
    "sweep-ai-moves": {"task": "games.tasks.sweep_ai_moves", "schedule": 60.0},
    "sweep-reminders": {"task": "games.tasks.sweep_reminders", "schedule": 60.0},
    "sweep-recomputes": {"task": "leagues.tasks.sweep_recomputes", "schedule": 60.0},
    # Cheap (one indexed query) and the start of a round waits on it: every second.
    "sweep-events": {"task": "tournaments.tasks.sweep_events", "schedule": 1.0},
    "sweep-absentees": {"task": "tournaments.tasks.sweep_absentees", "schedule": 5.0},
    "sweep-analyses": {"task": "analysis.tasks.sweep_analyses", "schedule": 5.0},
}
# The sweeps' arguments for a process that starts alone (the embedded default): no task of
# another process can be under way, so an AI move is taken up however recent the table's
# last change.
SWEEPS_ALONE_KWARGS = {
    "sweep-ai-moves": {"quiet_seconds": 0},
    "sweep-analyses": {"patience_seconds": 0},
}
# Post-game analyses (analysis.tasks) go to their own queue, "analysis", which only the
# Procfile's `analyst` worker takes: half a minute of search each never delays an AI move.
# Samples per option of each decision; None: the analyser's own choice (tests take fewer).
ANALYSIS_SAMPLES: int | None = None
CELERY_TASK_ROUTES = {"analysis.tasks.analyse": {"queue": "analysis"}}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

EMAIL_BACKEND_NAME = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
_SMTP_OPTIONS = {
    "host": os.environ.get("EMAIL_HOST", "localhost"),
    "port": int(os.environ.get("EMAIL_PORT", "25")),
    "username": os.environ.get("EMAIL_HOST_USER", ""),
    "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
    "use_tls": env_bool("EMAIL_USE_TLS", False),
}
MAILERS = {
    "default": {
        "BACKEND": EMAIL_BACKEND_NAME,
        "OPTIONS": _SMTP_OPTIONS if EMAIL_BACKEND_NAME.endswith("smtp.EmailBackend") else {},
    }
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Call to Glory <noreply@localhost>")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True

# Production is served over TLS: cookies, redirects and HSTS say so unless turned off.
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_FAILURE_VIEW = "ctg_site.views.csrf_failure"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
# Behind a TLS proxy: the header it sets and the value meaning https, e.g.
# "HTTP_X_FORWARDED_PROTO,https". Only for a proxy that always sets (or strips) it.
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = tuple(env_list("SECURE_PROXY_SSL_HEADER", ""))
# The health check answers load balancers over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        # One line a process at start-up, and a line a reset: not worth the noise.
        "axes": {"level": "WARNING"},
    },
}

# ---- Brute force and floods: login lockout (django-axes) and rate limits -------------------
INSTALLED_APPS += ["axes"]
# Last: the rate limit answers htmx requests in their shape, and axes must see the response of
# the login view to turn it into the lockout page.
MIDDLEWARE += ["accounts.middleware.PostRateLimitMiddleware", "axes.middleware.AxesMiddleware"]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

if REDIS_URL:
    # Counters must be shared by every web process, or each would allow the full rate.
    CACHES = {"default": redis_cache(REDIS_URL)}
# The request header that holds the visitor's address. Behind a proxy, the one it sets (e.g.
# HTTP_X_FORWARDED_FOR or HTTP_X_REAL_IP); never a header a client can send straight to us.
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "REMOTE_ADDR")
AXES_CLIENT_IP_CALLABLE = "accounts.limits.client_address"
# Username and address together: whoever guesses at a member's password from one address locks
# only that pair, so a stranger cannot lock a member out of the site everywhere, and members
# behind a club's shared wifi do not lock each other out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
# A successful login forgets earlier typos, so mistakes spread over weeks never add up.
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.limits.locked_out"
AXES_USERNAME_CALLABLE = "accounts.limits.attempted_username"
# A record of every successful login is more than a club site needs to keep.
AXES_DISABLE_ACCESS_LOG = True
# Fixed windows of RATE_LIMIT_WINDOW seconds for writes; an hour for sign-ups. A fast player
# sends a move every second or two; a club night behind one address is a few dozen people.
RATE_LIMIT_WINDOW = 60
RATE_LIMIT_POSTS_PER_USER = int(os.environ.get("RATE_LIMIT_POSTS_PER_USER", "120"))
RATE_LIMIT_POSTS_PER_ADDRESS = int(os.environ.get("RATE_LIMIT_POSTS_PER_ADDRESS", "300"))
# Per hour; room for newcomers signing up together on a club's wifi.
RATE_LIMIT_SIGNUPS_PER_ADDRESS = int(os.environ.get("RATE_LIMIT_SIGNUPS_PER_ADDRESS", "10"))
# ---- end of brute force and floods ---------------------------------------------------------
