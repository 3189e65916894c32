"""Quick entry's totals: what a table that does not record tricks may enter, and the verdict scored from it.

The verdict comes from the same scoring function as a recorded deal (``rules.scoring.score_deal``), fed with two
stand-in tricks that carry the table's totals and the shape of the last lead.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from rules.cards import POINTS
from rules.facts import LeadShape, PenaltyCall, TrickFacts
from rules.ruleset import Ruleset
from rules.scoring import ScoringError, score_deal
from rules.seats import SEATS, partner, side_of
from tournaments.models import Deal
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import levels_before

# The kinds of last lead a quick table names (the kitty multiplier depends on it): label and shape. Sets of three
# and four (RULES §13.1) only where the decks hold them.
LAST_LEADS: dict[str, tuple[str | Promise, LeadShape]] = {
    "single": (gettext_lazy("single"), LeadShape("single", 0, False)),
    "pair": (pgettext_lazy("kind of lead", "pair"), LeadShape("pair", 1, False)),
    "tractor2": (gettext_lazy("tractor of 2 pairs"), LeadShape("tractor", 2, False)),
    "tractor3": (gettext_lazy("tractor of 3 pairs"), LeadShape("tractor", 3, False)),
    "tractor4": (gettext_lazy("tractor of 4 pairs"), LeadShape("tractor", 4, False)),
    "triple": (gettext_lazy("triple"), LeadShape("triple", 1, False, 3)),
    "triples2": (gettext_lazy("chain of 2 triples (Titanic)"), LeadShape("titanic", 2, False, 3)),
    "triples3": (gettext_lazy("chain of 3 triples (Titanic)"), LeadShape("titanic", 3, False, 3)),
    "quad": (gettext_lazy("quad"), LeadShape("quad", 1, False, 4)),
    "quads2": (gettext_lazy("chain of 2 quads (bulldozer)"), LeadShape("bulldozer", 2, False, 4)),
    "throw": (gettext_lazy("throw"), LeadShape("single", 0, True)),
}


def last_lead_choices(rs: Ruleset) -> list[tuple[str, str]]:
    """The kinds of last lead the ruleset's decks can make (one deck has no pairs): a form's choices."""
    return [(kind, str(label)) for kind, (label, shape) in LAST_LEADS.items() if lead_fits(rs, shape)]


def lead_fits(rs: Ruleset, shape: LeadShape) -> bool:
    """Whether a lead of this shape exists with the ruleset's decks (a pair needs two, a triple three)."""
    return shape.kind == "single" or shape.sets <= rs.max_set


def most_kitty_points(rs: Ruleset) -> int:
    """The most points a kitty of the ruleset's size can hold: its best point cards (10s and Ks first)."""
    return sum(sorted(POINTS * rs.decks, reverse=True)[: rs.kitty_size])


def last_lead_shape(kind: str) -> LeadShape:
    if kind not in LAST_LEADS:
        raise RecordingError(_("Unknown kind of last lead: %(kind)s") % {"kind": kind})
    return LAST_LEADS[kind][1]


def check_quick_totals(rs: Ruleset, points_won: int, kitty_points: int, last_lead: str) -> None:
    """Totals a table can have: multiples of 5, within the decks' points, the kitty's within what its cards can
    hold, a last lead the decks can make."""
    deck_points, kitty_max = rs.deck_points, most_kitty_points(rs)
    if points_won % 5 or kitty_points % 5:
        raise RecordingError(_("Points come in fives: check the totals."))
    if kitty_points and not rs.kitty_size:
        raise RecordingError(_("This game has no kitty: kitty points must be 0."))
    if not 0 <= kitty_points <= kitty_max:
        raise RecordingError(_("Kitty points must be between 0 and %(max)s.") % {"max": kitty_max})
    if not 0 <= points_won <= deck_points - kitty_points:
        raise RecordingError(
            _("Points from tricks must be between 0 and %(max)s (the deck less the kitty).")
            % {"max": deck_points - kitty_points}
        )
    if last_lead not in dict(last_lead_choices(rs)):
        raise RecordingError(_("Choose the kind of the last lead."))


def quick_verdict(deal: Deal, rs: Ruleset, levels: dict[str, str] | None = None) -> dict:
    """Score a deal from the table's totals, through the same scoring function as a recorded deal; ``levels``:
    both sides' levels when it began, when the caller has folded them already (else ``levels_before``)."""
    attackers = [s for s in SEATS if side_of(s) != side_of(deal.banker)]
    banker_side = [deal.banker, partner(deal.banker)]
    last_winner = attackers[0] if deal.quick_attackers_last else banker_side[0]
    tricks = [
        TrickFacts(deal.banker, attackers[0], int(deal.quick_points or 0), LeadShape("single")),
        TrickFacts(last_winner, last_winner, 0, last_lead_shape(deal.quick_last_lead or "single")),
    ]
    calls = [PenaltyCall(p.seat, p.code, p.trick, p.note) for p in deal.penalties.all()]
    levels = levels if levels is not None else levels_before(deal)
    try:
        score = score_deal(
            rs,
            banker=deal.banker,
            level=deal.level,
            tricks=tricks,
            kitty_points=int(deal.quick_kitty_points or 0),
            penalties=calls,
            levels=levels if levels.get(side_of(deal.banker)) == deal.level else None,
        )
    except ScoringError as exc:
        raise RecordingError(str(exc)) from exc
    return {
        "ok": True,
        "violations": [],
        "tricks": [],
        "attackers_points": score.attackers_points.as_dict(),
        "result": score.result.as_dict(),
        "quick": True,
    }
