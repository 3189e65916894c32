"""The recording service: every write of the table side goes through here.

The judges' pages, the management commands (``record_deal``, ``simulate``) and the tests all call these
functions, so a play entered by a tap, a typed line or an imported record is checked by the same rules engine
and saved the same way. Each write of a deal names the version the writer saw; a stale version is refused with
who changed the deal and when (optimistic concurrency), so nothing is overwritten silently.

A match's levels, banker, strikes and end are never edited by hand: ``recompute_match`` replays its confirmed
deals with the engine's match fold, so a correction to an early deal flows through to everything after it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from rules.cards import CardError, format_cards, parse_cards
from rules.facts import LeadShape, PenaltyCall, TrickFacts
from rules.judge import Verdict, judge
from rules.match import MatchDeal, MatchState, replay_played
from rules.order import trump_from_text
from rules.ranks import parse_rank
from rules.record import FORMAT, RecordError, parse_record
from rules.ruleset import Ruleset, RulesetError
from rules.scoring import PENALTY_CODES, ScoringError, score_deal
from rules.seats import SEATS, next_seat, partner, side_of
from tournaments.access import can_confirm, can_record, can_reopen
from tournaments.models import Deal, Match, Penalty, Play, Trick

# Faults of the entry itself: never saved. Rule faults (revokes, throws) may be saved on the judge's word.
ENTRY_FAULTS = frozenset(
    {"not_held", "deck_count", "mixed_lead", "wrong_leader", "wrong_order", "play_size", "incomplete_trick"}
)
LAST_LEAD_KINDS = ("single", "pair", "tractor2", "tractor3", "tractor4", "throw")


class RecordingError(Exception):
    """A write the service refuses; ``message`` is for the judge (translated), ``code`` for programs."""

    code = "refused"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class PermissionRefused(RecordingError):
    code = "forbidden"


class StaleEdit(RecordingError):
    """Someone saved the deal since the writer loaded it."""

    code = "stale"


class IllegalPlay(RecordingError):
    """The engine found a fault in the play; ``violations`` are the verdict's, for this play."""

    code = "illegal"

    def __init__(self, message: str, violations: list[dict], forceable: bool) -> None:
        super().__init__(message, violations=violations, forceable=forceable)
        self.violations = violations
        self.forceable = forceable


# ---------------------------------------------------------------- rulesets and permissions


def ruleset_for(match: Match) -> Ruleset:
    """The tournament's ruleset, with its own match time limit when the TD set one."""
    tournament = match.round.tournament
    rs = Ruleset.from_spec(tournament.ruleset)
    if tournament.match_time_limit:
        rs = dataclasses.replace(rs, time_limit_minutes=tournament.match_time_limit)
    return rs


def require_record(user, match: Match) -> None:
    if not can_record(user, match):
        raise PermissionRefused(_("You may not record this match: it is assigned to another judge."))


def seat_name(seat: str | None) -> str:
    if not seat:
        return ""
    return {"N": _("North"), "W": _("West"), "S": _("South"), "E": _("East")}[seat]


# ---------------------------------------------------------------- versions


def lock_deal(deal: Deal, version: int | None) -> Deal:
    """Re-read the deal under a row lock and check the writer saw its current version."""
    current = Deal.objects.select_for_update(of=("self",)).select_related("changed_by").get(pk=deal.pk)
    if Deal.match.is_cached(deal):
        current.match = deal.match
    if version is not None and int(version) != current.version:
        who = current.changed_by.get_username() if current.changed_by else _("someone")
        when = timezone.localtime(current.changed_at).strftime("%H:%M:%S")
        raise StaleEdit(
            _(
                "This deal was changed by %(who)s at %(when)s. The page now shows the current state; check it and "
                "enter your change again."
            )
            % {"who": who, "when": when},
            version=current.version,
        )
    return current


def touch(deal: Deal, user) -> None:
    """Count a change: a new version, and who made it (kept in the deal's history too)."""
    deal.version += 1
    deal.changed_by = user if getattr(user, "is_authenticated", False) else None
    deal._history_user = deal.changed_by
    deal.save()


# ---------------------------------------------------------------- records


def parse_card_text(text: str, field: str) -> str:
    """Canonical text of typed cards; a bad token is named, nothing guessed."""
    try:
        return format_cards(parse_cards(text))
    except CardError as exc:
        raise RecordingError(_("%(field)s: cannot read %(error)s") % {"field": field, "error": exc}) from exc


@dataclass
class Snapshot:
    """One read of a deal's tricks and plays (two queries), shared by the checks and the screen of a request."""

    deal: Deal
    rs: Ruleset
    tricks: list[Trick]
    plays: list[list[Play]]
    levels: Mapping[str, str] | None
    penalties: list[dict]

    @property
    def cards_played(self) -> int:
        return sum(len(p.cards.split()) for plays in self.plays for p in plays)

    @property
    def complete(self) -> bool:
        """All tricks played: every seat has played a whole hand."""
        return all(len(p) == 4 for p in self.plays) and self.cards_played == 4 * self.rs.hand_size

    @property
    def last(self) -> tuple[Trick | None, list[Play]]:
        return (self.tricks[-1], self.plays[-1]) if self.tricks else (None, [])

    def record_tricks(self) -> list[dict]:
        """DEAL-RECORD ``tricks`` (plays in order, challenged throws)."""
        out = []
        for trick, plays in zip(self.tricks, self.plays, strict=True):
            entry: dict[str, Any] = {"plays": [[p.seat, p.cards] for p in plays]}
            if trick.throw_attempted:
                entry["throw"] = {
                    "attempted": trick.throw_attempted,
                    "challenger": trick.throw_challenger,
                    "shown": trick.throw_shown,
                }
            out.append(entry)
        return out

    def record(self, partial: bool = False) -> dict:
        return deal_record(
            self.deal,
            levels=self.levels,
            partial=partial,
            tricks=self.record_tricks(),
            penalties=self.penalties,
        )

    def due(self, verdict: Verdict | None = None) -> str | None:
        """Whose turn it is: the next seat in the trick, the last winner, or the banker at the start."""
        trick, plays = self.last
        if trick is None:
            return self.deal.banker
        if len(plays) < 4:
            return next_seat(plays[-1].seat, self.rs.clockwise)
        if self.complete:
            return None
        verdict = verdict or judge_probe(self.record())
        return verdict.tricks[-1].winner if verdict.tricks else None


def snapshot(deal: Deal, levels: Mapping[str, str] | None = None) -> Snapshot:
    """Read the deal's tricks once; ``levels`` (both sides' levels when it began) are computed when not given."""
    tricks = list(deal.tricks.order_by("number").prefetch_related("plays"))
    plays = [sorted(t.plays.all(), key=lambda p: p.order) for t in tricks]
    levels = levels if levels is not None else levels_before(deal)
    return Snapshot(deal, ruleset_for(deal.match), tricks, plays, levels, penalty_entries(deal))


def penalty_entry(seat: str, code: str, trick: int | None, note: str) -> dict:
    """One DEAL-RECORD ``penalties`` entry (``trick`` left out when the judge named none)."""
    entry: dict[str, Any] = {"seat": seat, "code": code, "note": note}
    if trick is not None:
        entry["trick"] = trick
    return entry


def penalty_entries(deal: Deal) -> list[dict]:
    """DEAL-RECORD ``penalties`` (uses a prefetched ``penalties`` when there is one)."""
    rows = sorted(deal.penalties.all(), key=lambda p: (p.recorded_at, p.pk))
    return [penalty_entry(p.seat, p.code, p.trick, p.note) for p in rows]


def deal_record(
    deal: Deal,
    *,
    levels: Mapping[str, str] | None = None,
    partial: bool = False,
    tricks: list[dict] | None = None,
    penalties: list[dict] | None = None,
) -> dict:
    """The deal as a portable DEAL-RECORD document (what ``export_deals`` prints and the engine judges)."""
    if tricks is None:
        snap = snapshot(deal, levels or {})
        tricks, penalties = snap.record_tricks(), snap.penalties
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": deal.match.round.tournament.ruleset,
        "banker": deal.banker,
        "level": deal.level,
        "trump": deal.trump,
        "kitty": deal.kitty,
        "partial": partial,
        "tricks": tricks,
        "penalties": penalties if penalties is not None else penalty_entries(deal),
    }
    if levels is not None and levels.get(side_of(deal.banker)) == deal.level:
        record["levels"] = dict(levels)
    return record


# ---------------------------------------------------------------- the match


FOLD_FIELDS = ("pk", "number", "banker", "declarer", "level", "started_at", "finished_at", "attackers_total")


def fold_rows(match: Match, states: Iterable[str], before: int | None) -> list[dict]:
    """The columns the match fold needs, with each verdict's ``result`` only (the tricks are never parsed)."""
    deals = match.deals.filter(state__in=list(states))
    if before is not None:
        deals = deals.filter(number__lt=before)
    rows = list(deals.order_by("number").values(*FOLD_FIELDS, "verdict__result"))
    penalties: dict[int, list[dict]] = {}
    calls = Penalty.objects.filter(deal_id__in=[r["pk"] for r in rows]).order_by("recorded_at", "pk")
    for deal_id, *call in calls.values_list("deal_id", "seat", "code", "trick", "note"):
        penalties.setdefault(deal_id, []).append(penalty_entry(*call))
    for row in rows:
        row["penalties"] = penalties.get(row["pk"], [])
    return rows


def match_deal(row: Mapping[str, Any], rs: Ruleset) -> MatchDeal:
    """What the match fold needs of one stored deal (a row of ``fold_rows``)."""
    verdict = {"result": row["verdict__result"], "attackers_points": {"total": row["attackers_total"] or 0}}
    return MatchDeal.from_record(
        rs, row, verdict, started_at=row["started_at"], finished_at=row["finished_at"]
    )


def replay_with_notes(
    match: Match, *, states: Iterable[str], before: int | None = None, now: datetime | None = None
) -> tuple[MatchState, tuple[str, ...]]:
    """Fold the match's deals in ``states`` (numbered below ``before``) as played; notes name any mismatch."""
    rs = ruleset_for(match)
    rows = fold_rows(match, states, before)
    first = (
        rows[0]
        if rows and rows[0]["number"] == 1
        else match.deals.values("declarer", "banker").order_by("number").first()
    )
    first_banker = (first["declarer"] or first["banker"]) if first else None
    return replay_played(
        rs,
        [match_deal(row, rs) for row in rows if row["verdict__result"]],
        started_at=match.started_at,
        first_banker=first_banker,
        now=now or match.time_called_at,
        forfeited_by=match.forfeited_by or None,
    )


def replay_match(
    match: Match, *, states: Iterable[str], before: int | None = None, now: datetime | None = None
):
    """The match state from its deals in ``states`` (see ``replay_with_notes``)."""
    return replay_with_notes(match, states=states, before=before, now=now)[0]


OFFICIAL = (Deal.State.CONFIRMED,)
PLAYED = (Deal.State.SUBMITTED, Deal.State.CONFIRMED)


def has_open_deal(match: Match) -> bool:
    """A deal of the match is still being recorded at the table (not yet submitted)."""
    return match.deals.exclude(state__in=PLAYED).exists()


def table_state(match: Match) -> MatchState:
    """The state the table plays on: submitted deals count before they are confirmed."""
    return replay_match(match, states=PLAYED)


@transaction.atomic
def recompute_match(match: Match) -> MatchState:
    """Set the match's levels, banker and end from its confirmed deals (never edited by hand)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    state = replay_match(match, states=OFFICIAL)
    match.level_ns, match.level_ew = state.levels["NS"], state.levels["EW"]
    match.banker = state.banker or ""
    if state.end is not None:
        match.state = Match.State.FINISHED
        match.ended_by = state.end.how
        match.winner = match.pair_of(state.end.winner) if state.end.winner else None
        last = match.deals.filter(state=Deal.State.CONFIRMED).order_by("-number").first()
        match.ended_at = match.ended_at or (last.finished_at if last else timezone.now())
    else:
        match.state = Match.State.IN_PROGRESS if match.deals.exists() else Match.State.SCHEDULED
        match.ended_by, match.winner, match.ended_at = "", None, None
    match.version += 1
    match.save()
    match.round.refresh_state()
    return state


@transaction.atomic
def call_time(match: Match, user, *, now: datetime | None = None) -> MatchState:
    """After the time limit, with no deal in progress, the match ends by time (RULES §12)."""
    require_record(user, match)
    match = Match.objects.select_for_update().get(pk=match.pk)
    now = now or timezone.now()
    state = table_state(match)
    if state.over:
        raise RecordingError(_("The match is over."))
    if state.deadline is None or now < state.deadline:
        raise RecordingError(_("The time limit has not passed yet."))
    if has_open_deal(match):
        raise RecordingError(_("Finish and submit the deal in progress first."))
    match.time_called_at = now
    match._history_user = user
    match.save(update_fields=["time_called_at"])
    return recompute_match(match)


@transaction.atomic
def forfeit_match(match: Match, user, *, side: str) -> MatchState:
    """The TD records a no-show or a withdrawal: ``side`` forfeits and the other side wins."""
    if not can_reopen(user):
        raise PermissionRefused(_("Only the tournament director can record a forfeit."))
    if side not in ("NS", "EW"):
        raise RecordingError(_("Choose the side that forfeits."))
    match = Match.objects.select_for_update().get(pk=match.pk)
    match.forfeited_by = side
    match._history_user = user
    match.save(update_fields=["forfeited_by"])
    return recompute_match(match)


def match_summary(match: Match) -> dict:
    """``manage.py match_state``'s JSON for one match."""
    state = replay_match(match, states=OFFICIAL)
    return {
        "id": match.pk,
        "status": match.state,
        "ruleset": match.round.tournament.ruleset,
        "levels": dict(state.levels),
        "banker": state.banker,
        "deals": state.deals,
        "winner": state.end.winner if state.end else None,
        "ended_by": state.end.how if state.end else None,
    }


def levels_before(deal: Deal) -> dict[str, str]:
    """Both sides' levels when this deal began (from the played deals before it)."""
    return dict(replay_match(deal.match, states=PLAYED, before=deal.number).levels)


# ---------------------------------------------------------------- judging


def judge_deal(deal: Deal) -> Verdict:
    """The engine's verdict on the deal so far (the whole-deal audit once every trick is in)."""
    return judge_probe(snapshot(deal).record())


def judge_probe(record: dict) -> Verdict:
    try:
        return judge(record)
    except (RecordError, RulesetError) as exc:
        raise RecordingError(str(exc)) from exc


def cards_used_up(record: dict, text: str, decks: int) -> str:
    """Cards of ``text`` of which every copy is already played or buried (canonical text, or '')."""
    seen = Counter((record.get("kitty") or "").split())
    for trick in record["tricks"]:
        for _seat, cards in trick["plays"]:
            seen.update(cards.split())
    seen.update(text.split())
    return " ".join(sorted(card for card, n in seen.items() if n > decks and card in text.split()))


def verdict_message(violations: Sequence[dict]) -> str:
    """One line for the judge, in the active language."""
    from django.utils.translation import get_language

    key = "message_zh" if (get_language() or "").startswith("zh") else "message"
    return (
        "；".join(v[key] for v in violations)
        if key == "message_zh"
        else "; ".join(v[key] for v in violations)
    )


# ---------------------------------------------------------------- writes


@transaction.atomic
def start_deal(match: Match, user, *, trump: str, declarer: str | None = None, kitty: str = "") -> Deal:
    """A new deal: the banker from the rotation (the declarer for the first deal), the level from the match."""
    require_record(user, match)
    match = Match.objects.select_for_update().get(pk=match.pk)
    if has_open_deal(match):
        raise RecordingError(_("Finish and submit the deal in progress first."))
    state = table_state(match)
    if state.over:
        raise RecordingError(_("The match is over."))
    now = timezone.now()
    if state.deadline is not None and now >= state.deadline:
        raise RecordingError(_("Time is up: no new deal may start."))
    banker = state.banker or declarer
    if banker not in SEATS:
        raise RecordingError(_("Choose who won the declaration (the first banker)."))
    trump = (trump or "").strip().upper()
    if trump not in {"S", "H", "C", "D", "NT"}:
        raise RecordingError(_("Choose the trump suit or no trump."))
    number = (match.deals.aggregate(n=Max("number"))["n"] or 0) + 1
    deal = Deal(
        match=match,
        number=number,
        banker=banker,
        declarer=banker if number == 1 else "",
        level=state.levels[side_of(banker)],
        trump=trump,
        kitty=parse_card_text(kitty, _("kitty")) if kitty.strip() else "",
        started_at=now,
        changed_by=user,
    )
    deal._history_user = user
    deal.save()
    if match.started_at is None:
        match.started_at = now
        match.state = Match.State.IN_PROGRESS
        match.save(update_fields=["started_at", "state"])
    return deal


def require_open(deal: Deal) -> None:
    if deal.state != Deal.State.RECORDING:
        raise RecordingError(_("This deal has been submitted; it can no longer be changed here."))


@transaction.atomic
def set_kitty(deal: Deal, user, kitty: str, *, version: int | None) -> Deal:
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    text = parse_card_text(kitty, _("kitty")) if kitty.strip() else ""
    rs = ruleset_for(deal.match)
    expected = rs.kitty_size
    if text and len(text.split()) != expected:
        raise RecordingError(
            _("The kitty has %(n)s cards; it must have %(expected)s.")
            % {"n": len(text.split()), "expected": expected}
        )
    deal.kitty = text
    touch(deal, user)
    return deal


@dataclass(frozen=True)
class Throw:
    """A challenged throw as the judge saw it: cards attempted, challenger, cards shown."""

    attempted: str
    challenger: str
    shown: str


@transaction.atomic
def record_play(
    deal: Deal,
    user,
    *,
    cards: str,
    version: int | None,
    seat: str | None = None,
    throw: Throw | None = None,
    force: bool = False,
    levels: Mapping[str, str] | None = None,
) -> Verdict:
    """Check one play with the engine and save it; refuse it with the reason when it is wrong.

    Entry faults (wrong size, wrong turn, a card used up, a mixed lead) are never saved. A rule fault (a revoke,
    a throw that should have failed) is refused too unless the judge confirms it happened (``force``): then it
    is saved and stays in the verdict, where the judge applies the penalty at the end of the deal.
    """
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    snap = snapshot(deal, levels)
    probe = snap.record()
    before = judge_probe(probe)
    due = snap.due(before)
    if due is None:
        raise RecordingError(_("All tricks are played: submit the deal."))
    if seat and seat != due:
        raise RecordingError(
            _("It is %(due)s's turn, not %(seat)s's.") % {"due": seat_name(due), "seat": seat_name(seat)}
        )
    text = parse_card_text(cards, _("cards"))
    if not text:
        raise RecordingError(_("Enter the cards played."))
    last, last_plays = snap.last
    new_trick = last is None or len(last_plays) == 4
    if throw is not None and not new_trick:
        raise RecordingError(_("Only the lead can be a challenged throw."))
    used_up = cards_used_up(probe, text, snap.rs.decks)
    if used_up:
        raise IllegalPlay(
            _("%(cards)s: every copy is already played or in the kitty.") % {"cards": used_up},
            [],
            forceable=False,
        )
    if new_trick:
        probe["tricks"].append({"plays": []})
    probe["tricks"][-1]["plays"].append([due, text])
    if throw is not None:
        probe["tricks"][-1]["throw"] = {
            "attempted": parse_card_text(throw.attempted, _("throw attempted")),
            "challenger": throw.challenger,
            "shown": parse_card_text(throw.shown, _("cards shown")),
        }
    verdict = judge_probe(probe)
    index = len(probe["tricks"]) - 1
    known = {(v.trick, v.seat, v.code) for v in before.violations}
    fresh = [v for v in verdict.violations if (v.trick, v.seat, v.code) not in known]
    refused = [
        v.as_dict() for v in fresh if (v.trick == index and v.seat in (due, None)) or v.code in ENTRY_FAULTS
    ]
    if refused:
        entry = any(v["code"] in ENTRY_FAULTS for v in refused)
        if entry or not force:
            raise IllegalPlay(verdict_message(refused), refused, forceable=not entry)
    if new_trick:
        trick = Trick(deal=deal, number=0 if last is None else last.number + 1)
    else:
        trick = last
    if throw is not None:
        trick.throw_attempted = probe["tricks"][-1]["throw"]["attempted"]
        trick.throw_challenger = throw.challenger
        trick.throw_shown = probe["tricks"][-1]["throw"]["shown"]
    if new_trick or throw is not None:
        trick._history_user = user
        trick.save()
    order = 0 if new_trick else len(last_plays)
    play = Play(trick=trick, order=order, seat=due, cards=text, recorded_by=user)
    play._history_user = user
    play.save()
    touch(deal, user)
    return verdict


@transaction.atomic
def undo(deal: Deal, user, *, version: int | None, whole_trick: bool = False) -> None:
    """Take back the last play entered (its trick too when it was the lead), or the whole last trick."""
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    trick = deal.tricks.order_by("-number").first()
    if trick is None:
        raise RecordingError(_("Nothing to undo."))
    plays = list(trick.plays.order_by("-order"))
    for play in plays if whole_trick else plays[:1]:
        play._history_user = user
        play.delete()
    if whole_trick or len(plays) <= 1:
        trick._history_user = user
        trick.delete()
    touch(deal, user)


def undo_last_play(deal: Deal, user, *, version: int | None) -> None:
    undo(deal, user, version=version)


def undo_last_trick(deal: Deal, user, *, version: int | None) -> None:
    undo(deal, user, version=version, whole_trick=True)


@transaction.atomic
def add_penalty(
    deal: Deal, user, *, seat: str, code: str, version: int | None, trick: int | None = None, note: str = ""
) -> Penalty:
    """A penalty the judge called (misplay, signal, renege, revoke, wrong card count)."""
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    if deal.state == Deal.State.CONFIRMED:
        raise RecordingError(_("This deal is confirmed; only the director can reopen it."))
    if seat not in SEATS:
        raise RecordingError(_("Choose the seat at fault."))
    if code not in PENALTY_CODES:
        raise RecordingError(_("Unknown penalty %(code)s.") % {"code": code})
    penalty = Penalty(deal=deal, seat=seat, code=code, trick=trick, note=note.strip()[:300], recorded_by=user)
    penalty._history_user = user
    penalty.save()
    touch(deal, user)
    return penalty


@transaction.atomic
def remove_penalty(deal: Deal, user, *, penalty_id: int, version: int | None) -> None:
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    if deal.state == Deal.State.CONFIRMED:
        raise RecordingError(_("This deal is confirmed; only the director can reopen it."))
    penalty = deal.penalties.filter(pk=penalty_id).first()
    if penalty is None:
        raise RecordingError(_("That penalty is no longer there."))
    penalty._history_user = user
    penalty.delete()
    touch(deal, user)


@transaction.atomic
def submit_deal(deal: Deal, user, *, version: int | None) -> Deal:
    """Close the deal: the retroactive audit's verdict is stored with it; a second person confirms it."""
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    rs = ruleset_for(deal.match)
    if deal.mode == Deal.Mode.TRICKS:
        snap = snapshot(deal)
        if not snap.complete:
            raise RecordingError(_("The deal is not finished: record every trick first."))
        expected = rs.kitty_size
        if len(deal.kitty.split()) != expected:
            raise RecordingError(_("Enter the kitty (%(n)s cards) before submitting.") % {"n": expected})
        verdict = judge_probe(snap.record()).as_dict()
    else:
        verdict = quick_verdict(deal, rs)
    if not verdict.get("result"):
        raise RecordingError(_("The engine could not score this deal."))
    deal.verdict = verdict
    deal.state = Deal.State.SUBMITTED
    deal.submitted_by = user
    deal.submitted_at = deal.finished_at = timezone.now()
    touch(deal, user)
    return deal


@transaction.atomic
def confirm_deal(deal: Deal, user, *, version: int | None) -> Deal:
    """A second person confirms a submitted deal; the match is then recomputed from its confirmed deals."""
    deal = lock_deal(deal, version)
    if deal.state != Deal.State.SUBMITTED:
        raise RecordingError(_("Only a submitted deal can be confirmed."))
    if deal.submitted_by_id == getattr(user, "pk", None):
        raise PermissionRefused(_("You submitted this deal: another person must confirm it."))
    if not can_confirm(user, deal):
        raise PermissionRefused(_("You may not confirm deals of this match."))
    deal.state = Deal.State.CONFIRMED
    deal.confirmed_by = user
    deal.confirmed_at = timezone.now()
    touch(deal, user)
    recompute_match(deal.match)
    return deal


@transaction.atomic
def reopen_deal(deal: Deal, user, *, version: int | None, reason: str = "") -> Deal:
    """Only the TD reopens a submitted or confirmed deal; the history keeps who, when and why."""
    if not can_reopen(user):
        raise PermissionRefused(_("Only the tournament director can reopen a deal."))
    deal = lock_deal(deal, version)
    if deal.state == Deal.State.RECORDING:
        raise RecordingError(_("This deal is open already."))
    was_confirmed = deal.state == Deal.State.CONFIRMED
    deal.state = Deal.State.RECORDING
    deal.confirmed_by = deal.confirmed_at = None
    deal.submitted_by = deal.submitted_at = None
    deal._change_reason = reason[:100] or "reopened by the director"
    touch(deal, user)
    if was_confirmed:
        recompute_match(deal.match)
    return deal


# ---------------------------------------------------------------- quick entry


def quick_lead_shape(kind: str) -> LeadShape:
    if kind == "single":
        return LeadShape("single", 0, False)
    if kind == "pair":
        return LeadShape("pair", 1, False)
    if kind.startswith("tractor"):
        return LeadShape("tractor", int(kind[len("tractor") :]), False)
    if kind == "throw":
        return LeadShape("single", 0, True)
    raise RecordingError(_("Unknown kind of last lead: %(kind)s") % {"kind": kind})


def quick_verdict(deal: Deal, rs: Ruleset) -> dict:
    """Score a deal from the table's totals, through the same scoring function as a recorded deal."""
    attackers = [s for s in SEATS if side_of(s) != side_of(deal.banker)]
    banker_side = [deal.banker, partner(deal.banker)]
    last_winner = attackers[0] if deal.quick_attackers_last else banker_side[0]
    tricks = [
        TrickFacts(deal.banker, attackers[0], int(deal.quick_points or 0), LeadShape("single")),
        TrickFacts(last_winner, last_winner, 0, quick_lead_shape(deal.quick_last_lead or "single")),
    ]
    calls = [PenaltyCall(p.seat, p.code, p.trick, p.note) for p in deal.penalties.all()]
    levels = levels_before(deal)
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


def check_quick_totals(rs: Ruleset, points: int, kitty_points: int, last_lead: str) -> None:
    """Totals a table can have: multiples of 5, within the deck's points, the kitty's within the kitty."""
    deck_points = 100 * rs.decks
    if points % 5 or kitty_points % 5:
        raise RecordingError(_("Points come in fives: check the totals."))
    if not 0 <= kitty_points <= deck_points:
        raise RecordingError(_("Kitty points must be between 0 and %(max)s.") % {"max": deck_points})
    if not 0 <= points <= deck_points - kitty_points:
        raise RecordingError(
            _("Points from tricks must be between 0 and %(max)s (the deck less the kitty).")
            % {"max": deck_points - kitty_points}
        )
    if last_lead not in LAST_LEAD_KINDS:
        raise RecordingError(_("Choose the kind of the last lead."))


@transaction.atomic
def quick_entry(
    match: Match,
    user,
    *,
    trump: str,
    points: int,
    kitty_points: int,
    last_lead: str,
    attackers_won_last: bool,
    declarer: str | None = None,
    penalties: Sequence[Mapping[str, Any]] = (),
) -> Deal:
    """A deal entered as totals only (tables that do not record tricks), then submitted at once."""
    if not match.round.tournament.quick_entry_allowed:
        raise PermissionRefused(_("Quick entry is not allowed in this tournament."))
    rs = ruleset_for(match)
    check_quick_totals(rs, points, kitty_points, last_lead)
    deal = start_deal(match, user, trump=trump, declarer=declarer)
    deal.mode = Deal.Mode.QUICK
    deal.quick_points, deal.quick_kitty_points = points, kitty_points
    deal.quick_last_lead, deal.quick_attackers_last = last_lead, attackers_won_last
    touch(deal, user)
    for p in penalties:
        add_penalty(
            deal,
            user,
            seat=p["seat"],
            code=p["code"],
            trick=p.get("trick"),
            note=p.get("note", ""),
            version=None,
        )
    deal.refresh_from_db()
    return submit_deal(deal, user, version=deal.version)


# ---------------------------------------------------------------- whole records (CLI, import, simulator)


def check_record_fits(match: Match, record: Mapping[str, Any]) -> None:
    """A record must agree with the match's state: same ruleset, the banker due, the banker side's level."""
    try:
        parsed = parse_record(record)
    except (RecordError, RulesetError) as exc:
        raise RecordingError(str(exc)) from exc
    if parsed.partial:
        raise RecordingError("the record is partial: only complete deals can be recorded")
    if Ruleset.from_spec(record.get("ruleset", "standard")) != Ruleset.from_spec(
        match.round.tournament.ruleset
    ):
        raise RecordingError(
            f"ruleset {record.get('ruleset', 'standard')!r} differs from the tournament's "
            f"{match.round.tournament.ruleset!r}"
        )
    state = table_state(match)
    if state.over:
        raise RecordingError("the match is over")
    if has_open_deal(match):
        raise RecordingError("a deal of this match is being recorded at the table")
    if state.banker is not None and parsed.banker != state.banker:
        raise RecordingError(f"banker {parsed.banker} is not the banker due, {state.banker}")
    due_level = state.levels[side_of(parsed.banker)]
    if parse_rank(record["level"]) != due_level:
        raise RecordingError(f"level {record['level']} differs from the banker side's level {due_level}")


@transaction.atomic
def record_deal(
    match: Match,
    record: Mapping[str, Any],
    user,
    *,
    started_at: datetime | None = None,
    finished_at: datetime | None = None,
) -> Deal:
    """Record a whole DEAL-RECORD into the match, confirmed by ``user`` (the command's operator)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    check_record_fits(match, record)
    now = timezone.now()
    started_at = started_at or now
    number = (match.deals.aggregate(n=Max("number"))["n"] or 0) + 1
    rs = ruleset_for(match)
    t = trump_from_text(record["level"], record["trump"], rs.permanent_twos)

    def canon(text: str) -> str:
        return format_cards(parse_cards(text), t)

    deal = Deal(
        match=match,
        number=number,
        banker=record["banker"],
        declarer=record["banker"] if number == 1 else "",
        level=parse_rank(record["level"]),
        trump=str(record["trump"]).upper(),
        kitty=canon(record.get("kitty") or ""),
        started_at=started_at,
        changed_by=user,
    )
    deal._history_user = user
    deal.save()
    tricks, plays = [], []
    for i, entry in enumerate(record["tricks"]):
        throw = entry.get("throw") or {}
        tricks.append(
            Trick(
                deal=deal,
                number=i,
                throw_attempted=canon(throw.get("attempted", "")) if throw else "",
                throw_challenger=throw.get("challenger", ""),
                throw_shown=canon(throw.get("shown", "")) if throw else "",
            )
        )
    tricks = bulk_create_with_history(tricks, Trick, default_user=user)
    if not tricks or tricks[0].pk is None:  # some databases do not return keys from bulk inserts
        tricks = list(deal.tricks.order_by("number"))
    for trick, entry in zip(tricks, record["tricks"], strict=True):
        for order, (seat, cards) in enumerate(entry["plays"]):
            plays.append(Play(trick=trick, order=order, seat=seat, cards=canon(cards), recorded_by=user))
    bulk_create_with_history(plays, Play, default_user=user)
    for p in record.get("penalties") or ():
        penalty = Penalty(
            deal=deal,
            seat=p["seat"],
            code=p["code"],
            trick=p.get("trick"),
            note=p.get("note", ""),
            recorded_by=user,
        )
        penalty._history_user = user
        penalty.save()
    if match.started_at is None:
        match.started_at = started_at
        match.save(update_fields=["started_at"])
    verdict = judge_deal(deal).as_dict()
    deal.verdict = verdict
    deal.state = Deal.State.CONFIRMED
    deal.submitted_by = deal.confirmed_by = user
    deal.submitted_at = deal.confirmed_at = deal.finished_at = finished_at or now
    touch(deal, user)
    recompute_match(match)
    return deal


def export_deals(match: Match) -> list[dict]:
    """The match's deals as DEAL-RECORD documents, each with the levels it began at."""
    out = []
    for deal in match.deals.order_by("number"):
        record = deal_record(deal, levels=levels_before(deal))
        if deal.mode == Deal.Mode.QUICK:
            record["partial"] = True
        out.append(record)
    return out
