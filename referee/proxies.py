"""Which requests come through the site's own proxy, and whose address a request carries: one answer for the
throttles, the log-in lock-out and the access log. Django's settings only (gunicorn's logger imports it before
the apps are loaded)."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

from django.conf import settings


def trusted_proxy(address: str) -> bool:
    """Whether ``address`` is one of ``TRUSTED_PROXIES`` (an address or a network)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for entry in settings.TRUSTED_PROXIES:
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:  # a mistyped entry trusts nothing
            continue
    return False


def address_of(environ: Mapping[str, str]) -> str:
    """``client_address`` of a WSGI environ (a request's META), for the access log too."""
    remote = environ.get("REMOTE_ADDR", "")
    if settings.BEHIND_PROXY and trusted_proxy(remote):
        forwarded = [part.strip() for part in environ.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded[-1]:
            return forwarded[-1]
    return remote
