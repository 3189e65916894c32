"""What a penalty does under the tournament's ruleset, in words: its amount or effect, each failed throw's
deduction, and why the penalties changed a deal's result (one line).

The effects come from the engine (``rules.scoring.penalty_consequence``, ``failed_throw_points``, ``score_deal``);
only the words are the site's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.table.recording.words import joined, seat_name
from rules.levels import LevelGain
from rules.ruleset import Ruleset
from rules.scoring import Consequence, failed_throw_points, penalty_consequence, score_deal
from rules.seats import side_of
from rules.verdict import Verdict
from tournaments.competition.display import deal_outcome
from tournaments.models import PENALTY_LABELS


def seat_label(seat: str | None, players: Mapping[str, str]) -> str:
    """A seat and who sits there: ``West 乙1`` (the seat alone when nobody is known)."""
    if not seat:
        return ""
    player = players.get(seat, "")
    return f"{seat_name(seat)} {player}".strip()


def penalty_label(code: str) -> str:
    return str(PENALTY_LABELS.get(code, code))


def points_text(points: int) -> str:
    """A change to the attackers' points: an attackers' fault costs them, a banker-side fault gives them."""
    if points < 0:
        return _("−%(n)s points for the attackers") % {"n": -points}
    return _("%(n)s points to the attackers") % {"n": points}


def gain_text(gain: LevelGain, same_banker: bool = False) -> str:
    """Who a deal goes to and how many levels they go up."""
    n = gain.levels
    if gain.side == "banker":
        text = (
            ngettext(
                "the banker side holds and goes up %(n)s level",
                "the banker side holds and goes up %(n)s levels",
                n,
            )
            % {"n": n}
            if n
            else _("the banker side holds")
        )
        return text + (_(", the same banker deals again") if same_banker else "")
    if n:
        return ngettext(
            "the attackers take over and go up %(n)s level",
            "the attackers take over and go up %(n)s levels",
            n,
        ) % {"n": n}
    return _("the attackers take over")


def consequence_text(c: Consequence, rs: Ruleset) -> str:
    """A penalty's consequence in one phrase: points, the deal lost, a level and a strike — or a warning."""
    parts = []
    if c.points:
        parts.append(points_text(c.points))
    if c.gain is not None:
        parts.append(_("the deal is lost: %(outcome)s") % {"outcome": gain_text(c.gain, c.same_banker)})
    if c.level_down:
        parts.append(
            ngettext("−%(n)s level after the deal", "−%(n)s levels after the deal", c.level_down)
            % {"n": c.level_down}
        )
    if c.strike:
        parts.append(
            _("a strike (%(n)s strikes lose the match)") % {"n": rs.strikes_to_forfeit}
            if rs.strikes_to_forfeit
            else _("a strike")
        )
    return "; ".join(parts) if parts else _("a warning, no points")


def penalty_text(rs: Ruleset, banker: str, seat: str, code: str) -> str:
    """What calling ``code`` on ``seat`` does in this deal under the ruleset."""
    return consequence_text(penalty_consequence(rs, banker, seat, code), rs)


def failed_throws(verdict: Verdict, rs: Ruleset, banker: str, players: Mapping[str, str]) -> list[dict]:
    """Each failed throw's deduction on its own line: trick, thrower, cards taken back, points."""
    out = []
    for number, facts in enumerate(verdict.facts):
        if facts.failed_throw_seat is None:
            continue
        seat = facts.failed_throw_seat
        points = failed_throw_points(rs, facts.cards_taken_back)
        charge = points if side_of(seat) == side_of(banker) else -points
        out.append(
            {
                "trick": number,
                "seat": seat,
                "seat_label": seat_label(seat, players),
                "cards_back": facts.cards_taken_back,
                "points": charge,
                "text": points_text(charge),
            }
        )
    return out


def why_result_changed(
    rs: Ruleset, record: Mapping[str, Any], verdict: Verdict, players: Mapping[str, str]
) -> str:
    """One line on why the penalties (called, or a failed throw's) changed the deal's result; '' when they did not."""
    score = verdict.score
    if score is None:
        return ""
    plain_facts = [dataclasses.replace(f, failed_throw_seat=None, cards_taken_back=0) for f in verdict.facts]
    plain = score_deal(
        rs,
        banker=record["banker"],
        level=record["level"],
        tricks=plain_facts,
        kitty_points=score.attackers_points.kitty,
        levels=record.get("levels"),
    )
    if plain.result.as_dict() == score.result.as_dict():
        return ""
    if score.void:
        return _("Faults by both sides end the deal: %(outcome)s.") % {
            "outcome": deal_outcome(score.result.as_dict())
        }
    return deciding_reason(rs, record["banker"], record.get("penalties") or (), players) or _(
        "Penalties moved the attackers from %(before)s to %(after)s points: %(outcome)s."
    ) % {
        "before": plain.attackers_points.total,
        "after": score.attackers_points.total,
        "outcome": deal_outcome(score.result.as_dict()),
    }


def deciding_reason(
    rs: Ruleset, banker: str, penalties: Sequence[Mapping[str, Any]], players: Mapping[str, str]
) -> str:
    """The calls that decide the deal (they end it; every one of them named), else the first that costs a level,
    in one line."""
    calls = [(p, penalty_consequence(rs, banker, p["seat"], p["code"])) for p in penalties]
    ending = [(p, c, gain) for p, c in calls if (gain := c.gain) is not None]
    if len(ending) == 1:
        p, c, gain = ending[0]
        return _("%(who)s's %(penalty)s: under this ruleset %(outcome)s.") % {
            "who": seat_label(p["seat"], players),
            "penalty": penalty_label(p["code"]),
            "outcome": gain_text(gain, c.same_banker),
        }
    if ending:  # several calls end the deal, all by one side (both sides' is a void deal): each is named
        named = joined(
            _("%(who)s's %(penalty)s")
            % {"who": seat_label(p["seat"], players), "penalty": penalty_label(p["code"])}
            for p, _c, _gain in ending
        )
        _p, c, gain = ending[0]
        return _("%(calls)s: under this ruleset %(outcome)s.") % {
            "calls": named,
            "outcome": gain_text(gain, c.same_banker),
        }
    for p, c in calls:
        if c.level_down:
            return _("%(who)s's %(penalty)s: under this ruleset %(effect)s.") % {
                "who": seat_label(p["seat"], players),
                "penalty": penalty_label(p["code"]),
                "effect": consequence_text(c, rs),
            }
    return ""
