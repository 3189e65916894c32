"""A team event's refusal: ``message`` for the person (translated), ``status`` for the page."""

from __future__ import annotations


class TeamError(Exception):
    """A write refused; ``message`` is for the person (translated), ``status`` for the page."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
