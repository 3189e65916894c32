"""gunicorn's access log (``make serve`` names it with ``--logger-class``) with no live table token in it: the
request line, the path and the referrer of ``/k/<token>/`` are written as ``/k/…``; behind a trusted proxy the
address is the client's, as the throttles count it (``referee.security.address_of``)."""

from __future__ import annotations

from gunicorn.glogging import Logger

from referee.logs import redact
from referee.proxies import address_of


class TokenHidingLogger(Logger):
    def atoms(self, resp, req, environ, request_time) -> dict:
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["h"] = address_of(environ) or atoms.get("h", "-")
        return {name: redact(value) if isinstance(value, str) else value for name, value in atoms.items()}
