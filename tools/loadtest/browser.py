"""Enough of a browser for the load test: cookies and one kept-alive connection to this machine, the way the
trick-entry page (static/js/deal.js) and a spectator's browser talk to the site."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode

CONNECTION_ERRORS = (OSError, http.client.HTTPException)
# Seconds a kept-alive connection is reused after its last answer: past a spectator's poll (5 s), within the
# server's keep-alive (referee/serve.py's KEEPALIVE, 75 s), as a browser does; a reused connection the server
# closed meanwhile is opened anew and the request sent once more (nothing was answered on it).
IDLE_REUSE = 30.0
STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    elapsed: float

    def json(self) -> dict:
        try:
            return json.loads(self.body)
        except ValueError:
            return {}

    @property
    def state(self) -> dict | None:
        return self.json().get("state")


class Browser:
    """Cookies and one kept-alive connection: enough of a browser for the site's forms and JSON actions."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None
        self.used_at = 0.0

    def request(
        self,
        method: str,
        path: str,
        fields: dict | None = None,
        *,
        accept_json: bool = False,
        headers: dict | None = None,
    ) -> Reply:
        """One request; connection errors are raised (and the connection dropped) for the caller to retry."""
        headers = {
            "Accept": "application/json" if accept_json else "text/html",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            **(headers or {}),
        }
        body = None
        if method == "POST":
            body = urlencode(fields or {})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if self.conn is not None and time.monotonic() - self.used_at > IDLE_REUSE:
            self.close()
        start = time.perf_counter()
        try:
            response, data = self._exchange(method, path, body, headers)
        except CONNECTION_ERRORS:
            self.close()
            raise
        elapsed = time.perf_counter() - start
        self.used_at = time.monotonic()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.will_close:
            self.close()
        return Reply(response.status, response.headers, data, elapsed)

    def _exchange(self, method: str, path: str, body, headers: dict):
        """The request on the kept connection (once more on a new one when the server had closed it idle)."""
        reused = self.conn is not None
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            return response, response.read()
        except STALE:
            if not reused:
                raise
            self.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            return response, response.read()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
