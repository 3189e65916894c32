"""Pictures drawn on the server as SVG strings: a match's levels deal by deal, the top pairs' rank round by round.

Plain data in, escaped SVG out (``format_html``), with a title, a description and text labels, so a screen
reader and a phone read them as well as a projector; each point carries its figures as ``data-`` attributes.
The figures come from services (``referee.table.level_trail``, ``tournaments.public.history``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from rules.ranks import RANK_INDEX, RANKS, rank_text
from tournaments.competition.display import card_face, card_faces

SIDE_COLOURS = {"NS": "#1f5fbf", "EW": "#c2410c"}
# Eight colours told apart by most colour-blind eyes (Okabe–Ito, darkened for a white ground).
LINE_COLOURS = ("#0b5394", "#d55e00", "#007a5e", "#b8860b", "#6a3d9a", "#cc2f6e", "#4d4d4d", "#2a8fbd")


@dataclass(frozen=True)
class LevelStep:
    """Both sides' levels after one deal, and which seat held the bank for it."""

    number: int
    banker: str
    ns: str
    ew: str


@dataclass(frozen=True)
class RankLine:
    """One pair's rank after each round (None: not ranked yet)."""

    name: str
    ranks: Sequence[int | None]


def _svg(
    width: int,
    height: int,
    title: str,
    desc: str,
    body: SafeString,
    css: str,
    ident: str = "",
    natural: bool = False,
) -> SafeString:
    """The picture with its title and description; ``natural``: drawn at its own size (a wide one scrolls on a
    phone instead of shrinking its text), else it fills its box."""
    ident = ident or css
    size = format_html(' width="{}" height="{}"', width, height) if natural else ""
    return format_html(
        '<svg class="chart {}" viewBox="0 0 {} {}"{} role="img" aria-labelledby="{}-t {}-d"'
        ' xmlns="http://www.w3.org/2000/svg"><title id="{}-t">{}</title><desc id="{}-d">{}</desc>{}</svg>',
        css,
        width,
        height,
        size,
        ident,
        ident,
        ident,
        title,
        ident,
        desc,
        body,
    )


def short(name: str, limit: int = 8) -> str:
    """A name cut to fit a chart's margin (the whole name stays in the point's title)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


# --- a match's levels, deal by deal -------------------------------------------------------------------------

LEVEL_W, LEVEL_ROW, LEFT, TOP = 40, 26, 34, 12


def levels_chart(steps: Sequence[LevelStep], start: str, ns_name: str, ew_name: str) -> SafeString:
    """Both sides' levels from the start through each deal; a filled dot: that side held the bank."""
    if not steps:
        return SafeString("")
    seen = [RANK_INDEX.get(level, 0) for step in steps for level in (step.ns, step.ew)] + [
        RANK_INDEX.get(start, 0)
    ]
    low, high = max(min(seen) - 1, 0), min(max(seen) + 1, len(RANKS) - 1)
    width = LEFT + LEVEL_W * len(steps) + 24
    height = TOP + LEVEL_ROW * (high - low) + 40

    def x(i: int) -> int:
        return LEFT + 12 + LEVEL_W * i

    def y(level: str) -> int:
        return TOP + LEVEL_ROW * (high - RANK_INDEX.get(level, 0))

    grid = format_html_join(
        "",
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="axis" x="{}" y="{}">{}</text>',
        (
            (LEFT, width - 8, y(RANKS[r]), y(RANKS[r]), LEFT - 6, y(RANKS[r]) + 5, rank_text(RANKS[r]))
            for r in range(low, high + 1)
        ),
    )
    numbers = format_html_join(
        "",
        '<text class="axis deal-no" x="{}" y="{}">{}</text>',
        ((x(i), height - 8, step.number) for i, step in enumerate(steps, start=1)),
    )
    lines = SafeString("")
    for side, name in (("NS", ns_name), ("EW", ew_name)):
        levels = [start] + [step.ns if side == "NS" else step.ew for step in steps]
        points = " ".join(f"{x(i)},{y(level)}" for i, level in enumerate(levels))
        lines += format_html(
            '<polyline class="side-{}" points="{}" fill="none" stroke="{}" stroke-width="3"/>',
            side,
            points,
            SIDE_COLOURS[side],
        )
        lines += format_html_join(
            "", "{}", ((_level_dot(side, name, step, i, x, y),) for i, step in enumerate(steps, start=1))
        )
    title = _("Levels deal by deal: %(ns)s and %(ew)s") % {"ns": ns_name, "ew": ew_name}
    desc = _(
        "%(ns)s ends at %(a)s, %(ew)s at %(b)s after %(n)s deals; a filled dot: that side held the bank."
    ) % {
        "ns": ns_name,
        "ew": ew_name,
        "a": rank_text(steps[-1].ns),
        "b": rank_text(steps[-1].ew),
        "n": len(steps),
    }
    return _svg(width, height, title, desc, grid + numbers + lines, "levels-chart", natural=True)


def _level_dot(side: str, name: str, step: LevelStep, i: int, x, y) -> SafeString:
    level = step.ns if side == "NS" else step.ew
    banked = (step.banker in "NS") == (side == "NS")
    label = _("Deal %(n)s: %(pair)s at %(level)s") % {
        "n": step.number,
        "pair": name,
        "level": rank_text(level),
    }
    if banked:
        label += _(" (held the bank)")
    return format_html(
        '<circle class="dot side-{}{}" data-deal-no="{}" data-side="{}" data-level="{}" data-banker="{}" cx="{}" cy="{}"'
        ' r="7" stroke="{}" stroke-width="3" fill="{}"><title>{}</title></circle>',
        side,
        " bank" if banked else "",
        step.number,
        side,
        level,
        step.banker,
        x(i),
        y(level),
        SIDE_COLOURS[side],
        SIDE_COLOURS[side] if banked else "#fff",
        label,
    )


# --- the top pairs' rank, round by round --------------------------------------------------------------------

RANK_W, RANK_ROW, NAME_W, LABEL_GAP = 64, 30, 124, 18


def rank_chart(lines: Sequence[RankLine], rounds: Sequence[int]) -> SafeString:
    """Each of the top pairs' rank after every round (1 at the top), named at the right (names of pairs that
    share a rank are stacked, never drawn over each other)."""
    if not lines or len(rounds) < 2:
        return SafeString("")
    worst = max((r for line in lines for r in line.ranks if r is not None), default=1)
    row = RANK_ROW if worst <= 10 else max(12, 300 // worst)

    def x(i: int) -> int:
        return 40 + RANK_W * i

    def y(rank: int) -> int:
        return 24 + row * (rank - 1)

    labels, below = [], 0
    for line in lines:
        last = next((r for r in reversed(line.ranks) if r is not None), worst)
        below = max(y(last) + 5, below + LABEL_GAP)
        labels.append(below)
    width = x(len(rounds) - 1) + NAME_W + 20
    height = max(y(worst), labels[-1]) + 36
    grid = format_html_join(
        "",
        '<text class="axis" x="22" y="{}">{}</text>',
        ((y(r) + 5, r) for r in range(1, worst + 1) if row >= 18 or r == 1 or r % 5 == 0),
    )
    grid += format_html_join(
        "",
        '<text class="axis round-no" x="{}" y="{}">{}</text>',
        ((x(i), height - 8, _("R%(n)s") % {"n": n}) for i, n in enumerate(rounds)),
    )
    body = SafeString("")
    for k, (line, label_y) in enumerate(zip(lines, labels, strict=True)):
        colour = LINE_COLOURS[k % len(LINE_COLOURS)]
        placed = [(i, r) for i, r in enumerate(line.ranks) if r is not None]
        body += format_html(
            '<polyline points="{}" fill="none" stroke="{}" stroke-width="3"/>',
            " ".join(f"{x(i)},{y(r)}" for i, r in placed),
            colour,
        )
        body += format_html_join(
            "", "{}", ((_rank_dot(line.name, rounds[i], r, x(i), y(r), colour),) for i, r in placed)
        )
        body += format_html(
            '<text class="name" x="{}" y="{}" fill="{}">{}</text>',
            x(len(rounds) - 1) + 14,
            label_y,
            colour,
            short(line.name),
        )
    title = _("The top pairs' rank round by round")
    desc = format_html_join(
        _("; "),
        "{}",
        (
            (
                _("%(pair)s: %(ranks)s")
                % {
                    "pair": line.name,
                    "ranks": _(", ").join("–" if r is None else str(r) for r in line.ranks),
                },
            )
            for line in lines
        ),
    )
    return _svg(width, height, title, desc, grid + body, "rank-chart", natural=True)


def _rank_dot(name: str, round_number: int, rank: int, cx: int, cy: int, colour: str) -> SafeString:
    label = _("%(pair)s: rank %(rank)s after round %(n)s") % {"pair": name, "rank": rank, "n": round_number}
    return format_html(
        '<circle class="dot" data-pair="{}" data-round="{}" data-rank="{}" cx="{}" cy="{}" r="6" fill="{}">'
        "<title>{}</title></circle>",
        name,
        round_number,
        rank,
        cx,
        cy,
        colour,
        label,
    )


# --- one trick of a deal: the four seats' cards ------------------------------------------------------------


@dataclass(frozen=True)
class TrickCards:
    """One trick as the replay draws it: each seat's cards (canonical text), who led, who won, its points."""

    number: int  # 1-based
    plays: dict[str, str]
    leader: str
    winner: str | None
    points: int


SEAT_SPOTS = {
    "N": (180, 22, "middle", 6),
    "S": (180, 236, "middle", 6),
    "W": (8, 112, "start", 3),
    "E": (352, 112, "end", 3),
}


def suit_class(text: str) -> str:
    """A card's suit class (``suit-S`` … ``suit-J`` for a joker): its colour, two or four colours, is the site's."""
    return f"suit-{text[0] if text[:1] in ('S', 'H', 'C', 'D') else 'J'}"


def trick_picture(trick: TrickCards, seats: dict[str, str]) -> SafeString:
    """The table seen from above (North at the top): each seat's name and cards, the lead and the winner."""
    body = SafeString("")
    for seat, (x, y, anchor, per_line) in SEAT_SPOTS.items():
        body += _seat_cards(trick, seat, seats[seat], x, y, anchor, per_line)
    winner = seats.get(trick.winner or "", "")
    middle = _("won by %(seat)s") % {"seat": winner} if winner else ""
    body += format_html(
        '<text class="trick-no" x="180" y="118" text-anchor="middle">{}</text>'
        '<text class="trick-won" x="180" y="142" text-anchor="middle">{}</text>'
        '<text class="trick-points" x="180" y="166" text-anchor="middle">{}</text>',
        _("Trick %(n)s") % {"n": trick.number},
        middle,
        _("%(n)s points") % {"n": trick.points},
    )
    title = _("Trick %(n)s: %(seat)s leads") % {"n": trick.number, "seat": seats.get(trick.leader, "")}
    desc = _("; ").join(f"{seats[seat]}: {card_faces(trick.plays.get(seat, ''))}" for seat in "NESW")
    return _svg(360, 300, title, desc, body, "trick-picture", f"trick-picture-{trick.number}")


def _seat_cards(
    trick: TrickCards, seat: str, name: str, x: int, y: int, anchor: str, per_line: int
) -> SafeString:
    faces = [(suit_class(text), card_face(text)) for text in trick.plays.get(seat, "").split()]
    rows = [faces[i : i + per_line] for i in range(0, len(faces), per_line)] or [[]]
    marks = (" ▶" if seat == trick.leader else "") + (" ★" if seat == trick.winner else "")
    css = "seat" + (" winner" if seat == trick.winner else "") + (" leader" if seat == trick.leader else "")
    room = 24 if anchor == "middle" else 10  # North and South span the picture; West and East a margin
    lines = format_html('<tspan x="{}" dy="0" class="seat-name">{}{}</tspan>', x, short(name, room), marks)
    for row in rows:
        cards = format_html_join(
            " ",
            '<tspan class="{}">{}</tspan>',
            ((f"card {css}", face) for css, face in row),
        )
        lines += format_html('<tspan x="{}" dy="20">{}</tspan>', x, cards)
    return format_html(
        '<text class="{}" data-seat="{}" data-cards="{}" x="{}" y="{}" text-anchor="{}">{}</text>',
        css,
        seat,
        trick.plays.get(seat, ""),
        x,
        y,
        anchor,
        lines,
    )
