"""Spectators polling every five seconds keep their connection: the server holds an idle one longer than the
poll (``make serve`` and the load test's server alike), and the load test's browsers reuse it as a browser does."""

from __future__ import annotations

import http.server
import threading
import time

import pytest

from referee import serve
from tools.loadtest.browser import Browser
from tools.loadtest.server import Server

POLL = 5  # seconds: the spectators' default interval (manage.py load --spectator-interval)


def keep_alive_of(argv: list[str]) -> int:
    for n, arg in enumerate(argv):
        if arg.startswith("--keep-alive="):
            return int(arg.split("=", 1)[1])
        if arg == "--keep-alive":
            return int(argv[n + 1])
    return 2  # gunicorn's default


@pytest.mark.parametrize("server", ["make serve", "the load test"])
def test_the_server_keeps_an_idle_connection_longer_than_a_spectators_poll(server, tmp_path):
    if server == "make serve":
        argv = serve.gunicorn_argv("127.0.0.1:8000")
    else:
        argv = Server(tmp_path, {}, 8000, tmp_path / "log", 2, 8).command()
    assert keep_alive_of(argv) > 2 * POLL


class Counting(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keeps the connection
    connections: list = []

    def setup(self) -> None:
        super().setup()
        Counting.connections.append(self.client_address)

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args) -> None:
        pass


def test_a_browser_polling_every_five_seconds_reuses_its_connection(monkeypatch):
    Counting.connections = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        browser = Browser("127.0.0.1", httpd.server_address[1], timeout=5)
        clock = [time.monotonic()]
        monkeypatch.setattr(time, "monotonic", lambda: clock[0])
        for _poll in range(3):
            assert browser.request("GET", "/standings/").status == 200
            clock[0] += POLL
        assert len(Counting.connections) == 1
        browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
