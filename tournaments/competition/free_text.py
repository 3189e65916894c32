"""The one check on free text before it reaches the database, for every path that bypasses Django's forms.

Forms' ``CharField`` already refuses NUL characters (PostgreSQL cannot store them: a ``DataError``, a 500). The
import, the judges' JSON actions and the recorded DEAL-RECORDs store text without a form, so they ask here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

NUL = "\x00"


def text_problem(value: str, max_length: int | None = None) -> str | None:
    """Why ``value`` cannot be stored as text (a NUL character, too long), in the active language; None if fine."""
    if NUL in value:
        return _("Must not contain NUL characters (\\0).")
    if max_length is not None and len(value) > max_length:
        return _("At most %(n)s characters.") % {"n": max_length}
    return None
