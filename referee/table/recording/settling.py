"""A deal's violations and how each is settled before the deal is submitted.

The engine's verdict lists the violations; each is keyed by its trick, seat and code (``violation_key``), so a
ruling on one stays with it while the deal grows around it. A violation is *settled* by the ruleset's penalty
applied once (``apply_penalty``: a ``Penalty`` keyed by the violation, unique per deal), by correcting the entry
(the violation leaves the verdict), or by the director's dismissal with a note (``dismiss``). The judge's word that
a play proving a fault was entered right (``confirm_played``) keeps the play but settles nothing.
``require_settled`` (asked by ``deal_entry.submit_deal``) refuses a deal with an open violation, and
``require_record_settled`` (asked by ``records.record_deal``) a whole record whose penalties leave one open.

Applying, dismissing and confirming are keyed by the violation, not by the deal version the page saw: under the
deal's row lock the second of two (a double press, two judges at once) finds the first and is answered with it,
so one penalty is recorded. A play out of turn is a table event the engine cannot see (the plays are entered in
turn): ``record_out_of_turn`` records the ruleset's penalty for it, keyed like a violation (``wrong_order``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from referee.table.recording.words import joined, parse_card_text, seat_name, violation_message
from rules.scoring import PENALTY_FOR_VIOLATION
from rules.seats import SEATS
from rules.verdict import Verdict, Violation
from tournaments.competition.access import can_reopen
from tournaments.competition.free_text import text_problem
from tournaments.models import Deal, Penalty, Ruling
from tournaments.scoring.entries import require_open, require_record
from tournaments.scoring.errors import PermissionRefused, RecordingError
from tournaments.scoring.settlement import (
    key_of,
    penalty_for,
    read_settlement,
    violation_key,
)
from tournaments.scoring.snapshot import snapshot, start_levels
from tournaments.scoring.versions import lock_deal, touch

KEY_PATTERN = re.compile(r"(?:-|\d{1,3}):[NWSE-]:[a-z_]{1,20}")
OUT_OF_TURN = "wrong_order"  # the engine's code for a play out of turn
NOTE_LENGTH = Penalty._meta.get_field("note").max_length


class Unsettled(RecordingError):
    """The deal has violations nobody settled: it cannot be submitted yet."""

    code = "unsettled"
    status = 409


def posted_key(fields: Mapping[str, str]) -> str:
    """The violation a page names (field ``violation``), refused unless it has the shape of a key."""
    key = fields.get("violation") or ""
    if not KEY_PATTERN.fullmatch(key):
        raise RecordingError(_("The page sent no valid violation: reload it and try again."))
    return key


def current_verdict(deal: Deal) -> Verdict:
    """The engine's verdict on the deal as it stands (read under the caller's lock)."""
    return snapshot(deal, start_levels(deal)).judged()


def open_violations(deal: Deal, verdict: Verdict) -> list[Violation]:
    """The violations of ``verdict`` nobody settled (the deal's rulings are read only when it has some)."""
    return read_settlement(deal).open(verdict) if verdict.violations else []


def require_settled(deal: Deal, verdict: Verdict) -> None:
    """Refuse to submit while a violation of ``verdict`` is open, naming each (trick counted from 1)."""
    still_open = open_violations(deal, verdict)
    if not still_open:
        return
    raise Unsettled(
        _(
            "Settle every violation before submitting (apply the penalty, correct the entry, or the director "
            "dismisses it). Open: %(list)s"
        )
        % {"list": joined(described(v) for v in still_open)},
        violations=[key_of(v) for v in still_open],
    )


def require_record_settled(deal: Deal, verdict: Verdict) -> None:
    """A whole record (``records.record_deal``) is confirmed as it stands, so its own penalties must settle every
    violation, as a judge's submit requires; a record holds no dismissal, so for a fault no penalty settles the
    record is corrected. Each open violation is named with the penalty entry that would settle it."""
    still_open = open_violations(deal, verdict)
    if not still_open:
        return
    named = (
        _("%(violation)s (%(remedy)s)") % {"violation": described(v), "remedy": remedy(v)} for v in still_open
    )
    raise Unsettled(
        _("The record's penalties leave a violation unsettled, so the deal was not recorded: %(list)s.")
        % {"list": joined(named)},
        violations=[key_of(v) for v in still_open],
    )


def remedy(v: Violation) -> str:
    """What settles ``v`` in a record: the ruleset's penalty as the record's ``penalties`` writes it."""
    code = penalty_for(v)
    if code is None:
        return _("no penalty settles it: correct the record")
    entry = {"seat": v.seat, "code": code} | ({} if v.trick is None else {"trick": v.trick})
    return _("add %(penalty)s to its penalties") % {"penalty": json.dumps(entry)}


def described(v: Violation) -> str:
    """Where and what, in the active language: ``Trick 3: West held ♠QQ …``."""
    return where(v) + violation_message(v.as_dict())


def where(v: Violation) -> str:
    """``Trick 3: `` before an engine message ('' for a whole-deal violation), in the active language."""
    return "" if v.trick is None else _("Trick %(n)s") % {"n": v.trick + 1} + ": "


# ---------------------------------------------------------------- rulings


def locked_violation(deal: Deal, user, key: str) -> tuple[Deal, Violation]:
    """Lock the deal (open for entries, the user may record it) and find the violation ``key`` in its verdict.

    The version is not checked: the write is keyed by the violation, which must still be in the verdict."""
    require_record(user, deal.match)
    deal = lock_deal(deal, None)
    require_open(deal)
    found = next((v for v in current_verdict(deal).violations if key_of(v) == key), None)
    if found is None:
        raise RecordingError(_("That violation is no longer in the verdict: the entry was corrected."))
    return deal, found


def apply_penalty(deal: Deal, user, key: str) -> Penalty:
    """The ruleset's penalty for violation ``key``, recorded once: a second press finds the first."""
    deal, v = locked_violation(deal, user, key)
    code = penalty_for(v)
    if code is None or v.seat is None:
        raise RecordingError(
            _("This ruleset has no penalty for this violation: correct the entry or ask the director.")
        )
    existing = (
        Penalty.objects.filter(deal=deal, violation=key).first()
        or Penalty.objects.filter(deal=deal, violation="", seat=v.seat, code=code, trick=v.trick).first()
    )  # the same penalty called with the form already settles it
    if existing is not None:
        return existing
    penalty = Penalty(
        deal=deal, seat=v.seat, code=code, trick=v.trick, note=v.code, violation=key, recorded_by=user
    )
    penalty._history_user = user
    penalty.save()
    touch(deal, user)
    return penalty


def confirm_played(deal: Deal, user, key: str) -> Ruling:
    """The judge's word that the play proving violation ``key`` was entered as it was played."""
    deal, v = locked_violation(deal, user, key)
    return rule(deal, user, v, Ruling.Kind.PLAYED)


def mark_played(deal: Deal, user, violations: Iterable[Mapping[str, Any]]) -> None:
    """Violations the judge confirmed while recording the play (``force``): recorded as played."""
    for v in violations:
        key = key_of(v)
        if not Ruling.objects.filter(deal=deal, violation=key, kind=Ruling.Kind.PLAYED).exists():
            ruling = Ruling(
                deal=deal,
                violation=key,
                kind=Ruling.Kind.PLAYED,
                trick=v["trick"],
                seat=v["seat"] or "",
                code=v["code"],
                made_by=user,
            )
            ruling._history_user = user
            ruling.save()


def dismiss(deal: Deal, user, key: str, note: str) -> Ruling:
    """The director dismisses violation ``key``; the note says why (kept with who and when, and in the history)."""
    if not can_reopen(user, deal.match.round.tournament):
        raise PermissionRefused(_("Only the tournament director can dismiss a violation."))
    note = note.strip()
    if not note:
        raise RecordingError(_("Say why the violation is dismissed: the note is kept with the deal."))
    if problem := text_problem(note, NOTE_LENGTH):
        raise RecordingError(_("%(field)s: %(problem)s") % {"field": _("note"), "problem": problem})
    deal, v = locked_violation(deal, user, key)
    return rule(deal, user, v, Ruling.Kind.DISMISSED, note)


def withdraw_dismissal(deal: Deal, user, key: str) -> None:
    """The director takes a dismissal back: the violation is open again (the history keeps both)."""
    if not can_reopen(user, deal.match.round.tournament):
        raise PermissionRefused(_("Only the tournament director can dismiss a violation."))
    require_record(user, deal.match)
    deal = lock_deal(deal, None)
    require_open(deal)
    ruling = Ruling.objects.filter(deal=deal, violation=key, kind=Ruling.Kind.DISMISSED).first()
    if ruling is None:
        return
    ruling._history_user = user
    ruling.delete()
    touch(deal, user)


def rule(deal: Deal, user, v: Violation, kind: str, note: str = "") -> Ruling:
    """One ruling of ``kind`` on ``v``: the first stands, a second is answered with it."""
    key = key_of(v)
    existing = Ruling.objects.filter(deal=deal, violation=key, kind=kind).first()
    if existing is not None:
        return existing
    ruling = Ruling(
        deal=deal,
        violation=key,
        kind=kind,
        trick=v.trick,
        seat=v.seat or "",
        code=v.code,
        note=note,
        made_by=user,
    )
    ruling._history_user = user
    ruling.save()
    touch(deal, user)
    return ruling


def drop_stale(deal: Deal, user, verdict: Verdict) -> None:
    """After a correction, forget the rulings and penalties of violations no longer in the verdict (the history
    keeps them): a penalty never counts for a fault the entry no longer shows. Plays out of turn stay."""
    live = {key_of(v) for v in verdict.violations}
    stale_penalties = (
        Penalty.objects.filter(deal=deal).exclude(violation="").exclude(violation__endswith=f":{OUT_OF_TURN}")
    )
    rows: list[Penalty | Ruling] = [*stale_penalties, *Ruling.objects.filter(deal=deal)]
    for row in rows:
        if row.violation not in live:
            row._history_user = user
            row.delete()


# ---------------------------------------------------------------- a play out of turn


def record_out_of_turn(deal: Deal, user, *, seat: str | None, cards: str, version: int | None) -> Penalty:
    """A player played out of turn (a table event): the ruleset's penalty for it, at the trick in progress.

    The plays themselves are entered in turn (the offender's cards when their turn comes), so the engine judges
    the trick as it should be played; ``cards`` (what was shown out of turn) goes in the note."""
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    if seat not in SEATS:
        raise RecordingError(_("Choose the seat at fault."))
    snap = snapshot(deal, start_levels(deal))
    due = snap.due(snap.judged())
    if due is None:
        raise RecordingError(_("All tricks are played: submit the deal."))
    if seat == due:
        raise RecordingError(
            _("It is %(seat)s's turn: that play is not out of turn.") % {"seat": seat_name(seat)}
        )
    shown = parse_card_text(cards, _("cards")) if cards.strip() else ""
    last, plays = snap.last
    trick = last.number if last is not None and len(plays) < 4 else len(snap.tricks)
    key = violation_key(trick, seat, OUT_OF_TURN)
    if Penalty.objects.filter(deal=deal, violation=key).exists():
        raise RecordingError(
            _("A play out of turn by %(seat)s is already recorded in this trick.") % {"seat": seat_name(seat)}
        )
    penalty = Penalty(
        deal=deal,
        seat=seat,
        code=PENALTY_FOR_VIOLATION[OUT_OF_TURN],
        trick=trick,
        note=shown,
        violation=key,
        recorded_by=user,
    )
    penalty._history_user = user
    penalty.save()
    touch(deal, user)
    return penalty
