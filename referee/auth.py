"""Who is signed in, read on every request with prepared reads (``recording.prepared``), and the password rule's
refusal in the visitor's language.

Django's session store and model backend build the same two queries afresh on every request — the session by
its key, the user by id — which is a good part of a play's cost. These subclasses change only that: the same
rows are read, and an expired session or an inactive user is refused exactly as Django refuses them.
``SESSION_ENGINE = "referee.auth"`` and ``AUTHENTICATION_BACKENDS`` select them.
"""

from __future__ import annotations

from django.contrib.auth import backends, get_user_model, password_validation
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone
from django.utils.translation import ngettext

from referee.table.recording.prepared import Prepared

SESSION = Prepared(lambda key: Session.objects.filter(session_key=key).order_by())
USER = Prepared(lambda pk: get_user_model()._default_manager.filter(pk=pk).order_by())


class SessionStore(db.SessionStore):
    """The database session store, its row read with a prepared read."""

    def _get_session_from_db(self):
        found = SESSION.first(self.session_key) if self.session_key else None
        if found is None or found.expire_date <= timezone.now():  # as Django: an expired session is no session
            self._session_key = None
            return None
        return found


class ModelBackend(backends.ModelBackend):
    """Django's model backend, the signed-in user read with a prepared read."""

    def get_user(self, user_id):
        try:
            pk = get_user_model()._meta.pk.to_python(user_id)
        except Exception:  # a session holding no valid id: signed out, as Django's lookup error would
            return None
        user = USER.first(pk)
        return user if user is not None and self.user_can_authenticate(user) else None


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's, its refusal worded from this site's catalogue: Django 5.2 words it anew (``%d`` characters)
    and its own Chinese catalogue still has only the old sentence, so the first-run page refused in English."""

    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
            self.min_length,
        ) % self.min_length
