"""A simulated phone's journal, kept and given back as the trick-entry page's is (``static/js/journal.js``): the
protocol is docs/journal-protocol.md, which both follow step for step.

Per deal the phone keeps every entry the desk stored (its first key, action, fields and the version it was made
on), the desk's identity and the newest version it named, how far the deal went and the deal's start. When an
answer names another desk or an older version, ``give_back`` sends it all again, oldest deal first."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KEEP_CONFIRMED = 6  # confirmed deals whose journals a phone keeps for a restored desk (the newest)
DELAYS = (1.0, 2.0, 4.0, 8.0, 15.0)  # a given-back entry ahead of the desk waits for another device's
WAIT_FOR_OTHERS = 10


@dataclass
class Given:
    """An entry the desk stored: sent again exactly so (``key``, ``fields``, ``version``) in a give-back."""

    key: str
    action: str
    fields: dict[str, Any]
    version: int


@dataclass
class DealJournal:
    """One deal's journal (the page's ``localStorage`` record)."""

    given: list[Given] = field(default_factory=list)
    desk: str = ""
    told: int = 0
    seen: str = "recording"
    confirmed: float = 0.0
    match: int = 0
    number: int = 0
    start: dict[str, Any] | None = None  # key, match, fields: as the phone posted the new-deal form

    def lacks(self, state: dict) -> bool:
        """The desk lost what this phone was told it stored (another identity, or an older version)."""
        if not self.desk or not state.get("desk"):
            return False
        gone = state["desk"] != self.desk or state["deal"]["version"] < self.told
        return gone and (bool(self.given) or self.seen != "recording")

    def told_by(self, state: dict) -> None:
        """Take the desk's identity, the deal's version (the highest), state, match and number."""
        deal = state["deal"]
        self.told = max(self.told, deal["version"]) if self.desk == state["desk"] else deal["version"]
        self.desk, self.seen = state["desk"], deal["state"]
        self.match, self.number = deal.get("match", self.match), deal["number"]
        if self.seen == "confirmed" and not self.confirmed:
            self.confirmed = time.time()
        if self.seen == "recording":
            self.confirmed = 0.0  # reopened: kept again until confirmed


@dataclass
class Journal:
    """A phone's journals, by deal id."""

    deals: dict[int, DealJournal] = field(default_factory=dict)

    def of(self, deal_id: int) -> DealJournal:
        return self.deals.setdefault(deal_id, DealJournal())

    def gave(
        self, deal_id: int, action: str, fields: dict, version: int, key: str, state: dict | None
    ) -> None:
        """The desk stored this entry (answered ok): kept for a give-back."""
        record = self.of(deal_id)
        record.given.append(Given(key, action, {k: v for k, v in fields.items() if k != "version"}, version))
        if state and not record.lacks(state):
            record.told_by(state)

    def started(self, deal_id: int, match_id: int, key: str, fields: dict) -> None:
        self.of(deal_id).start = {"key": key, "match": match_id, "fields": dict(fields)}

    def observe(self, deal_id: int, state: dict | None) -> bool:
        """A state from the desk: True when a give-back is due, else the journal takes it."""
        if not state or "desk" not in state:
            return False
        record = self.of(deal_id)
        if record.lacks(state):
            return True
        record.told_by(state)
        self.prune()
        return False

    def prune(self) -> None:
        """The journals of confirmed deals beyond the newest ``KEEP_CONFIRMED`` leave the phone."""
        confirmed = sorted((r.confirmed, d) for d, r in self.deals.items() if r.confirmed)
        for _at, deal_id in confirmed[:-KEEP_CONFIRMED]:
            del self.deals[deal_id]

    def due(self, deal_id: int, desk: str) -> list[int]:
        """The deals of ``deal_id``'s match to give back to ``desk``, oldest first, ``deal_id`` last."""
        record = self.of(deal_id)
        older = sorted(
            (r.number, d)
            for d, r in self.deals.items()
            if d != deal_id and r.match == record.match and r.number < record.number and r.desk
            and r.desk != desk and (r.given or r.seen != "recording")
        )  # fmt: skip
        return [d for _n, d in older] + [deal_id]


# send(method, path, fields, key) -> (status, body as JSON or {}, Location header) or None (no answer)
Send = Callable[[str, str, dict | None, str | None], tuple[int, dict, str] | None]


def give_back(journal: Journal, deal_id: int, desk: str, send: Send) -> tuple[int, dict | None]:
    """Give back every deal of ``deal_id``'s match the desk ``desk`` may lack, oldest first (a deal starts only
    once the one before is submitted); returns ``deal_id``'s id at the desk now and its state."""
    state = None
    for old_id in journal.due(deal_id, desk):
        new_id, state = give_back_deal(journal, old_id, send)
        if old_id == deal_id:
            deal_id = new_id
    return deal_id, state


def give_back_deal(journal: Journal, deal_id: int, send: Send) -> tuple[int, dict | None]:
    """One deal, as docs/journal-protocol.md says: its start when the desk lacks the deal, every entry it stored
    in order with its first key and version, then ``given_back``."""
    record = journal.of(deal_id)
    old, seen = record.desk, record.seen
    read = send("GET", f"/deal/{deal_id}/state/", None, None)
    state = read[1] if read and read[0] == 200 else None
    same = state is not None and (state["deal"]["match"], state["deal"]["number"]) == (
        record.match,
        record.number,
    )
    if same and state is not None and not record.lacks(state):
        return deal_id, state  # the desk holds all of it
    if record.start and not same:  # the desk lacks the deal (or the id is another's): started again first
        deal_id, state = restarted(journal, deal_id, record, send)
    i, waits = 0, 0
    while i < len(record.given):
        entry = record.given[i]
        answer = send(
            "POST", f"/deal/{deal_id}/{entry.action}/", {**entry.fields, "version": entry.version}, entry.key
        )
        if answer is None:
            time.sleep(DELAYS[min(waits, len(DELAYS) - 1)])
            waits += 1
            continue
        body = answer[1]
        state = body.get("state") or state
        if body.get("ok"):
            i, waits = i + 1, 0
            continue
        if (
            body.get("error") == "stale"
            and state
            and state["deal"]["version"] < entry.version
            and waits < WAIT_FOR_OTHERS
        ):
            entry.key = (
                uuid.uuid4().hex
            )  # refused under its key, nothing written: again under a new one, later
            time.sleep(DELAYS[min(waits, len(DELAYS) - 1)])
            waits += 1
            continue
        del record.given[i:]  # the desk holds what this phone does not know: the rest goes to the judge
        break
    version = state["deal"]["version"] if state else record.told
    answer = send(
        "POST", f"/deal/{deal_id}/given_back/", {"identity": old, "seen": seen, "version": version}, None
    )
    if answer is not None and answer[1].get("state"):
        state = answer[1]["state"]
    if state:
        record.told_by(state)
    return deal_id, state


def restarted(journal: Journal, deal_id: int, record: DealJournal, send: Send) -> tuple[int, dict | None]:
    """The deal started again from the phone's start, under its first key; the journal moves to the new id."""
    start = record.start or {}
    answer = send("POST", f"/match/{start['match']}/deal/new/", start["fields"], start["key"])
    found = re.search(r"/deal/(\d+)/", answer[2]) if answer else None
    if not found:
        return deal_id, None
    new_id = int(found.group(1))
    if new_id != deal_id:
        journal.deals[new_id] = journal.deals.pop(deal_id)
    read = send("GET", f"/deal/{new_id}/state/", None, None)
    return new_id, read[1] if read and read[0] == 200 else None
