"""Idempotent writes: a page names each write it intends with a key of its own, and a retry of that write (the
reply was lost on the network, the judge tapped twice) gets the first answer back instead of writing again.

The answer is stored with the key in the write's own transaction, so a write and its receipt are saved
together or not at all. Keys belong to the account that sent them; receipts older than ``KEEP`` are pruned
now and then.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.table.recording.errors import RecordingError
from referee.table.recording.prepared import Prepared, inserter
from tournaments.models import WriteReceipt

KEY_FIELD = "idempotency_key"
KEY_HEADER = "X-Idempotency-Key"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,64}")
KEEP = timedelta(days=1)
PRUNE_EVERY = 100  # one receipt in this many prunes the old ones: one indexed delete, rarely


@dataclass
class Outcome:
    """What a write answered: the HTTP status and a JSON body (``ok``, or the refusal's code and message)."""

    status: int = 200
    body: dict[str, Any] = field(default_factory=lambda: {"ok": True})

    @property
    def ok(self) -> bool:
        return bool(self.body.get("ok"))

    @property
    def message(self) -> str:
        return self.body.get("message", "")

    @classmethod
    def refused(cls, exc: RecordingError) -> Outcome:
        return cls(exc.status, {"ok": False, "error": exc.code, "message": exc.message, **exc.details})


def check_key(key: str) -> str:
    """The key as sent ('' for none); a key no page would make is refused before anything is written."""
    key = (key or "").strip()
    if key and not KEY_PATTERN.fullmatch(key):
        raise RecordingError(_("The page sent a malformed request key: reload it and try again."))
    return key


# The receipt of a key (looked up before every keyed write: built once, ``prepared``).
RECEIPT = Prepared(
    lambda user_id, key: WriteReceipt.objects.filter(user_id=user_id, key=key).order_by(), arity=2
)


def once(
    user,
    key: str,
    target: str,
    write: Callable[[], Outcome],
    check: Callable[[], Outcome | None] | None = None,
) -> Outcome:
    """Run ``write`` unless ``user`` already sent ``key``: then answer as the first time, writing nothing.

    ``target`` names the write (``deal 12 play``); a key sent again for another write is refused. A write that
    raises is rolled back with its receipt, so its retry runs again. ``check`` (a play's engine check) runs
    first, outside the transaction, so the write lock is held for the writes alone; a refusal it returns is the
    outcome, kept like a write's. The key is looked up before either: two requests with one key that both pass
    are settled by the receipt's unique key, which rolls the second back and answers it with the first's outcome.
    """
    key = check_key(key)
    stored = RECEIPT.first(user.pk, key) if key else None
    if stored is not None:
        return replay(stored, target)
    refused = check() if check is not None else None
    try:
        with transaction.atomic():
            outcome = refused or write()
            if not key:
                return outcome
            receipt = inserter(WriteReceipt).insert(
                WriteReceipt(user=user, key=key, target=target, status=outcome.status, answer=outcome.body)
            )
    except IntegrityError:  # a twin of this request committed first: its answer stands
        stored = WriteReceipt.objects.filter(user=user, key=key).first() if key else None
        if stored is None:
            raise
        return replay(stored, target)
    if receipt.pk % PRUNE_EVERY == 0:
        prune()
    return outcome


def replay(stored: WriteReceipt, target: str) -> Outcome:
    if stored.target != target:
        raise RecordingError(_("The page sent a request key already used for another change: reload it."))
    return Outcome(stored.status, stored.answer)


def prune(now=None) -> int:
    """Forget the receipts older than ``KEEP`` (no page retries a write that long)."""
    return WriteReceipt.objects.filter(created__lt=(now or timezone.now()) - KEEP).delete()[0]
