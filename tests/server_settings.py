"""The site's settings for a server a test starts in a process of its own (``make hall``'s app servers, the serve
checks' and the load test's server, through ``DJANGO_SETTINGS_MODULE``): ``referee.settings`` as deployed, with the
suite's fast password hasher, which the suite's own process takes from here (tests/conftest.py). A log-in on such a
server would otherwise hash the password it is sent (a wrong one and an unknown user's too) with a million PBKDF2
rounds, a third of a second of a core each, and the tests check who may log in, never the hash (tests/test_hashing.py checks the site's hasher). The accounts those tests
sign in with are made with these settings too, so their stored hashes are this hasher's."""

from referee.settings import *  # noqa: F403  (the site's settings, every one)

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
