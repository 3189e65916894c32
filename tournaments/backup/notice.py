"""What the desk and the board say about the day's safety: the last backup's outcome (red when it failed) and,
after a restore, what was restored and what may be missing (deals to confirm again, rounds to publish again)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count
from django.utils import timezone

from tournaments.backup import identity
from tournaments.backup.models import BackupOutcome, DeskIdentity
from tournaments.models import Deal, Round, Tournament

RESTORE_NOTICE_FOR = timedelta(hours=24)  # the restore's notice stays on the desk for the rest of the day


@dataclass
class BackupState:
    """The newest backup's outcome and, when it failed, the newest that succeeded."""

    last: BackupOutcome | None
    last_good: BackupOutcome | None

    @property
    def failed(self) -> bool:
        return self.last is not None and not self.last.ok


def backup_state() -> BackupState:
    last = BackupOutcome.objects.order_by("-id").first()
    good = last if last is None or last.ok else BackupOutcome.objects.filter(ok=True).order_by("-id").first()
    return BackupState(last, good)


@dataclass
class RestoreNotice:
    """A restore's notice for one tournament's desk."""

    file_name: str
    taken_at: datetime | None
    unconfirmed: list[dict] = field(default_factory=list)  # {"round": n, "table": t, "deals": k}
    unpublished: list[Round] = field(default_factory=list)


def restore_notice(tournament: Tournament, now: datetime | None = None) -> RestoreNotice | None:
    """The notice while the desk's identity is the one the last restore made (and for a day at most)."""
    restored = identity.last_restore()
    if restored is None or restored.created_at < (now or timezone.now()) - RESTORE_NOTICE_FOR:
        return None
    newest = DeskIdentity.objects.order_by("-id").values_list("id", flat=True).first()
    if newest != restored.id:
        return None
    waiting = (
        Deal.objects.of(tournament)
        .exclude(state=Deal.State.CONFIRMED)
        .exclude(match__round__state=Round.State.DRAFT)
        .values("match__round__number", "match__table")
        .annotate(n=Count("id"))
        .order_by("match__round__number", "match__table")
    )
    return RestoreNotice(
        file_name=restored.restored_from,
        taken_at=restored.backup_taken_at,
        unconfirmed=[
            {"round": row["match__round__number"], "table": row["match__table"], "deals": row["n"]}
            for row in waiting
        ],
        unpublished=list(tournament.rounds.filter(state=Round.State.DRAFT).order_by("number")),
    )
