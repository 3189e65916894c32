"""What the site's log lines may say: no live table token (``/k/<token>/`` is a key to a table) and, for a
refusal the site meant (a 403, a 404), one line instead of a traceback nobody needs.

``redact`` is shared with the access log (``referee/access_log.py``); the filters are named in ``LOGGING``.
"""

from __future__ import annotations

import logging
import re

TABLE_TOKEN = re.compile(r"/k/[^/?#\s\"']+")
HIDDEN = "/k/…"


def redact(text: str) -> str:
    """``text`` with every table link's token replaced by an ellipsis."""
    return TABLE_TOKEN.sub(HIDDEN, text) if "/k/" in text else text


class HideTableTokens(logging.Filter):
    """A record's message formatted once, its tokens hidden (Django's ``Not Found: /k/…`` for a dead link)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = redact(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


class RefusalsInOneLine(logging.Filter):
    """``django.request``'s lines for a response below 500 (a 403 the site raised on purpose) without the
    traceback: 1.3 KB a refusal otherwise."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info, record.exc_text = None, None
        return True
