"""Playing simulated deals through the recording service, as the judge's page does."""

from __future__ import annotations

import uuid

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry, records
from referee.table.recording import play as plays
from rules.simulate import simulate_deal
from tests.action_urls import deal_url
from tests.databases import module_transaction  # noqa: F401 - the table tests' scenes use it from here
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import create_director
from tournaments.models import Deal, Match, Pair, Penalty, Play, Player, Round, Tournament, Trick
from tournaments.scoring.settlement import violation_key
from tournaments.scoring.snapshot import Snapshot


def record_play(deal, user, *, cards: str, version: int | None, **kwargs) -> Snapshot:
    """One play checked and saved as the trick-entry page's action does (``plan_play``, then ``save_play`` in a
    transaction): the deal as saved, with the play added and the engine's verdict on it."""
    planned = plays.check(deal, user, cards=cards, version=version, **kwargs)
    with transaction.atomic():
        return plays.save(planned)


def play_through_service(deal, user, record, *, upto: int | None = None) -> None:
    """Enter a simulated record's plays one by one, as the judge's page does."""
    for trick in record["tricks"][:upto]:
        for j, (seat, cards) in enumerate(trick["plays"]):
            throw = None
            if j == 0 and trick.get("throw"):
                t = trick["throw"]
                throw = plays.Throw(t["attempted"], t["challenger"], t["shown"])
            deal.refresh_from_db()
            record_play(deal, user, cards=cards, seat=seat, version=deal.version, throw=throw)


def posted_plays(record: dict):
    """Each play of ``record`` as the trick-entry page posts it: cards, seat and a lead's challenged throw."""
    for trick in record["tricks"]:
        for j, (seat, cards) in enumerate(trick["plays"]):
            fields = {"cards": cards, "seat": seat}
            if j == 0 and trick.get("throw"):
                fields.update({f"throw_{k}": v for k, v in trick["throw"].items()})
            yield fields


def simulated(deal, seed: int = 1) -> dict:
    """A complete legal record for the deal as started (its banker, level and trump)."""
    return simulate_deal(
        deal.match.round.tournament.ruleset, banker=deal.banker, level=deal.level, trump=deal.trump, seed=seed
    )


def with_a_revoke(record: dict, banker_side_at_fault: bool | None = None) -> tuple[dict, str, int] | None:
    """The record with one follower's cards of two single-card tricks swapped, so that the follower revokes
    in the earlier trick (a card of the led suit played later) and every trick keeps its winner; with the
    seat at fault and the trick (0-based), or None when no such swap exists."""
    import copy

    from rules.judge import judge
    from rules.seats import side_of

    plain = judge(record)
    winners = [t.winner for t in plain.tricks]
    tricks = record["tricks"]
    for i, early in enumerate(tricks):
        for j in range(i + 1, len(tricks)):
            for k in range(1, 4):
                seat, cards = early["plays"][k]
                if banker_side_at_fault is not None and (side_of(seat) == side_of(record["banker"])) != (
                    banker_side_at_fault
                ):
                    continue
                later = dict(tricks[j]["plays"]).get(seat)
                if len(cards.split()) != 1 or not later or len(later.split()) != 1:
                    continue
                candidate = copy.deepcopy(record)
                plays_i, plays_j = candidate["tricks"][i]["plays"], candidate["tricks"][j]["plays"]
                plays_i[k][1] = later
                m = next(n for n, (s, _c) in enumerate(plays_j) if s == seat)
                plays_j[m][1] = cards
                verdict = judge(candidate)
                keys = {(v.trick, v.seat, v.code) for v in verdict.violations}
                if keys == {(i, seat, "revoke_suit")} and [t.winner for t in verdict.tricks] == winners:
                    return candidate, seat, i
    return None


def flipping_revoke(ruleset="standard", banker="N", level="2", trump="S") -> tuple[dict, str, int]:
    """A complete record with one revoke whose penalty (lose the deal) changes the deal's result: by the banker
    side when the banker side holds without it, else by an attacker. With the seat at fault and its trick."""
    from rules.judge import judge
    from rules.simulate import simulate_deal

    for seed in range(100):
        record = simulate_deal(ruleset, banker=banker, level=level, trump=trump, seed=seed)
        holds = judge(record).result["outcome"] == "banker_holds"
        found = with_a_revoke(record, banker_side_at_fault=holds)
        if found is not None:
            return found
    raise AssertionError("no simulated deal takes a revoke")


def quick_fields(match, **extra) -> dict:
    """A valid quick-entry form for the match's next deal (85 points, 10 in the kitty), with ``extra`` over it."""
    return {
        "trump": "S",
        "declarer": "N",
        "points": 85,
        "kitty_points": 10,
        "last_lead": "pair",
        "attackers_won_last": "on",
        "next_deal": match.deals.count() + 1,
        **extra,
    }


# The preset of each deck count (RULES §11): tests of the site are parametrised over ``DECKS``.
DECK_PRESETS = {1: "one-deck", 2: "standard", 3: "three-deck", 4: "four-deck"}
DECKS = sorted(DECK_PRESETS)


def deck_ruleset(decks: int) -> str:
    """The ruleset a tournament of ``decks`` decks stores: the preset of that many decks."""
    return DECK_PRESETS[decks]


JSON = {"HTTP_ACCEPT": "application/json"}


def as_user(user, **kwargs) -> Client:
    """A client signed in as ``user`` (None: anonymous)."""
    c = Client(**kwargs)
    if user is not None:
        c.force_login(user)
    return c


def key() -> str:
    return str(uuid.uuid4())


def act(client, deal, action, **fields):
    return client.post(deal_url(deal.pk, action), fields, **JSON)


def allow_quick(match) -> Match:
    t = match.round.tournament
    t.quick_entry_allowed = True
    t.save()
    return match


def simulated_first(match) -> dict:
    """A simulated first deal (North banker at level 2) under the match's tournament's ruleset."""
    record = simulate_deal("standard", banker="N", level="2", seed=11)
    record["ruleset"] = match.round.tournament.ruleset
    return record


def confirmed_deal(match, director) -> Deal:
    """The first deal recorded whole and confirmed by ``director``."""
    return records.record_deal(match, simulated_first(match), director)


def open_link(token: str, client: Client | None = None, **headers):
    """A device (a fresh client, reading English) opening a table's link: the response, and the client."""
    client = client or Client()
    client.cookies["django_language"] = "en"
    return client.get(reverse("table-link", args=[token]), **headers), client


def submitted_by(match, account) -> Deal:
    """A deal entered as totals and submitted by ``account`` (a table's device, say)."""
    from referee.table.recording import quick

    allow_quick(match)
    fields = quick_fields(match)
    return quick.quick_entry(
        match,
        account,
        trump=fields["trump"],
        points=fields["points"],
        kitty_points=fields["kitty_points"],
        last_lead=fields["last_lead"],
        attackers_won_last=True,
        declarer="N",
    )


class Clock:
    """``time.time`` made to stand still and moved on by the test (the throttles' windows, the file cache's expiry)."""

    def __init__(self, monkeypatch) -> None:
        import time

        self.at = time.time()
        monkeypatch.setattr(time, "time", lambda: self.at)

    def advance(self, seconds: float) -> None:
        self.at += seconds


def table_judge(username: str):
    """A judge's account (the conftest's ``make_judge``, for a scene built outside a test)."""
    user = get_user_model().objects.create_user(username=username, password="judge-pass-1")
    add_to_group(user, JUDGE_GROUP)
    return user


def one_match(slug: str, judge) -> Match:
    """The conftest's ``match`` (a standard tournament, its published round 1, two pairs), for a scene."""
    t = Tournament.objects.create(name="春季赛", slug=slug, ruleset={"preset": "standard"})
    rnd = Round.objects.create(tournament=t, number=1, state=Round.State.PUBLISHED)
    ns, ew = (
        Pair.objects.create(
            tournament=t,
            name=f"队{n}",
            player1=Player.objects.create(name=f"甲{n}"),
            player2=Player.objects.create(name=f"乙{n}"),
            seed=n,
        )
        for n in (1, 2)
    )
    return Match.objects.create(round=rnd, table=1, pair_ns=ns, pair_ew=ew, judge=judge)


def revoked_deal(match: Match, judge) -> tuple[Deal, str, dict]:
    """A complete deal with one revoke proven during entry, every play and the kitty recorded by ``judge``: the
    deal, its violation's key and its record."""
    record, seat, trick = flipping_revoke(banker="N", level="2", trump="S")
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    play_through_service(deal, judge, record)
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
    deal.refresh_from_db()
    return deal, violation_key(trick, seat, "revoke_suit"), record


def revoked_scene() -> dict:
    """``revoked_deal`` at a table of its own, with a director beside it (names apart from the conftest's): the
    ids of the deal, its judge ``scorer`` and the director ``td``, the violation's key and the record."""
    td, scorer = create_director("revoke-td", "director-pass-1"), table_judge("scorer")
    deal, key, record = revoked_deal(one_match("revoked", scorer), scorer)
    return {"deal": deal.pk, "key": key, "record": record, "scorer": scorer.pk, "td": td.pk}


def stored_nothing(match) -> bool:
    """No deal, trick, play or penalty of the match, nor a history row of one, and the match not started (a
    refused record stores nothing)."""
    match.refresh_from_db()
    of_match = {Deal: "match", Trick: "deal__match", Play: "trick__deal__match", Penalty: "deal__match"}
    stored = (
        m.objects.filter(**{p: match}).exists() or m.history.filter(**{p: match}).exists()
        for m, p in of_match.items()
    )
    return match.started_at is None and not any(stored)
