"""The board page at a duplicate table (RULES §14.2, §14.6): the judge checks the round's current board, records
the trump calls of a board marked ``called``, and starts it; a fouled board calls the referee from here.

The table's link and the match page send a duplicate table here; once a board is being played the page sends
the judge on to it (the trick-entry page, where the picker knows the board's hands)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from referee.table import actions
from referee.table.screens.board_check import board_screen
from referee.table.views import load_match, refused_page
from tournaments.calls.forms import CallForm
from tournaments.duplicate.movement import is_duplicate_match
from tournaments.models import TableCall
from tournaments.scoring.errors import Finished, PermissionRefused
from tournaments.table_links import services as table_links


def posted_number(value: str | None) -> int | None:
    """The board number the page was drawn for: None when not sent, 0 (no board: refused as another board's page)
    when it is not a board number."""
    if not value:
        return None
    return int(value) if value.isascii() and value.isdigit() and len(value) < 5 else 0


@login_required
def board_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """GET: the round's boards and the current one to check; POST: start it (checked, and a called board's
    shows), once per write key."""
    match = load_match(request, match_id)
    if not is_duplicate_match(match):
        raise Http404
    table_links.note_visit(request.user, getattr(request, "session", None))
    try:
        screen = board_screen(match, request.user)
    except (PermissionRefused, Finished) as exc:
        return refused_page(request, exc)
    if screen["open_deal"] is not None and request.method != "POST":
        return redirect("deal", screen["open_deal"].pk)
    error, status = "", 200
    if request.method == "POST":
        shows = [(c["seat"], request.POST.get(f"show_{c['seat']}", "")) for c in screen.get("callers", [])]
        outcome = actions.start_board(
            match,
            request.user,
            {
                "board_number": posted_number(request.POST.get("board")),
                "checked": request.POST.get("checked") == "1",
                "shows": shows,
            },
            actions.request_key(request),
        )
        if outcome.ok:
            return redirect("deal", outcome.body["deal"])
        error, status = outcome.message, outcome.status
    form = CallForm(initial={"reason": TableCall.Reason.FOULED}, boards=True)
    return render(
        request, "referee/board.html", {**screen, "error": error, "fouled_form": form}, status=status
    )
