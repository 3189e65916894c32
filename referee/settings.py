"""Settings of the referee site, all read from the environment (see README, “Deployment”)."""

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from referee.config import (
    BACKUP_EVERY_DEFAULT,
    backup_dir,
    caches,
    database,
    env_bool,
    env_int,
    env_list,
    env_seconds,
    log_file,
    logging_config,
    public_url,
    referrer_policy,
    secret_key,
    throttles,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = secret_key(DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
PUBLIC_URL = public_url()  # the hall's address, for the QR codes (referee/config.py)
CSRF_FAILURE_VIEW = "referee.error_pages.csrf_failure"  # the site's styled refusal, not Django's English page

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "simple_history",
    "axes",
    "tournaments",
    "referee.table",
    "tools",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "referee.middleware.ChineseFirstLocaleMiddleware",
    "referee.middleware.ApiRateLimit",  # the public API: requests per address (before any database read)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "referee.middleware.RequestSizeLimitMiddleware",
    "referee.middleware.RequestCheckMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
    "referee.middleware.MethodNotAllowedPage",
    "referee.middleware.RefusalPages",
]

ROOT_URLCONF = "referee.urls"
WSGI_APPLICATION = "referee.wsgi.application"
ASGI_APPLICATION = "referee.asgi.application"

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
                "tournaments.competition.access.context",
            ],
        },
    },
]

DATABASES = {"default": database(BASE_DIR)}
CACHES = caches(BASE_DIR, DATABASES["default"])  # the public pages' cache (tournaments/public/caching.py)
THROTTLES = throttles(
    BASE_DIR, DATABASES["default"]
)  # failed tries' counts, apart from the pages (throttle.py)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes counts failed log-ins first, then Django checks the password.
AUTHENTICATION_BACKENDS = [
    "referee.security.LoginThrottleBackend",
    "referee.auth.ModelBackend",  # Django's, under the name sessions signed in before carry
]
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Django's hashers, PBKDF2 first and run at a low CPU priority (referee/hashing.py): a crowd of sign-ins does not
# slow the pages. The others read hashes a site may have from elsewhere.
PASSWORD_HASHERS = [
    "referee.hashing.LowPriorityPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "referee.auth.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },  # Django's, said in Chinese
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "zh-hans"
# Traditional Chinese (Hong Kong, Taiwan, Singapore, Malaysia): its catalogue is made from the simplified one
# (`manage.py make_zh_hant`, referee/traditional.py).
LANGUAGES = [
    ("zh-hans", _("Simplified Chinese")),
    ("zh-hant", _("Traditional Chinese")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

# HTTPS, when the site is served over it (README, “Deployment”). Behind a reverse proxy that terminates TLS,
# BEHIND_PROXY=1 trusts its X-Forwarded-Proto and X-Forwarded-For; never set it without such a proxy.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
# The proxies whose X-Forwarded-For is believed (addresses or networks): a request from anywhere else is counted by
# its own address, whatever header it sends. The proxy on the same machine by default (`make hall`).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
SECURE_SSL_REDIRECT = env_bool("SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = referrer_policy()
X_FRAME_OPTIONS = "DENY"

# Scripts and styles only from the site's own files: no inline script, handler or style attribute anywhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Login throttling: 5 failed log-ins for one account, or from one address, lock that account or that address
# out for 15 minutes (each further failure starts the 15 minutes again); a successful log-in clears its own
# account's count, not the address's (``referee.security.lockout_parameters``). The director lifts a lock early
# in the admin (“Access attempts”) or with `manage.py axes_reset`.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = "referee.security.lockout_parameters"  # the account and the address
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "referee.security.attempted_username"  # no longer than an account's name
AXES_CLIENT_IP_CALLABLE = "referee.security.client_address"
AXES_LOCKOUT_CALLABLE = "referee.security.lockout_response"
AXES_SENSITIVE_PARAMETERS = ["username"]  # the log names the address; a user name may be a mistyped password

# Request bodies: a visitor who has not logged in sends at most a login form; a signed-in user at most the pair
# import (1 MB file) with room to spare. The middleware refuses larger ones from Content-Length alone.
REQUEST_MAX_BYTES_ANONYMOUS = 64 * 1024
REQUEST_MAX_BYTES_SIGNED_IN = 2 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024  # form fields and JSON, files excluded
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES_SIGNED_IN  # an accepted upload stays in memory, never on disk

LOG_FILE = log_file()
LOGGING = logging_config(LOG_FILE)

# Backups (tournaments/backup, docs/running-the-day.md): ``make serve`` takes one every BACKUP_EVERY (seconds, or
# 5m, 1h; 0 turns the timer off) and, with BACKUP_AFTER_ROUND (which serve turns on), after each round published;
# the newest BACKUP_KEEP and the newest of each round are kept in BACKUP_DIR.
BACKUP_EVERY = env_seconds("BACKUP_EVERY", BACKUP_EVERY_DEFAULT)
BACKUP_DIR = backup_dir(BASE_DIR, DATABASES["default"])
BACKUP_KEEP = env_int("BACKUP_KEEP", 48)
BACKUP_AFTER_ROUND = env_bool("BACKUP_AFTER_ROUND", False)
