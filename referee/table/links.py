"""Opening a table's link (the QR code on its card): the device is signed in as the table's own account and
goes to the table's match page; it records that table alone (``access.table_refusal``) while the link is live.

No account or password is typed: the link is the key, so a wrong or dead one is counted against the address
(``referee.throttle.TABLE_LINKS``) and refused in one sentence. A live link always opens, even from an address
that has run out of tries: twenty garbage tokens must not lock every tablet behind one hall's router out.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from referee.security import client_address
from referee.throttle import TABLE_LINKS
from tournaments.tables import services as links

DEVICE_KEY = links.DEVICE_KEY
BACKEND = "referee.auth.ModelBackend"


def _refused(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(
        request, "error.html", {"title": _("Table link"), "message": message, "ways_back": []}, status=status
    )


@never_cache
@require_GET
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
    if request.user.pk != link.account_id or DEVICE_KEY not in request.session:
        login(request, link.account, backend=BACKEND)
        request.session[DEVICE_KEY] = secrets.token_hex(8)
    links.device_opened(link, request.session[DEVICE_KEY], request.headers.get("User-Agent", ""))
    return redirect("match", link.match_id)
