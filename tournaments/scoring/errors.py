"""The refusals of the recording service and of the desk's writes to a match: a message for the judge, a code for
programs, an HTTP status for pages (the engine's violations in the judge's words are the table side's)."""

from __future__ import annotations

from typing import Any


class RecordingError(Exception):
    """A write the service refuses; ``message`` is for the judge (translated), ``code`` for programs."""

    code = "refused"
    status = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class PermissionRefused(RecordingError):
    code = "forbidden"
    status = 403


class DraftRound(PermissionRefused):
    """The match's round is a draft: the TD may still change or discard its pairing, so nothing is entered."""

    code = "draft"


class Finished(RecordingError):
    """The match's tournament is finished: its results are final until the director reopens it."""

    code = "finished"
    status = 409


class Frozen(RecordingError):
    """The deal is submitted (or confirmed): it is frozen until it is reopened with a reason."""

    code = "frozen"
    status = 409


class StaleEdit(RecordingError):
    """Someone saved the deal since the writer loaded it."""

    code = "stale"
    status = 409


class IllegalPlay(RecordingError):
    """The engine found a fault in the play; ``violations`` are the verdict's, for this play."""

    code = "illegal"
    status = 422

    def __init__(self, message: str, violations: list[dict], forceable: bool) -> None:
        super().__init__(message, violations=violations, forceable=forceable)
        self.violations = violations
        self.forceable = forceable
