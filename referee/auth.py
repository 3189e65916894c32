"""Who is signed in (Django's database sessions and model backend, as they are) and the password rule's refusal
in the visitor's language."""

from __future__ import annotations

from django.contrib.auth import backends, password_validation
from django.utils.translation import ngettext


class ModelBackend(backends.ModelBackend):
    """Django's model backend, unchanged: kept under this name because every signed-in session stores the path of
    the backend that signed it in, and a path no longer configured signs the judge out."""


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's, its refusal worded from this site's catalogue: Django 5.2 words it anew (``%d`` characters)
    and its own Chinese catalogue still has only the old sentence, so the first-run page refused in English."""

    def get_error_message(self) -> str:
        return (
            ngettext(
                "This password is too short. It must contain at least %d character.",
                "This password is too short. It must contain at least %d characters.",
                self.min_length,
            )
            % self.min_length
        )
