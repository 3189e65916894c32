"""Opening a table's link (the QR code on its card): the device is signed in as the table's own account and
goes to the table's match page; it records that table alone (``access.table_refusal``) while the link is live.

No account or password is typed: the link is the key, so a wrong or dead one is counted against the address
(``tournaments.competition.throttle.TABLE_LINKS``) and refused in one sentence. A live link always opens, even from an address
that has run out of tries: twenty garbage tokens must not lock every tablet behind one hall's router out.

A browser signed in to another account (the director's) is asked first: the switch is a POST from that page
(CSRF-checked), so a page elsewhere that links or embeds ``/k/<token>/`` cannot sign the director out.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from referee.security import client_address
from tournaments.competition.access import is_table_account
from tournaments.competition.throttle import TABLE_LINKS
from tournaments.duplicate.movement import is_duplicate_match
from tournaments.table_links import services as links

DEVICE_KEY = links.DEVICE_KEY
BACKEND = "referee.auth.ModelBackend"


def _refused(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(
        request, "error.html", {"title": _("Table link"), "message": message, "ways_back": []}, status=status
    )


def _ask_first(request: HttpRequest, link) -> HttpResponse:
    user = request.user
    signed_in_as = "" if is_table_account(user) else user.get_username()
    context = {"signed_in_as": signed_in_as, "table": link.match.table}
    return render(request, "referee/table_link_switch.html", context)


@never_cache
@require_http_methods(["GET", "POST"])
def open_link(request: HttpRequest, token: str) -> HttpResponse:
    link = links.live_link(token)
    if link is None:
        if not TABLE_LINKS.take(client_address(request)):
            return _refused(
                request, 429, _("Too many wrong table links from this network: wait a minute and scan again.")
            )
        message = _(
            "This table link does not work: it was withdrawn, or its round or tournament is finished."
        )
        return _refused(request, 404, message)
    if request.user.is_authenticated and request.user.pk != link.account_id and request.method != "POST":
        return _ask_first(request, link)
    if request.user.pk != link.account_id or DEVICE_KEY not in request.session:
        login(request, link.account, backend=BACKEND)
        request.session[DEVICE_KEY] = secrets.token_hex(8)
    links.device_opened(link, request.session[DEVICE_KEY], request.headers.get("User-Agent", ""))
    if is_duplicate_match(link.match):  # a duplicate table opens on the round's current board
        return redirect("board", link.match_id)
    return redirect("match", link.match_id)
