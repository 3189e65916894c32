"""What the projector screen shows: the current round's seating by pair name, the standings in pages, the round's
progress, the director's message and the QR code to the public site.

Each panel follows the tournament's public switches as the public pages do (``access.can_see_page``): a panel whose
switch is off is not built at all, so its data never reaches the page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import segno
from django.db.models import Count, Min, Q
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.board.state import time_limit
from tournaments.competition import access
from tournaments.models import Bye, Deal, Match, Round, Tournament
from tournaments.standings.compute import compute_standings

SEATING_PAGE = 24  # two columns of twelve: readable from 5 m on a 720-line projector
STANDINGS_PAGE = 12
RECENT_RESULTS = 6


@dataclass
class Seat:
    """One pair's place in the round: its table and side, and its opponents (none: a bye)."""

    pair: str
    table: int | None
    side: str
    opponent: str


@dataclass
class Panel:
    """One page of the screen's cycle: a kind (seating, standings, progress), its key and its rows."""

    kind: str
    key: str
    title: str
    rows: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


def current_round(tournament: Tournament) -> Round | None:
    """The round the room is playing: the latest published one, else the latest finished; never a draft."""
    rounds = tournament.rounds.exclude(state=Round.State.DRAFT).order_by("-number")
    return rounds.filter(state=Round.State.PUBLISHED).first() or rounds.first()


def name_order(name: str) -> tuple[str, str]:
    """Pairs by name as a player looks for theirs: Chinese names by their pinyin, so 安 comes before 张."""
    from pypinyin import lazy_pinyin  # at first use: its dictionaries cost 0.2 s at every start

    return ("".join(lazy_pinyin(name)).lower(), name)


def seating(rnd: Round) -> list[Seat]:
    """Every pair of the round, by name: where it sits and against whom."""
    seats = []
    for m in rnd.matches.select_related("pair_ns", "pair_ew"):
        seats.append(Seat(m.pair_ns.name, m.table, _("N–S"), m.pair_ew.name))
        seats.append(Seat(m.pair_ew.name, m.table, _("E–W"), m.pair_ns.name))
    for bye in Bye.objects.filter(round=rnd).select_related("pair"):
        seats.append(Seat(bye.pair.name, None, "", _("bye")))
    return sorted(seats, key=lambda seat: name_order(seat.pair))


FILLS = (100, 125, 150, 175, 200)  # the type's steps (per cent) a short page grows by: CSS classes fill-<n>


def fill(rows: int, room: int) -> int:
    """How much larger a page's type may be when it has ``rows`` of the ``room`` a page holds, so eight pairs
    fill the screen as 24 do (the largest step that fits, at most twice)."""
    return max((step for step in FILLS if step * max(rows, 1) <= 100 * room), default=100)


def pages(rows: list, size: int) -> list[list]:
    return [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]


def progress(rnd: Round, with_results: bool) -> dict:
    """The round's tables by state, its deals waiting for a confirmation, and its latest results."""
    counts = rnd.matches.aggregate(
        total=Count("pk"),
        finished=Count("pk", filter=Q(state=Match.State.FINISHED)),
        playing=Count("pk", filter=Q(state=Match.State.IN_PROGRESS)),
    )
    waiting = Deal.objects.filter(match__round=rnd, state=Deal.State.SUBMITTED).count()
    deadline = first_deadline(rnd)
    recent = []
    if with_results:
        finished = rnd.matches.filter(state=Match.State.FINISHED).select_related(
            "pair_ns", "pair_ew", "winner"
        )
        recent = list(finished.order_by("-ended_at", "-table")[:RECENT_RESULTS])
    return {**counts, "waiting": waiting, "recent": recent, "deadline": deadline}


def first_deadline(rnd: Round) -> datetime | None:
    """When the first table still playing reaches the time limit (the room's clock), or None without a limit."""
    limit = time_limit(rnd.tournament)
    playing = rnd.matches.filter(state=Match.State.IN_PROGRESS, time_called_at__isnull=True)
    first = playing.aggregate(first=Min("started_at"))["first"]
    return first + timedelta(minutes=limit) if limit and first else None


# Panels of another kind of tournament, built by the room that knows it (a team event: ``teams.screen``) and
# registered from the app's ``ready``, as this room cannot import the rooms above it. The first source that
# answers (not None) gives the screen's panels instead of the pairs' seating, progress and standings.
PanelSource = Callable[[Tournament, object], "list[Panel] | None"]
PANEL_SOURCES: list[PanelSource] = []


def register_panels(source: PanelSource, *, added: bool = False) -> None:
    """A source of panels instead of the pairs' (``added``: shown after whichever panels the screen has, such as
    a featured table's, ``tournaments.live.screen``)."""
    sources = ADDED_SOURCES if added else PANEL_SOURCES
    if source not in sources:
        sources.append(source)


ADDED_SOURCES: list[PanelSource] = []


def screen_panels(tournament: Tournament, user) -> list[Panel]:
    """The panels the screen cycles through, as far as the public switches let this visitor see."""
    added = [panel for source in ADDED_SOURCES for panel in source(tournament, user) or []]
    return main_panels(tournament, user) + added


def main_panels(tournament: Tournament, user) -> list[Panel]:
    """The panels of the tournament's kind: another kind's source's, else the pairs' seating, progress, standings."""
    for source in PANEL_SOURCES:
        found = source(tournament, user)
        if found is not None:
            return found
    panels: list[Panel] = []
    rnd = current_round(tournament)
    if rnd is not None and access.can_see_page(user, tournament, "public_pairings"):
        seats = pages(seating(rnd), SEATING_PAGE)
        for n, page in enumerate(seats, start=1):
            title = _("%(round)s: where you sit") % {"round": rnd}
            one_column = len(page) <= SEATING_PAGE // 2  # a short list reads larger in one column
            half = len(page) if one_column else (len(page) + 1) // 2
            columns = [page] if one_column else [page[:half], page[half:]]
            extra = {"columns": columns, "page": n, "pages": len(seats)}
            extra["fill"] = fill(half, SEATING_PAGE // 2)
            panels.append(Panel("seating", f"seating-{n}", title, page, extra))
        with_results = access.can_see_page(user, tournament, "public_results")
        panels.append(
            Panel(
                "progress",
                "progress",
                _("%(round)s: progress") % {"round": rnd},
                extra=progress(rnd, with_results),
            )
        )
    # A duplicate's standings are its matchpoints, kept to the complete boards (its standings page): the screen
    # shows its seating and progress only.
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    if access.can_see_page(user, tournament, "public_standings") and not duplicate:
        lines = compute_standings(tournament)
        standings = pages(lines, STANDINGS_PAGE)
        for n, page in enumerate(standings, start=1):
            panels.append(
                Panel(
                    "standings",
                    f"standings-{n}",
                    _("Standings"),
                    page,
                    {"page": n, "pages": len(standings), "fill": fill(len(page), STANDINGS_PAGE)},
                )
            )
    return panels


def qr_code(url: str) -> SafeString:
    """The public site's address as a QR code, drawn here (no network): an SVG that scales with its box."""
    svg = segno.make(url, error="m").svg_inline(omitsize=True, border=2, dark="#000", light="#fff")
    label = format_html('<svg role="img" aria-label="{}" ', _("QR code of %(url)s") % {"url": url})
    return mark_safe(svg.replace("<svg ", label, 1))  # segno's own markup, with our escaped label
