"""Settings for Foot Canasta, read from the environment (12-factor).

With no environment set the site runs on SQLite and the in-memory channel layer; with
DATABASE_URL and REDIS_URL it uses PostgreSQL and Redis.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Off unless asked for: a site started without it shows no debug page. `make run` sets what local
# play over plain HTTP needs (SECURE_COOKIES=0); the test servers turn DEBUG on themselves.
DEBUG = env_bool("DEBUG", False)
# The embedded key is for local development only; production sets SECRET_KEY (docs/DEPLOY.md).
SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me-in-production-0123456789")
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]
# Pages that may open the site's websockets besides the site itself as the socket reaches it
# (server/origins.py: scheme, host and port exactly; docs/DEPLOY.md).
WEBSOCKET_ALLOWED_ORIGINS = CSRF_TRUSTED_ORIGINS + [
    o.strip() for o in os.environ.get("WEBSOCKET_ALLOWED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",
    "server.admin_config.FootAdminConfig",  # Django's admin with a throttled login (server/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "players",
    "games",
    "leaderboards",
]

# django-prometheus (GET /metrics, server/metrics.py): the first and the last middleware, so that
# Django's request, response and exception counts and times include every other one.
MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "server.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "players.limits.RateLimitMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "server.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "server.asgi.application"
WSGI_APPLICATION = None

# Database connections (docs/DEPLOY.md, "Database connections"). Under ASGI each HTTP request's
# sync code runs in a thread of its own, so a connection kept past its request (CONN_MAX_AGE > 0)
# is never reused: it stays open until the garbage collector frees the ended thread's locals, one
# PostgreSQL connection per recent request ("too many clients";
# tests/reliability/test_request_connections.py). So on PostgreSQL, as Django advises for ASGI,
# psycopg's pool: every connection goes back to it at the end of its request or call (Django's
# CONN_MAX_AGE 0), at most DB_POOL_MAX_SIZE of them per process. The rooms' database threads, which
# live as long as the process and make every move's calls, keep theirs between calls for
# CONN_MAX_AGE seconds (games.rooms.database_threads): taking one from the pool for each call
# costs about 0.2 ms of CPU, its check included. On SQLite (`make run`, one process) a connection
# is an open file, not a server's slot, and CONN_MAX_AGE is Django's own: 0 by default, so that
# every connection closes at the end of its request or call.
DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE", "10"))
# On PostgreSQL (the deployed database), django-prometheus's wrapper of Django's backend counts new
# connections, statements, their errors and times for GET /metrics (`vendor` stays "postgresql").
# Not on SQLite: pytest-django keeps the in-memory test database only for Django's own backend name.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "django_prometheus.db.backends.postgresql"
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    sqlite_options = DATABASES["default"].setdefault("OPTIONS", {})
    # Moves are written from several threads; wait for the lock instead of failing at once, and
    # take the write lock when a transaction begins (IMMEDIATE): a reader that later writes cannot
    # then fail with "database is locked" halfway through a move.
    sqlite_options["timeout"] = 20
    sqlite_options["transaction_mode"] = "IMMEDIATE"
    # WAL: readers do not block the writer, and a commit needs no fsync of the database file; a
    # killed process still loses nothing committed (only a power cut could lose the last commits).
    sqlite_options["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "0"))

elif DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Server-side binding: parameters travel apart from the SQL, so psycopg need not quote them
    # into the text in Python, and a statement run often (every move's) is prepared once per
    # connection. PG_SERVER_SIDE_BINDING=0 turns it off.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = (
        os.environ.get("PG_SERVER_SIDE_BINDING", "1") == "1"
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool's condition: each connection goes back to it
    # The pool checks a connection before handing it out (an empty statement): one that PostgreSQL
    # or the network dropped while it sat idle is replaced, not given to a request to fail.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": min(2, DB_POOL_MAX_SIZE),
        "max_size": DB_POOL_MAX_SIZE,
        # A request or call waits this long for a free connection, then fails (PoolTimeout, a 500
        # or the rooms' retry): a database that is down answers in seconds, not in the default 30.
        "timeout": 10,
    }
# How long a room's database thread keeps its connection between calls (PostgreSQL), in seconds.
DB_THREAD_CONNECTION_SECONDS = int(os.environ.get("CONN_MAX_AGE", "60"))

REDIS_URL = os.environ.get("REDIS_URL")
# Redis pub/sub by default, delivered in the process when all of a group's sockets are there
# (server.channel_layer: no PUBLISH at all then); REDIS_LAYER=pubsub is channels_redis's own, where
# a group_send is one PUBLISH that each process subscribed to the group receives once, and
# REDIS_LAYER=core its list-based layer, which writes to every member's list (a multiple of the
# CPU per move: docs/PERFORMANCE.md).
REDIS_LAYERS = {
    "local": "server.channel_layer.LocalFirstChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
# The channel layer may spread its channels and groups over several Redis servers
# (REDIS_LAYER_URLS, comma-separated: channels_redis picks one per name by a consistent hash);
# REDIS_URL alone by default. The limits and the cache stay on REDIS_URL.
REDIS_LAYER_URLS = [u.strip() for u in os.environ.get("REDIS_LAYER_URLS", REDIS_URL or "").split(",") if u.strip()]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": REDIS_LAYERS[os.environ.get("REDIS_LAYER", "local")],
            "CONFIG": {"hosts": REDIS_LAYER_URLS},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache holds counts every process must share (the admin login's failures): Redis when
# configured, else the process's memory (one process: `make run`, the tests).
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Rate limits and socket caps (players/limits.py; docs/DEPLOY.md says what each means). A rate is
# "count/seconds", several windows joined by commas: "20/60,200/3600" is 20 a minute and 200 an
# hour. Set so that a family behind one address never meets them and a script soon does.
FOOT_LIMIT_GAME_SESSION = os.environ.get("FOOT_LIMIT_GAME_SESSION", "20/60,200/3600")
FOOT_LIMIT_GAME_NETWORK = os.environ.get("FOOT_LIMIT_GAME_NETWORK", "60/60,600/3600")
FOOT_LIMIT_PLAYER_NETWORK = os.environ.get("FOOT_LIMIT_PLAYER_NETWORK", "20/60,200/3600")
FOOT_LIMIT_JOIN_SESSION = os.environ.get("FOOT_LIMIT_JOIN_SESSION", "20/60,200/3600")
FOOT_LIMIT_JOIN_NETWORK = os.environ.get("FOOT_LIMIT_JOIN_NETWORK", "60/60,300/3600")
FOOT_LIMIT_NICKNAME_SESSION = os.environ.get("FOOT_LIMIT_NICKNAME_SESSION", "5/60,30/3600")
FOOT_LIMIT_NICKNAME_NETWORK = os.environ.get("FOOT_LIMIT_NICKNAME_NETWORK", "20/60,100/3600")
FOOT_LIMIT_LIST_SESSION = os.environ.get("FOOT_LIMIT_LIST_SESSION", "60/60,600/3600")
FOOT_LIMIT_LIST_NETWORK = os.environ.get("FOOT_LIMIT_LIST_NETWORK", "300/60,3000/3600")
# A replay's first build costs up to a second of CPU (docs/LEADERBOARDS.md): counted per request.
FOOT_LIMIT_REPLAY_SESSION = os.environ.get("FOOT_LIMIT_REPLAY_SESSION", "20/60,200/3600")
FOOT_LIMIT_REPLAY_NETWORK = os.environ.get("FOOT_LIMIT_REPLAY_NETWORK", "100/60,1000/3600")
# /api/watch from callers without a session cookie (scripts, not the page): their network's tighter window
FOOT_LIMIT_REPLAY_COOKIELESS_NETWORK = os.environ.get("FOOT_LIMIT_REPLAY_COOKIELESS_NETWORK", "10/60,60/3600")
# A ranked daily's replay from its board: /api/replay/<id> (200 steps of views a call) and its step page
FOOT_LIMIT_REPLAY_STEPS_SESSION = os.environ.get("FOOT_LIMIT_REPLAY_STEPS_SESSION", "30/60,300/3600")
FOOT_LIMIT_REPLAY_STEPS_NETWORK = os.environ.get("FOOT_LIMIT_REPLAY_STEPS_NETWORK", "120/60,1200/3600")
FOOT_LIMIT_REPLAY_PAGE_SESSION = os.environ.get("FOOT_LIMIT_REPLAY_PAGE_SESSION", "120/60,1200/3600")
FOOT_LIMIT_REPLAY_PAGE_NETWORK = os.environ.get("FOOT_LIMIT_REPLAY_PAGE_NETWORK", "600/60,6000/3600")
FOOT_SOCKETS_PER_SESSION = int(os.environ.get("FOOT_SOCKETS_PER_SESSION", "10"))
FOOT_SOCKETS_PER_NETWORK = int(os.environ.get("FOOT_SOCKETS_PER_NETWORK", "100"))
FOOT_SOCKETS_PER_GAME = int(os.environ.get("FOOT_SOCKETS_PER_GAME", "30"))
# Spectators' sockets count apart, in smaller caps: they never take a seated player's place.
FOOT_SPECTATORS_PER_GAME = int(os.environ.get("FOOT_SPECTATORS_PER_GAME", "20"))
FOOT_SPECTATORS_PER_NETWORK = int(os.environ.get("FOOT_SPECTATORS_PER_NETWORK", "30"))
# Every per-network count times this: for a load generator that plays hundreds of players from one
# address (bench_load), never for a real site.
FOOT_LIMIT_NETWORK_FACTOR = float(os.environ.get("FOOT_LIMIT_NETWORK_FACTOR", "1"))
FOOT_LIMIT_PREFIX = os.environ.get("FOOT_LIMIT_PREFIX", "foot:limit")  # Redis keys; one per site sharing a Redis
# GET /api/games and the home page: at most this many unfinished games, and finished ones in the history.
FOOT_MY_GAMES_UNFINISHED = int(os.environ.get("FOOT_MY_GAMES_UNFINISHED", "20"))
FOOT_MY_GAMES_FINISHED = int(os.environ.get("FOOT_MY_GAMES_FINISHED", "10"))
FOOT_REACTION_SECONDS = float(os.environ.get("FOOT_REACTION_SECONDS", "4"))  # one reaction per seat this often
FOOT_WS_IDLE_SECONDS = float(os.environ.get("FOOT_WS_IDLE_SECONDS", "300"))  # a socket silent this long is closed

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("bn", "বাংলা")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic gathers the files for nginx; each test cluster gathers into its own folder.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
WHITENOISE_USE_FINDERS = True

SESSION_COOKIE_AGE = 60 * 60 * 24 * 365 * 2  # an anonymous player keeps their identity for two years
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_HTTPONLY = False  # the page reads it to send X-CSRFToken
SECURE_CONTENT_TYPE_NOSNIFF = True

LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING")
# "json": one JSON object per line (time, level, logger, process, game id, seat, request id:
# server/logs.py); anything else: human-readable lines.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # No personal link's secret in a log line (server/log_redaction.py); the ids of what is served.
    "filters": {
        "redact_secrets": {"()": "server.log_redaction.RedactSecrets"},
        "log_context": {"()": "server.logs.LogContext"},
    },
    "formatters": {"site": {"()": "server.logs.formatter_from_settings"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["redact_secrets", "log_context"],
            "formatter": "site",
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own "django" handler (a console under DEBUG) would write its records unfiltered:
        # they go to the root's handler instead.
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        # Its SQL at DEBUG would write positions, hands and seeds: never below INFO.
        "django.db.backends": {"handlers": [], "level": "INFO" if LOG_LEVEL == "DEBUG" else LOG_LEVEL},
        # Daphne's access log (server.serve), a line per request, at every LOG_LEVEL.
        "foot.access": {"handlers": [], "level": "INFO", "propagate": True},
    },
}


# ---- Foot Canasta's own settings: every FOOT_* is read here, from the environment, and nowhere
# else (the apps read django.conf.settings); docs/DEPLOY.md lists them with their defaults.
def env_number(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


# Rooms (games.rooms)
FOOT_BOT_DELAY = env_number("FOOT_BOT_DELAY", 0.3)  # seconds between two computer moves, so people can follow
# A friend with no socket this long is played by the computer. The deadline is worked out from the
# presence rows in the database, so it must be the same on every process.
FOOT_AWAY_GRACE_SECONDS = env_number("FOOT_AWAY_GRACE_SECONDS", 30)
FOOT_HEARTBEAT_SECONDS = env_number("FOOT_HEARTBEAT_SECONDS", 10)  # how often a socket refreshes its presence
FOOT_NEXT_DEAL_TIMEOUT = env_number("FOOT_NEXT_DEAL_TIMEOUT", 30)  # friends: the next deal starts after this
FOOT_DB_THREADS = env_int("FOOT_DB_THREADS", 4)  # threads for the rooms' database calls (PostgreSQL; SQLite: 1)
if "pool" in DATABASES["default"].get("OPTIONS", {}) and DB_POOL_MAX_SIZE <= FOOT_DB_THREADS:
    # The rooms' threads keep a connection each: a pool no bigger would leave none for a request.
    raise ImproperlyConfigured(f"DB_POOL_MAX_SIZE ({DB_POOL_MAX_SIZE}) must exceed FOOT_DB_THREADS ({FOOT_DB_THREADS})")
FOOT_LIVE_GAMES = env_int("FOOT_LIVE_GAMES", 1000)  # games kept in memory between moves (games.rooms.live_games)
# Computer players (games.rooms.bot_runner)
FOOT_BOT_POOL = os.environ.get("FOOT_BOT_POOL", "mixed")  # mixed: hard in processes, the rest in threads
FOOT_BOT_WORKERS = env_int("FOOT_BOT_WORKERS", 2)  # workers per bot pool
# The look back after a deal (games.rooms.lookback): its own pool, at a lower CPU priority, and at
# most this many asked and not yet answered per process (more are refused: look_back_busy)
FOOT_LOOKBACK_POOL = os.environ.get("FOOT_LOOKBACK_POOL", "process")  # or "thread" (in-process tests)
FOOT_LOOKBACK_WORKERS = env_int("FOOT_LOOKBACK_WORKERS", 1)
FOOT_LOOKBACK_NICE = env_int("FOOT_LOOKBACK_NICE", 10)
FOOT_LOOKBACK_QUEUE = env_int("FOOT_LOOKBACK_QUEUE", 8)
# Of those places, one player holds at most this many, and one network (its players together) this many
FOOT_LOOKBACK_PER_PLAYER = env_int("FOOT_LOOKBACK_PER_PLAYER", 2)
FOOT_LOOKBACK_PER_NETWORK = env_int("FOOT_LOOKBACK_PER_NETWORK", 4)
# A look back's search waits while others keep more than this share of the machine's CPU busy
# (games.rooms.machine_idle; 1 never waits), and a player waits at most FOOT_LOOKBACK_WAIT
# seconds for it: then look_back_later, and the search goes on to be read at the next ask.
FOOT_LOOKBACK_BUSY = env_number("FOOT_LOOKBACK_BUSY", 0.5)
FOOT_LOOKBACK_WAIT = env_number("FOOT_LOOKBACK_WAIT", 30)
# server.serve closes an HTTP connection whose request has not all arrived in this time (0: never)
FOOT_HTTP_REQUEST_SECONDS = env_number("FOOT_HTTP_REQUEST_SECONDS", 10)
# The websocket's flood limit (games.consumers): messages per second, and at once
FOOT_WS_RATE = env_number("FOOT_WS_RATE", 10)
FOOT_WS_BURST = env_number("FOOT_WS_BURST", 30)
# Frames a socket may have waiting to be handled; one more closes it 4008 (games.inbox).
FOOT_WS_BACKLOG = env_int("FOOT_WS_BACKLOG", 32)
# A ranked daily counts if finished by the end of its UTC date plus this grace (games.daily_clock,
# docs/LEADERBOARDS.md)
FOOT_DAILY_GRACE_SECONDS = env_int("FOOT_DAILY_GRACE_SECONDS", 600)
FOOT_DAILY_PREPARE_SECONDS = env_int("FOOT_DAILY_PREPARE_SECONDS", 3600)
# A deal first made by a request gets its par from a background thread (leaderboards.par); off,
# the par is left to prepare_daily (the daily keeper, cron). The in-process tests turn it off.
FOOT_PAR_IN_BACKGROUND = env_bool("FOOT_PAR_IN_BACKGROUND", True)
# The admin login allows this many failures per network in the window, in seconds (server/admin.py)
FOOT_ADMIN_LOGIN_FAILURES = env_int("FOOT_ADMIN_LOGIN_FAILURES", 5)
FOOT_ADMIN_LOGIN_WINDOW = env_int("FOOT_ADMIN_LOGIN_WINDOW", 900)
# Running the service (server.health, server.metrics, server.serve): each /readyz check's time
# limit in seconds; the networks besides loopback that may read /metrics (comma-separated CIDRs);
# and how long a process on SIGTERM waits for moves in flight and sockets to close before it exits.
FOOT_READY_TIMEOUT = env_number("FOOT_READY_TIMEOUT", 2)
FOOT_METRICS_NETWORKS = [n.strip() for n in os.environ.get("FOOT_METRICS_NETWORKS", "").split(",") if n.strip()]
FOOT_DRAIN_SECONDS = env_number("FOOT_DRAIN_SECONDS", 10)
# Test hooks, off unless FOOT_TEST_HOOKS turns them on (the tests and the benchmarks do): the
# /test/start-position and /test/cached-games routes, the /ws/echo/ socket, FOOT_FAULT and FOOT_BOT_FACTORY below, and
# window.footTable in the table's page. With it off, the two below are ignored.
FOOT_TEST_HOOKS = env_bool("FOOT_TEST_HOOKS", False)
FOOT_FAULT = os.environ.get("FOOT_FAULT", "")  # <point>[@<version>][:lost]: exit there, or lose the answer once
FOOT_BOT_FACTORY = os.environ.get("FOOT_BOT_FACTORY", "")  # "module:function" in place of games.bots.make_bot

if not DEBUG:
    # Production-only HTTPS settings, from the environment (docs/RELIABILITY.md lists the values that
    # pass `manage.py check --deploy`). Off unless set, so a plain-HTTP bench can run with DEBUG=0.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if os.environ.get("SECURE_PROXY_SSL_HEADER"):  # e.g. "HTTP_X_FORWARDED_PROTO=https" behind a TLS proxy
        SECURE_PROXY_SSL_HEADER = tuple(os.environ["SECURE_PROXY_SSL_HEADER"].split("=", 1))
    if "SECRET_KEY" not in os.environ:
        # The embedded development key passes Django's key checks; marked so, `check --deploy` refuses it (W009).
        SECRET_KEY = "django-insecure-" + SECRET_KEY
