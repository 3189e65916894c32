"""What a save carries besides a row's fields, declared once so the type checker knows it.

Services set these on a row just before saving it, and the save's listeners read them off the row:
simple-history records who made the change (``_history_user``) and why (``_change_reason``); the public cache's
pre-save receiver (``tournaments.public.generation``) notes what the row was before the save (``_left_shown``,
``_old_slug``). Annotations only: no field, no column, nothing at run time (Django's migrations see no base).
"""

from __future__ import annotations

from typing import Any


class SaveNotes:
    """Mixed into every model whose saves simple-history or the public cache reads such notes from."""

    _history_user: Any  # the user (or None) simple-history records for this save
    _change_reason: str  # the one-line reason simple-history records for this save
    _left_shown: bool  # a deal: was it on the public pages before this save (reopened)?
    _old_slug: str | None  # a tournament: its address before this save
