"""A QR code drawn on the server as inline SVG (segno): no image file, no network, nothing cached."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, title: str = "") -> SafeString:
    """The code of ``text`` as an ``<svg>`` element that scales to its box (a ``viewBox``, no fixed size)."""
    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=1, border=2, omitsize=True, svgclass="qr", title=title or None)
    return mark_safe(svg)  # noqa: S308 — segno writes the whole element; ``title`` is escaped by segno
