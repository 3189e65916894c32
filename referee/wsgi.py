"""WSGI entry point (gunicorn, uWSGI or waitress: see README, “Deployment”)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
application = get_wsgi_application()
