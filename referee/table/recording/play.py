"""The play: a judge's posted play from the form's fields to its outcome, in the order it runs — check, claim,
store, then the turn cache.

- ``record``: the whole play, under its write's receipt (``receipts.Receipt``): a key already answered gets that
  answer back before anything else runs, and the outcome is kept with the key in the write's transaction.
- ``check``: the engine's check, outside the write's transaction (reads and the engine only), on the deal as the
  last play left it (``before_play``): the engine is handed a typed record (``rules.record.Record``), the one the
  last play kept extended by this play, never a document parsed again.
- ``claim``: the deal's version, first of the writes, so a deal changed since the check is refused as stale
  before anything is written and the write lock is held for the writes alone.
- ``store``: the trick (for a lead) and the play, each with its history row (``sql``, every raw statement), and
  the deal with the play kept for the next play once the transaction commits.
- the turn cache (``KEPT``: ``before_play`` reads it, ``keep`` fills it): each deal as the last play on this
  process left it.

The answer's screen is drawn from the play's own read of the deal (``Outcome.result``), so a play reads it once.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.table.recording import settling
from referee.table.recording.receipts import Outcome, Receipt
from referee.table.recording.words import (
    parse_card_text,
    posted_cards,
    posted_seat,
    posted_version,
    seat_name,
    verdict_message,
)
from rules.card_counts import used_up
from rules.cards import CARD_TEXT, parse_cards
from rules.record import Record, ThrowRecord
from rules.ruleset import Ruleset
from rules.verdict import Verdict
from tournaments.models import Deal, Play, Trick
from tournaments.scoring import sql
from tournaments.scoring.entries import require_open, require_record
from tournaments.scoring.errors import IllegalPlay, RecordingError
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.settlement import key_of
from tournaments.scoring.snapshot import Snapshot, judge_record, snapshot, start_levels, with_play
from tournaments.scoring.versions import read_deal, stale


def record(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> Outcome:
    """Check and save the posted play once per ``key``; a refusal (the engine's, a stale version, a bad field)
    is the outcome, kept with the key like a success. A play this time carries the deal as saved (``result``)."""
    receipt = Receipt.open(user, key, f"deal {deal.pk} play")
    if receipt.answer is not None:
        return receipt.answer
    checked: CheckedPlay | None = None
    try:
        checked = check(deal, user, **posted_play(fields))
    except RecordingError as exc:
        outcome = Outcome.refused(exc)
    try:
        with transaction.atomic():
            if checked is not None:
                try:
                    outcome = Outcome(result=save(checked))
                except RecordingError as exc:  # the deal changed since the check: nothing was written
                    outcome = Outcome.refused(exc)
            receipt.keep(outcome)
    except IntegrityError:  # a twin of this request (same key) committed first: its answer stands
        if (twin := receipt.twin()) is None:
            raise
        return twin
    return receipt.kept(outcome)


def posted_play(fields: Mapping[str, str]) -> dict[str, Any]:
    """The play's posted fields as ``check`` takes them: the cards, the seat, the deal's version the page shows, a
    lead's challenged throw and whether the judge confirmed a fault happened (``force``)."""
    return {
        "cards": posted_cards(fields, "cards", _("cards")),
        "seat": posted_seat(fields, "seat"),
        "version": posted_version(fields),
        "throw": posted_throw(fields),
        "force": fields.get("force") == "1",
    }


def posted_throw(fields: Mapping[str, str]) -> Throw | None:
    """A challenged throw as posted with a lead (the challenger named), or None."""
    attempted = posted_cards(fields, "throw_attempted", _("throw attempted"))
    if not attempted.strip():
        return None
    challenger = posted_seat(fields, "throw_challenger")
    if challenger is None:
        raise RecordingError(_("Choose who challenged the throw."))
    return Throw(attempted, challenger, posted_cards(fields, "throw_shown", _("cards shown")))


# A board's faults proven at the play that commits them (its hands are known): the play is saved and the table
# told at once (RULES §14.3, §14.6), as a fault an earlier void proves is.
PROVEN_AT_PLAY = frozenset({"revoke_suit", "revoke_pair", "revoke_tractor"})
# Faults of the entry itself: never saved. Rule faults (revokes, throws) may be saved on the judge's word.
ENTRY_FAULTS = frozenset(
    {"not_held", "deck_count", "mixed_lead", "wrong_leader", "wrong_order", "play_size", "incomplete_trick"}
)


@dataclass(frozen=True)
class Throw:
    """A challenged throw as the judge saw it: cards attempted, challenger, cards shown."""

    attempted: str
    challenger: str
    shown: str


@dataclass
class CheckedPlay:
    """A play the engine accepted on the deal as read (``check``), waiting to be saved (``save``)."""

    snap: Snapshot
    user: Any
    version: int  # the deal's version it was checked against: saved only if the deal is still at it
    seat: str
    cards: str
    throw: dict | None  # a challenged throw, canonical, with the lead
    rec: Record  # the engine's record of the deal with the play
    verdict: Verdict  # the engine's on it
    fresh: list  # violations the play brings to light (``Snapshot.proven``)
    ruled_played: list[dict]  # faults of this play the judge said happened (``force``): recorded as played


def check(
    deal: Deal,
    user,
    *,
    cards: str,
    version: int | None,
    seat: str | None = None,
    throw: Throw | None = None,
    force: bool = False,
) -> CheckedPlay:
    """Check one play with the engine on the deal as read, without a lock (``save`` saves it if the deal is still
    at that version); refuse it with the reason when it is wrong.

    Entry faults (wrong size, wrong turn, a card used up, a mixed lead) are never saved. A rule fault of this
    play (a revoke, a throw that should have failed) is refused too unless the judge confirms it happened
    (``force``): then it is saved, recorded as played (``settling.mark_played``), and stays in the verdict until
    it is settled. A fault the play proves elsewhere (a void shown in an earlier trick, now broken) does not
    refuse it: the cards were played; the snapshot names it (``proven``) so the page asks the judge at once to
    confirm the entry or undo it. A refusal is checked against the deal as it is now: when someone changed it
    since it was read, the refusal is that (stale), not a fault of a state that is gone.
    """
    require_record(user, deal.match)
    if version is None or deal.version != version:  # the caller's copy is not the version named: read it
        deal = read_deal(deal, version)
    require_open(deal)
    require_buried(deal)
    try:
        snap, before = before_play(deal, ruleset_for(deal.match), start_levels(deal))
        return judged(snap, before, user, cards=cards, seat=seat, throw=throw, force=force)
    except RecordingError:
        read_deal(deal, deal.version)  # changed since it was read: refused as stale instead
        raise


def judged(
    snap: Snapshot, before: Turn, user, *, cards: str, seat: str | None, throw: Throw | None, force: bool
) -> CheckedPlay:
    """The engine's checks of one play on ``snap``, whose turn is ``before`` (``check``)."""
    due = before.due
    if due is None:
        raise RecordingError(_("All tricks are played: submit the deal."))
    if seat and seat != due:
        raise RecordingError(
            _("It is %(due)s's turn, not %(seat)s's.") % {"due": seat_name(due), "seat": seat_name(seat)}
        )
    text = parse_card_text(cards, _("cards"))
    if not text:
        raise RecordingError(_("Enter the cards played."))
    require_a_hand(snap.rs, text, *((throw.attempted, throw.shown) if throw is not None else ()))
    last, last_plays = snap.last
    if throw is not None and not (last is None or len(last_plays) == 4):
        raise RecordingError(_("Only the lead can be a challenged throw."))
    if throw is not None:
        require_another_player(throw.challenger, due)
    played = parse_cards(text)
    if used := used_up(snap.rec, played):
        raise IllegalPlay(
            _("%(cards)s: every copy is already played or in the kitty.")
            % {"cards": " ".join(sorted(CARD_TEXT[c] for c in used))},
            [],
            forceable=False,
        )
    thrown = None
    if throw is not None:
        thrown = {
            "attempted": parse_card_text(throw.attempted, _("throw attempted")),
            "challenger": throw.challenger,
            "shown": parse_card_text(throw.shown, _("cards shown")),
        }
    rec = with_play(snap.rec, due, played, thrown_record(thrown))
    verdict = judge_record(rec)
    index = len(rec.tricks) - 1
    known = before.known
    fresh = [v for v in verdict.violations if (v.trick, v.seat, v.code) not in known]
    on_board = snap.deal.board_id is not None  # the hands are known: a revoke is proven, and the play stands
    refused = [
        v.as_dict()
        for v in fresh
        if ((v.trick == index and v.seat in (due, None)) or v.code in ENTRY_FAULTS)
        and not (on_board and v.code in PROVEN_AT_PLAY)
    ]
    if refused:
        entry = any(v["code"] in ENTRY_FAULTS for v in refused)
        if entry or not force:
            raise IllegalPlay(verdict_message(refused), refused, forceable=not entry)
    return CheckedPlay(snap, user, snap.deal.version, due, text, thrown, rec, verdict, fresh, refused)


def thrown_record(thrown: dict | None) -> ThrowRecord | None:
    if thrown is None:
        return None
    return ThrowRecord(parse_cards(thrown["attempted"]), thrown["challenger"], parse_cards(thrown["shown"]))


def require_a_hand(rs: Ruleset, *entries: str) -> None:
    """No play, throw or cards shown holds more cards than a hand (typed twice over, say): refused in words."""
    for entry in entries:
        if len(parse_card_text(entry, _("cards")).split()) > rs.hand_size:
            raise RecordingError(
                _("A hand holds %(n)s cards: no play or throw can hold more.") % {"n": rs.hand_size}
            )


def require_buried(deal: Deal) -> None:
    """No play on a board before the banker's buried cards are entered: the banker's hand is known only then."""
    if deal.board_id and not deal.kitty:
        raise RecordingError(
            _("Enter the cards the banker buried first: the banker's hand is known only then.")
        )


def require_another_player(challenger: str, thrower: str) -> None:
    """Any other player may challenge a throw, the thrower's partner too (RULES §5: "no other player (partner
    included)" may hold a beating unit); only the thrower cannot."""
    if challenger == thrower:
        raise RecordingError(_("The thrower cannot challenge their own throw: choose another player."))


def save(play: CheckedPlay) -> Snapshot:
    """Save a play ``check`` accepted, inside the caller's transaction: the deal's version claimed first
    (``claim``), then the trick and the play stored (``store``)."""
    claim(play.snap.deal, play.user, play.version)
    return store(play)


def claim(deal: Deal, user, version: int) -> None:
    """Count the play as a change to the deal read without a lock, provided it is still at ``version``.

    One conditional UPDATE checks the version, bumps it and takes the row (on SQLite the write lock), so the
    checks before it run outside the lock; a change saved since the read is refused as stale, with who made it,
    before anything is written. The deal's history row says who and when, as ``versions.touch``'s does.
    """
    now = timezone.now()
    changed_by = user if getattr(user, "is_authenticated", False) else None
    if not sql.claim(deal.pk, version, changed_by, now):
        raise stale(Deal.objects.select_related("changed_by").get(pk=deal.pk))
    deal.version, deal.changed_by, deal.changed_at = version + 1, changed_by, now
    deal._history_user = changed_by
    sql.record_change(deal, changed_by, now)


def store(play: CheckedPlay) -> Snapshot:
    """The play's rows, the deal's version claimed: the trick (for a lead) and the play, each with its history row
    (who and when); the deal with the play kept for the next play (``keep``) once the transaction commits."""
    snap, user = play.snap, play.user
    deal = snap.deal
    if play.ruled_played:
        settling.mark_played(deal, user, play.ruled_played)
    last, last_plays = snap.last
    if last is None or len(last_plays) == 4:  # a throw comes only with a lead, so a new trick is the only one
        trick = Trick(deal=deal, number=0 if last is None else last.number + 1)
        if play.throw is not None:
            trick.throw_attempted = play.throw["attempted"]
            trick.throw_challenger = play.throw["challenger"]
            trick.throw_shown = play.throw["shown"]
        sql.insert_with_history(trick, user)
        order = 0
    else:
        trick, order = last, len(last_plays)
    row = Play(trick=trick, order=order, seat=play.seat, cards=play.cards, recorded_by=user)
    sql.insert_with_history(row, user)
    snap.add(trick, row, play.rec, play.verdict)
    snap.proven = tuple(key_of(v) for v in play.fresh)
    keep(snap)
    return snap


# ---------------------------------------------------------------- the turn cache
# The process-wide cache of each deal as its last play left it: the snapshot, the engine's typed record and its
# verdict, so the next play's check reads no trick and judges the deal once, on the record extended by one play.


@dataclass(frozen=True)
class Turn:
    """What a play's check needs of the deal before it: whose turn it is, and the violations already known (a
    play is refused for, or proves, only new ones)."""

    due: str | None
    known: frozenset[tuple[int | None, str | None, str]]

    @classmethod
    def of(cls, snap: Snapshot, verdict: Verdict) -> Turn:
        return cls(snap.due(verdict), frozenset((v.trick, v.seat, v.code) for v in verdict.violations))


@dataclass(frozen=True)
class Kept:
    """A deal as a committed play left it: its tricks and plays, penalties, the engine's record and verdict."""

    tricks: tuple[Trick, ...]
    plays: tuple[tuple, ...]
    penalties: tuple[dict, ...]
    penalty_keys: tuple[str, ...]
    rec: Record
    verdict: Verdict
    turn: Turn


# The deal after each play this process saved, under its id, version, time of change, ruleset and start levels —
# kept only once committed, and a version is committed once (every write to a deal claims a new one) — so the
# next play (on this process: a tablet keeps its connection) reads no trick and judges the deal once.
KEPT: dict[tuple, Kept] = {}
KEPT_DEALS = 2048
_kept_lock = threading.Lock()


def kept_key(deal: Deal, rs, levels: Mapping[str, str]) -> tuple:
    return (deal.pk, deal.version, deal.changed_at, rs, tuple(sorted(levels.items())))


def before_play(deal: Deal, rs, levels: Mapping[str, str]) -> tuple[Snapshot, Turn]:
    """The deal before a play, and its turn: as the last play on this process left it, else read and judged."""
    kept = KEPT.get(kept_key(deal, rs, levels))
    if kept is None:
        snap = snapshot(deal, levels)
        return snap, Turn.of(snap, snap.judged())
    snap = Snapshot(
        deal,
        rs,
        list(kept.tricks),
        [list(plays) for plays in kept.plays],
        levels,
        list(kept.penalties),
        kept.verdict,
        list(kept.penalty_keys),
        typed=kept.rec,
    )
    return snap, kept.turn


def keep(snap: Snapshot) -> None:
    """Keep the deal after the play just saved on ``snap``, once its transaction commits."""
    key = kept_key(snap.deal, snap.rs, snap.levels)
    verdict = snap.judged()
    kept = Kept(
        tuple(snap.tricks),
        tuple(tuple(plays) for plays in snap.plays),
        tuple(snap.penalties),
        tuple(snap.penalty_keys),
        snap.rec,
        verdict,
        Turn.of(snap, verdict),
    )

    def put() -> None:
        with _kept_lock:
            if len(KEPT) >= KEPT_DEALS:
                del KEPT[next(iter(KEPT))]  # the oldest
            KEPT[key] = kept

    transaction.on_commit(put)
