"""The people's services' refusal: the TD's message and an HTTP status (the pairs' and the accounts' alike)."""

from __future__ import annotations


class PeopleError(Exception):
    """A write the desk refuses; ``message`` is for the TD (translated), ``status`` for the page."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
