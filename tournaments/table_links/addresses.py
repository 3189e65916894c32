"""The address a QR code carries: the hall's (``settings.PUBLIC_URL``, which `make serve` sets to the address it
finds on the hall's network), else the one the page was opened on — which, on the machine itself (127.0.0.1),
points a phone nowhere: the desk says so (``opened_on_loopback``)."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def hall_url(request: HttpRequest, path: str) -> str:
    """``path`` (absolute, from ``reverse``) at the hall's address."""
    base = getattr(settings, "PUBLIC_URL", "")
    return base + path if base else request.build_absolute_uri(path)


def loopback(host: str) -> bool:
    """Whether ``host`` (a request's, without the port) is this machine only."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def opened_on_loopback(request: HttpRequest) -> bool:
    """The page was opened on this machine's own address and no hall address is set: a QR code would point a
    phone at itself."""
    if getattr(settings, "PUBLIC_URL", ""):
        return False
    host = (
        request.get_host().rsplit(":", 1)[0] if not request.get_host().endswith("]") else request.get_host()
    )
    return loopback(host)
