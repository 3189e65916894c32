"""What changed in a deal since it was first submitted (``recording.changes``), in words for the person who
confirms it: each reopening (who, when, why), the result before → after, the penalties added and removed, the
plays changed, the kitty and the director's dismissals — one short line each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from referee.table.consequences import penalty_label, seat_label
from referee.table.recording.changes import DealChanges
from tournaments.competition.display import card_faces, deal_outcome, violation_name


def result_words(result: Mapping[str, Any] | None, total: int | None) -> str:
    """A result with the attackers' total: ``takeover +3 (attackers 200)``."""
    words = deal_outcome(result) or "—"
    if total is None:
        return words
    return _("%(result)s (attackers %(n)s)") % {"result": words, "n": total}


def penalty_words(entry: tuple[str, str, int | None], players: Mapping[str, str]) -> str:
    seat, code, trick = entry
    text = f"{seat_label(seat, players)} · {penalty_label(code)}"
    return text if trick is None else text + " · " + _("trick %(n)s") % {"n": trick + 1}


def violation_words(key: str, players: Mapping[str, str]) -> str:
    """A violation's key (``3:W:revoke_suit``) as the page names it: trick, seat and player, the fault."""
    trick, seat, code = key.split(":", 2)
    parts = [_("trick %(n)s") % {"n": int(trick) + 1}] if trick.isascii() and trick.isdigit() else []
    if seat in players:
        parts.append(seat_label(seat, players))
    return " · ".join([*parts, violation_name(code)])


def change_lines(changes: DealChanges, verdict: Mapping[str, Any], players: Mapping[str, str]) -> dict:
    """The review's section on changes: reopenings, then one line per change (empty lists left out)."""
    result_after = verdict.get("result")
    total_after = (verdict.get("attackers_points") or {}).get("total")
    before = result_words(changes.result_before, changes.total_before)
    after = result_words(result_after, total_after)
    lines = [
        _("Result: %(before)s → %(after)s") % {"before": before, "after": after}
        if before != after
        else _("Result unchanged: %(result)s") % {"result": after}
    ]
    lines += [_("Penalty added: %(p)s") % {"p": penalty_words(p, players)} for p in changes.penalties_added]
    lines += [
        _("Penalty removed: %(p)s") % {"p": penalty_words(p, players)} for p in changes.penalties_removed
    ]
    for play in changes.plays:
        lines.append(
            _("Trick %(n)s · %(who)s: %(before)s → %(after)s")
            % {
                "n": play.trick + 1,
                "who": seat_label(play.seat, players),
                "before": card_faces(play.before) or "—",
                "after": card_faces(play.after) or "—",
            }
        )
    if changes.kitty_before != changes.kitty_after:
        lines.append(
            _("Kitty: %(before)s → %(after)s")
            % {
                "before": card_faces(changes.kitty_before) or "—",
                "after": card_faces(changes.kitty_after) or "—",
            }
        )
    lines += [
        _("Violation dismissed: %(v)s") % {"v": violation_words(k, players)} for k in changes.dismissals_added
    ]
    lines += [
        _("Dismissal withdrawn: %(v)s") % {"v": violation_words(k, players)}
        for k in changes.dismissals_removed
    ]
    reopened = [
        {
            "who": r.by.get_username() if r.by is not None else "—",
            "when": timezone.localtime(r.at).strftime("%H:%M"),
            "why": r.reason,
        }
        for r in changes.reopenings
    ]
    return {
        "first_submitted": timezone.localtime(changes.submitted_at).strftime("%H:%M"),
        "reopened": reopened,
        "lines": lines,
        "result_changed": before != after,
    }
