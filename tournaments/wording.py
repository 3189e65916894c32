"""How a result is worded, in one place for the judges' pages, the public pages and the workbook.

A *deal's outcome* is what one deal did to the bank and the levels ("banker holds +2"); a *match's result* is who
won the match ("East won", "draw"). The kitty bonus is written as the sum it is (``kitty × multiplier = bonus``).
Every function takes plain values (a verdict's dicts, a winner's name), so the workbook can word rows it reads as
tuples, and the templates use the same functions through the ``wording`` template filters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _


def deal_outcome(result: Mapping[str, Any] | None) -> str:
    """A verdict's ``result`` in words: who keeps or takes the bank and how many levels they go up."""
    if not result:
        return ""
    outcome, levels = result.get("outcome"), result.get("levels")
    if outcome == "match_won":
        return _("match won")
    if "next_banker" in result and result["next_banker"] is None:
        return _("void deal: the bank is contested")
    if outcome == "takeover":
        return _("takeover +%(n)s") % {"n": levels} if levels else _("takeover")
    if outcome == "banker_holds":
        return _("banker holds +%(n)s") % {"n": levels} if levels else _("banker holds")
    return str(outcome or "")


def match_result(winner: object | None) -> str:
    """A finished match's result: the winning pair (a name or a ``Pair``) won, or a draw when there is none."""
    if not winner:
        return _("draw")
    return _("%(pair)s won") % {"pair": winner}


def match_status(match) -> str:
    """A match in a list of results: its result once finished, else its state (not started, in progress)."""
    if match.state != match.State.FINISHED:
        return str(match.get_state_display())
    return match_result(match.winner)


def kitty_bonus(attackers_points: Mapping[str, Any] | None) -> str:
    """The kitty bonus as its sum (``15 × 2 = 30``), ``0`` when the banker side won the last trick."""
    if not attackers_points:
        return ""
    bonus = attackers_points.get("kitty_bonus") or 0
    if not bonus:
        return "0"
    return f"{attackers_points.get('kitty')} × {attackers_points.get('multiplier')} = {bonus}"
