"""A download's file name: the name as people wrote it (Chinese too), with an ASCII name for old clients.

``Content-Disposition: attachment; filename="chun-ji-sai-20261201.xlsx"; filename*=UTF-8''%E6%98%A5…`` (RFC 6266
and RFC 5987): a browser that reads ``filename*`` saves the file under the tournament's own name; one that does
not takes the ASCII fallback (the address's slug).
"""

from __future__ import annotations

import re
from urllib.parse import quote

from django.http import HttpResponse

# Characters no file name should carry (path separators, quotes, control characters, Windows' reserved ones).
UNSAFE = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|]+')
ASCII_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(name: str) -> str:
    return UNSAFE.sub("-", name).strip(" .-")[:150] or "download"


def content_disposition(name: str, fallback: str) -> str:
    """The header's value for a file called ``name`` (any script), ``fallback`` for clients without RFC 5987."""
    ascii_name = ASCII_UNSAFE.sub("-", fallback).strip("-") or "download"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(safe_name(name), safe='')}"


def attach(response: HttpResponse, name: str, fallback: str) -> HttpResponse:
    response["Content-Disposition"] = content_disposition(name, fallback)
    return response
