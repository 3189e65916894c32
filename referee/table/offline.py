"""The trick-entry page without a network: the service worker that lets it load offline, and the words of the
device's journal (``static/js/journal.js``), which keeps every entry until the server has stored it.

The worker is served by Django at the site's root (``/sw.js``) so its scope covers every deal page; its text is a
template so it names the static files by their stored (hashed) names. It caches deal pages and static files as
they are fetched and answers from that cache only when the network fails; it never touches a write.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# The files a deal page needs, fetched by the worker when it installs (the page itself is cached when visited).
PAGE_FILES = (
    "css/site.css",
    "css/table.css",
    "css/journal.css",
    "js/site.js",
    "js/notation.js",
    "js/journal.js",
    "js/picker.js",
    "js/overlay.js",
    "js/deal.js",
    "js/clock.js",
)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker's script: at the root, allowed the whole site, never cached stale by the browser."""
    body = render_to_string("referee/sw.js", {"files": PAGE_FILES}, request=request)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def journal_labels() -> dict[str, str]:
    """The journal's words on the trick-entry page, in the judge's language."""
    return {
        "waiting": _("Waiting to be sent: %(n)s"),
        "down": _("No network: every entry is kept on this device and sent, in order, when it returns."),
        "insecure": _(
            "This site is not served over HTTPS: the page needs the network to reload, so do not reload it "
            "while the network is down (the entries are kept either way)."
        ),
        "queued": _("Saved on this device; it will be sent when the network returns."),
        "recovered": _("The network is back: saved."),
        "next_seat": _("Next to play, as entered on this device: %(seat)s"),
        "who_won": _("Who won trick %(n)s? The page cannot judge while offline: tap the winner."),
        "tap_winner": _("Tap who won trick %(n)s first."),
        "pending_turn": _("Next: with the server's answer"),
        "winner_claim": _("Trick %(n)s won by %(seat)s"),
        "trick_play": _("Trick %(n)s · %(seat)s: %(cards)s"),
        "refused": _("Refused by the server"),
        "held": _("waits for the refused entry above"),
        "unsent": _("not sent yet"),
        "sending": _("sending…"),
        "send_again": _("Send again"),
        "force": _("The player did play this: record it anyway"),
        "retype": _("Retype"),
        "retyping": _("being retyped in the field above"),
        "discard": _("Discard"),
        "dismiss": _("OK"),
        "undo": _("Undo last play"),
        "undo_trick": _("Undo last trick"),
        "kitty": _("Kitty"),
        "failed": _(
            "The server could not take this entry (error %(status)s): reload the page, or discard it."
        ),
        "busy": _("First let the waiting entries be sent, or settle the refused one."),
        "giving_back": _(
            "The desk was restored from a backup: this device is sending back what it recorded."
        ),
    }
