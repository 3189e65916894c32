"""The load tool's phone journal (``tools/loadtest/journal.py``), against a desk played by a fake: it gives back
in order with the first keys and versions, oldest deal first, starts a deal the desk lacks again, stops at what
the desk holds that it does not know, and keeps only the newest confirmed deals (docs/journal-protocol.md)."""

from __future__ import annotations

from tools.loadtest.journal import KEEP_CONFIRMED, Journal, give_back


def state(desk: str, version: int, number: int = 1, deal_state: str = "recording", match: int = 7) -> dict:
    return {"desk": desk, "deal": {"version": version, "number": number, "state": deal_state, "match": match}}


class Desk:
    """A restored desk: it holds ``held`` versions of each deal, answers keys it knows from its receipts."""

    def __init__(
        self, desk: str, held: dict[int, int], receipts: set[str] = frozenset(), refuse_at: int = -1
    ):
        self.desk, self.held, self.receipts, self.refuse_at = desk, dict(held), set(receipts), refuse_at
        self.posted: list[tuple[str, str | None]] = []

    def send(self, method: str, path: str, fields: dict | None, key: str | None):
        self.posted.append((path, key))
        parts = path.strip("/").split("/")
        if parts[0] == "match":
            self.held[99] = 0
            return 302, {}, "/deal/99/"
        deal = int(parts[1])
        if deal not in self.held:
            return 404, {}, ""
        number = 2 if deal == 99 else 1
        if method == "GET":  # the deal's state, as /deal/<id>/state/ answers it
            return 200, state(self.desk, self.held[deal], number), ""
        if parts[2] == "given_back":
            return 200, {"ok": True, "state": state(self.desk, self.held[deal], number)}, ""
        version = int(fields["version"])
        if key in self.receipts:
            return 200, {"ok": True, "state": state(self.desk, self.held[deal], number)}, ""
        if version != self.held[deal] or version == self.refuse_at:
            return (
                409,
                {"ok": False, "error": "stale", "state": state(self.desk, self.held[deal], number)},
                "",
            )
        self.held[deal] += 1
        self.receipts.add(key)
        return 200, {"ok": True, "state": state(self.desk, self.held[deal], number)}, ""


def phone_with_plays(n: int) -> Journal:
    journal = Journal()
    journal.observe(1, state("old", 0))
    for v in range(n):
        journal.gave(1, "play", {"cards": "SA", "version": v}, v, f"key-{v}", state("old", v + 1))
    return journal


def test_a_desk_that_names_another_identity_or_an_older_version_lacks_what_the_phone_gave():
    journal = phone_with_plays(3)
    assert not journal.observe(1, state("old", 3))
    assert journal.observe(1, state("new", 3)) and journal.observe(1, state("old", 2))


def test_the_give_back_sends_every_entry_in_order_with_its_first_key_and_the_desk_stores_each_once():
    journal = phone_with_plays(5)
    desk = Desk("new", {1: 2}, receipts={"key-0", "key-1"})
    deal_id, answer = give_back(journal, 1, "new", desk.send)
    plays = [key for path, key in desk.posted if path.endswith("/play/")]
    assert plays == [f"key-{v}" for v in range(5)] and desk.held[1] == 5
    assert deal_id == 1 and answer is not None and journal.of(1).desk == "new" and journal.of(1).told == 5
    assert desk.posted[-1][0] == "/deal/1/given_back/"


def test_an_entry_the_desk_refuses_ends_the_give_back_and_leaves_the_desks_own_changes_standing():
    journal = phone_with_plays(4)
    desk = Desk("new", {1: 2}, receipts={"key-0", "key-1"}, refuse_at=2)
    give_back(journal, 1, "new", desk.send)
    assert desk.held[1] == 2 and [g.key for g in journal.of(1).given] == ["key-0", "key-1"]


def test_a_deal_the_desk_lacks_is_started_again_from_its_first_key_after_the_deal_before_it():
    journal = phone_with_plays(2)
    journal.started(5, 7, "start-key", {"trump": "S", "next_deal": "2"})
    journal.observe(5, state("old", 0, number=2))
    journal.gave(5, "play", {"cards": "HA", "version": 0}, 0, "key-b", state("old", 1, number=2))
    desk = Desk("new", {1: 0})
    deal_id, answer = give_back(journal, 5, "new", desk.send)
    order = [path for path, _key in desk.posted if not path.endswith("/state/")]
    assert order.index("/deal/1/given_back/") < order.index("/match/7/deal/new/")
    assert ("/match/7/deal/new/", "start-key") in desk.posted and ("/deal/99/play/", "key-b") in desk.posted
    assert deal_id == 99 and 99 in journal.deals and 5 not in journal.deals


def test_a_phone_keeps_the_journals_of_its_newest_confirmed_deals_only():
    journal = Journal()
    for deal in range(KEEP_CONFIRMED + 3):
        journal.observe(deal, state("d", 1, number=deal + 1, deal_state="confirmed"))
    journal.observe(100, state("d", 1, number=100))
    confirmed = [d for d, r in journal.deals.items() if r.confirmed]
    assert len(confirmed) == KEEP_CONFIRMED and 100 in journal.deals
