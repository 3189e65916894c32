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

from tournaments.models import WriteReceipt
from tournaments.scoring import sql
from tournaments.scoring.errors import RecordingError

KEY_FIELD = "idempotency_key"
KEY_HEADER = "X-Idempotency-Key"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,64}")
KEEP = timedelta(days=1)
PRUNE_EVERY = 100  # one receipt in this many prunes the old ones: one indexed delete, rarely


@dataclass
class Outcome:
    """What a write answered: the HTTP status and a JSON body (``ok``, or the refusal's code and message), and
    what the write returned this time (``result``: never stored, so a replayed answer has none)."""

    status: int = 200
    body: dict[str, Any] = field(default_factory=lambda: {"ok": True})
    result: Any = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return bool(self.body.get("ok"))

    @property
    def message(self) -> str:
        return self.body.get("message", "")

    @classmethod
    def refused(cls, exc: RecordingError) -> Outcome:
        return cls(exc.status, {"ok": False, "error": exc.code, "message": exc.message, **exc.details})


def attempt(call: Callable[..., Any], *args: Any) -> Outcome:
    """``call(*args)`` as an outcome: the Outcome it returns, else ok with what it returned, or its refusal."""
    try:
        result = call(*args)
    except RecordingError as exc:
        return Outcome.refused(exc)
    return result if isinstance(result, Outcome) else Outcome(result=result)


def check_key(key: str) -> str:
    """The key as sent ('' for none); a key no page would make is refused before anything is written."""
    key = (key or "").strip()
    if key and not KEY_PATTERN.fullmatch(key):
        raise RecordingError(_("The page sent a malformed request key: reload it and try again."))
    return key


# The receipt of a key, looked up before every keyed write (``sql``).
RECEIPT = sql.ModelRead(WriteReceipt, (), "user_id", "key")


@dataclass
class Receipt:
    """The receipt of one keyed write, which the write's service holds around the whole action: ``open`` looks
    the key up before anything runs (``answer``: the first outcome, or the refusal of a bad or reused key), the
    service checks and writes, ``keep`` stores its outcome with the key inside the write's transaction, and after
    that transaction ``twin`` answers a request whose twin (same key) committed first (an ``IntegrityError`` on
    the receipt's unique key); ``kept`` prunes the old receipts now and then."""

    user: Any
    key: str
    target: str
    answer: Outcome | None = None
    row: WriteReceipt | None = None

    @classmethod
    def open(cls, user, key: str, target: str) -> Receipt:
        """The receipt of ``key`` for the write ``target`` names (``deal 12 play``): answered already when the key
        was sent before (a key sent again for another write is refused)."""
        try:
            key = check_key(key)
            stored = RECEIPT.first(user.pk, key) if key else None
            answer = replay(stored, target) if stored is not None else None
        except RecordingError as exc:
            return cls(user, "", target, Outcome.refused(exc))
        return cls(user, key, target, answer)

    def keep(self, outcome: Outcome) -> Outcome:
        """Store ``outcome`` under the key, in the caller's transaction (no key: nothing to keep)."""
        if self.key:
            self.row = sql.insert(
                WriteReceipt(
                    user=self.user,
                    key=self.key,
                    target=self.target,
                    status=outcome.status,
                    answer=outcome.body,
                )
            )
        return outcome

    def twin(self) -> Outcome | None:
        """The outcome a twin of this request committed under the same key, when one did (else None: the
        caller's error was another)."""
        stored = WriteReceipt.objects.filter(user=self.user, key=self.key).first() if self.key else None
        return None if stored is None else attempt(replay, stored, self.target)

    def kept(self, outcome: Outcome) -> Outcome:
        """After the write's transaction committed: one receipt in ``PRUNE_EVERY`` prunes the old ones."""
        if self.row is not None and self.row.pk % PRUNE_EVERY == 0:
            prune()
        return outcome


def once(user, key: str, target: str, write: Callable[[], Any]) -> Outcome:
    """Run ``write`` in a transaction unless ``user`` already sent ``key``: then answer as the first time, writing
    nothing (``Receipt``). A refusal (``RecordingError``) is the outcome, kept with the key like a success; a
    write that raises anything else is rolled back with its receipt, so its retry runs again."""
    receipt = Receipt.open(user, key, target)
    if receipt.answer is not None:
        return receipt.answer
    try:
        with transaction.atomic():
            outcome = receipt.keep(attempt(write))
    except IntegrityError:  # a twin of this request committed first: its answer stands
        if (twin := receipt.twin()) is None:
            raise
        return twin
    return receipt.kept(outcome)


def replay(stored: WriteReceipt, target: str) -> Outcome:
    if stored.target != target:
        raise RecordingError(_("The page sent a request key already used for another change: reload it."))
    return Outcome(stored.status, stored.answer)


def prune(now=None) -> int:
    """Forget the receipts older than ``KEEP`` (no page retries a write that long)."""
    return WriteReceipt.objects.filter(created__lt=(now or timezone.now()) - KEEP).delete()[0]
