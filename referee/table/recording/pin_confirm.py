"""Confirmation at the table: after the submit, a player of each pair types their pair's PIN on the same screen,
and the deal is confirmed by both pairs (how: their PINs, when) — no pair alone records and confirms its own
result, and no second account is needed. The director or another judge still confirm as before
(``deal_entry.confirm_deal``). The rule: docs/judging.md, "Confirming at the table".

The PIN is checked before the write's transaction (it is a slow hash); wrong PINs are counted per pair
wherever they are typed, the check-in tablet too (``tournaments.table_links.services.try_pin``).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition.access import can_confirm_by_pin
from tournaments.models import Deal, Pair
from tournaments.scoring.entries import lock_for_entry
from tournaments.scoring.errors import PermissionRefused, RecordingError
from tournaments.scoring.fold import recompute_match
from tournaments.scoring.versions import lock_deal, touch
from tournaments.table_links.services import try_pin


class TooManyPins(RecordingError):
    """Too many wrong PINs for the pair lately: it waits, or someone else confirms."""

    code = "throttled"
    status = 429


def _pair(deal: Deal, side: str) -> Pair:
    pair = {"NS": deal.match.pair_ns, "EW": deal.match.pair_ew}.get(side)
    if pair is None:
        raise RecordingError(_("Choose your pair."))
    return pair


def checked_pair(deal: Deal, user, side: str, pin: str) -> Pair:
    """The pair whose PIN this is, checked outside the write (refused: not this user's table, a wrong PIN, too
    many wrong PINs)."""
    if deal.state != Deal.State.SUBMITTED:
        raise RecordingError(_("Only a submitted deal can be confirmed."))
    if not can_confirm_by_pin(user, deal):
        raise PermissionRefused(_("A PIN confirms a deal only on its table's own screen."))
    pair = _pair(deal, side)
    pin = pin.strip()
    if not pin:
        raise RecordingError(_("Type your pair's PIN."))
    right = try_pin(pair, pin)
    if right is None:
        raise TooManyPins(
            _("Too many wrong PINs for this pair: wait ten minutes, or ask the director to confirm.")
        )
    if not right:
        raise RecordingError(_("That is not %(pair)s's PIN.") % {"pair": pair.name})
    return pair


@transaction.atomic
def confirm_by_pin(deal: Deal, user, pair: Pair, *, version: int | None) -> Deal:
    """The deal confirmed as ``pair``'s (its PIN checked by ``checked_pair``); the match recomputed."""
    lock_for_entry(deal.match)  # the match's lock first, as a finish takes it: a finished tournament refuses
    deal = lock_deal(deal, version)
    if deal.state != Deal.State.SUBMITTED:
        raise RecordingError(_("Only a submitted deal can be confirmed."))
    deal.state = Deal.State.CONFIRMED
    deal.confirmed_by = user
    deal.confirmed_by_pair = pair
    deal.confirmed_at = timezone.now()
    touch(deal, user)
    recompute_match(deal.match)
    return deal


SIDES = ("NS", "EW")


def checked_pairs(deal: Deal, user, pins: Mapping[str, str]) -> tuple[Pair, ...]:
    """Both pairs, each by its own PIN (``checked_pair``, which counts the wrong ones): refused unless both are
    typed and right. The pair checked last (east–west) completes the confirmation."""
    if deal.state != Deal.State.SUBMITTED:
        raise RecordingError(_("Only a submitted deal can be confirmed."))
    if not can_confirm_by_pin(user, deal):
        raise PermissionRefused(_("A PIN confirms a deal only on its table's own screen."))
    if not all(pins.get(side, "").strip() for side in SIDES):
        raise RecordingError(_("Each pair types its own PIN: both are needed to confirm at the table."))
    return tuple(checked_pair(deal, user, side, pins[side]) for side in SIDES)


def posted_pins(fields: Mapping[str, str]) -> dict[str, str]:
    """Each side's PIN as posted (``pin_NS``, ``pin_EW``), cut short."""
    pins = {}
    for side in SIDES:
        pin = fields.get(f"pin_{side}", "")
        pins[side] = pin[:20] if isinstance(pin, str) else ""
    return pins
