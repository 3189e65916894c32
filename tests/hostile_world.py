"""The tournament the URL sweep (``tests/test_hostile_urls.py``) attacks: built once per test module through the
site's own services, with every kind of row a URL can name.

A public tournament with a published round (a match with a confirmed, a submitted and an open deal, a fresh
match, a forfeited one, a bye) and a draft round; pairs with and without a captain's account, one withdrawn;
active and deactivated judges; and a hidden second tournament with its own pair, captain, match and deal, for
the addresses that mix one tournament's slug with another's rows. ``fingerprint()`` sums up what it holds: what
a refused request must leave as it was; ``BUILDERS`` gives each URL parameter its real values in it and its
hostile ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from referee.table.recording import deal_entry, quick, records
from rules.simulate import simulate_deal
from tournaments.adjusted import awarding
from tournaments.calls.services import raise_call
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import create_director
from tournaments.models import (
    Adjustment,
    Bye,
    Deal,
    Match,
    Membership,
    Organisation,
    Pair,
    Penalty,
    Play,
    Player,
    Role,
    Round,
    TableCall,
    Team,
    TeamEvent,
    TeamMatch,
    TeamPair,
    Tournament,
    Trick,
)
from tournaments.organisations import services as organisation_services
from tournaments.scoring import corrections
from tournaments.scoring.fold import forfeit_match
from tournaments.season.services import save_series

PASSWORD = "hostile-pass-1"


@dataclass
class World:
    director: object
    judge: object
    idle_judge: object  # deactivated
    captain: object  # the account of the played match's first pair's captain
    tournament: Tournament
    other: Tournament  # hidden, with rows of its own
    pairs: list[Pair]  # [captained, plain, withdrawn, …]
    matches: list[Match]  # [played, fresh, forfeited, draft]
    deals: dict[str, Deal]  # by state: confirmed, submitted, recording
    rounds: list[int]  # [published, draft]
    other_pair: Pair
    other_match: Match
    other_deal: Deal
    byes: list[Bye]  # the published round's
    other_bye: Bye
    extra: dict = field(default_factory=dict)


def account(username: str, *groups: str):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD, first_name=username)
    for group in groups:
        add_to_group(user, group)
    return user


def pair(tournament: Tournament, n: int, **kw) -> Pair:
    return Pair.objects.create(
        tournament=tournament,
        name=f"队{n}",
        player1=Player.objects.create(name=f"甲{n}"),
        player2=Player.objects.create(name=f"乙{n}"),
        seed=n,
        **kw,
    )


def confirmed_deal(match: Match, director) -> Deal:
    record = simulate_deal(match.round.tournament.ruleset, banker="N", level="2", seed=1)
    return records.record_deal(match, record, director)


def team_rows(t: Tournament, pairs: list[Pair], rnd: Round) -> dict:
    """The tournament is a team event too: two teams of the world's pairs and a fixture with no line-up yet."""
    TeamEvent.objects.create(tournament=t, tables=2)
    home, away = (
        Team.objects.create(tournament=t, name="甲队"),
        Team.objects.create(tournament=t, name="乙队"),
    )
    for team, (a, b) in ((home, pairs[:2]), (away, pairs[3:5])):
        TeamPair.objects.create(team=team, pair=a, order=1)
        TeamPair.objects.create(team=team, pair=b, order=2)
    fixture = TeamMatch.objects.create(round=rnd, number=1, home=home, away=away)
    return {"home": home, "away": away, "fixture": fixture}


def build_world() -> World:
    director = create_director("td", PASSWORD)
    judge = account("judge", JUDGE_GROUP)
    idle = account("idle", JUDGE_GROUP)
    idle.is_active = False
    idle.save()
    captain = account("captain")

    t = Tournament.objects.create(
        name="春季赛", slug="spring", ruleset={"preset": "standard"}, quick_entry_allowed=True
    )
    pairs = [pair(t, n) for n in range(1, 9)]
    pairs[0].captain = captain
    pairs[0].save()
    r1 = Round.objects.create(tournament=t, number=1, state=Round.State.PUBLISHED)
    played = Match.objects.create(round=r1, table=1, pair_ns=pairs[0], pair_ew=pairs[1], judge=judge)
    fresh = Match.objects.create(round=r1, table=2, pair_ns=pairs[3], pair_ew=pairs[4], judge=judge)
    forfeited = Match.objects.create(round=r1, table=3, pair_ns=pairs[5], pair_ew=pairs[2], judge=judge)
    bye = Bye.objects.create(round=r1, pair=pairs[6])
    r2 = Round.objects.create(tournament=t, number=2, state=Round.State.DRAFT)
    draft = Match.objects.create(round=r2, table=1, pair_ns=pairs[0], pair_ew=pairs[3], judge=judge)

    confirmed = confirmed_deal(played, director)
    played.refresh_from_db()
    submitted = quick.quick_entry(
        played, judge, trump="S", points=40, kitty_points=0, last_lead="single", attackers_won_last=False
    )
    played.refresh_from_db()
    recording = deal_entry.start_deal(played, judge, trump="H")
    corrections.add_penalty(recording, judge, seat="W", code="misplay", trick=None, version=recording.version)
    forfeit_match(forfeited, director, side="EW")
    pairs[2].withdrawn = True
    pairs[2].save()

    other = Tournament.objects.create(
        name="秋季赛", slug="autumn", ruleset={"preset": "standard"}, is_public=False
    )
    o1, o2 = pair(other, 1), pair(other, 2)
    o1.captain = account("captain2")
    o1.save()
    o_round = Round.objects.create(tournament=other, number=3, state=Round.State.PUBLISHED)
    o_match = Match.objects.create(round=o_round, table=1, pair_ns=o1, pair_ew=o2, judge=judge)
    o_deal = confirmed_deal(o_match, director)
    o_bye = Bye.objects.create(round=o_round, pair=pair(other, 3))

    call = raise_call(played, judge, reason="revoke", note="东家说")  # open: the desk's call pages have one
    other_call = raise_call(o_match, director, reason="other")
    withdrawn = awarding.award(fresh, director, kind="both_lose", reason="试")  # then withdrawn: fresh again
    awarding.withdraw(withdrawn, director)
    other_adjustment = awarding.award(
        o_match, director, kind="levels", level_ns="5", level_ew="3", reason="试"
    )
    for row in (confirmed, submitted, recording):
        row.refresh_from_db()
    teams = team_rows(t, pairs, r1)
    other_team = Team.objects.create(tournament=other, name="秋队")
    other_fixture = TeamMatch.objects.create(
        round=o_round, number=1, home=other_team, away=Team.objects.create(tournament=other, name="秋二队")
    )
    series = save_series("春季联赛", [25, 18, 15], 2, True, [t, other])
    hidden_series = save_series("内部联赛", [10, 5], None, False, [other])
    club = Organisation.objects.create(name="春季俱乐部", slug="spring-club")
    other_club = Organisation.objects.create(name="秋季俱乐部", slug="autumn-club")
    Tournament.objects.filter(pk=t.pk).update(organisation=club)
    Tournament.objects.filter(pk=other.pk).update(organisation=other_club)
    t.organisation, other.organisation = club, other_club
    membership = Membership.objects.create(organisation=club, user=account("scorer"), role=Role.SCORER)
    other_membership = Membership.objects.create(
        organisation=other_club, user=account("scorer2"), role=Role.SCORER
    )
    invitation = organisation_services.invite(club, director, Role.DIRECTOR)
    other_invitation = organisation_services.invite(other_club, director, Role.ADMIN)
    return World(
        director=director,
        judge=judge,
        idle_judge=idle,
        captain=captain,
        tournament=t,
        other=other,
        pairs=pairs,
        matches=[played, fresh, forfeited, draft],
        deals={"confirmed": confirmed, "submitted": submitted, "recording": recording},
        rounds=[1, 2],
        other_pair=o1,
        other_match=o_match,
        other_deal=o_deal,
        byes=[bye],
        other_bye=o_bye,
        extra={
            "series": series,
            "hidden_series": hidden_series,
            "call": call,
            "other_call": other_call,
            "adjustment": withdrawn,
            "other_adjustment": other_adjustment,
            "teams": teams,
            "other_team": other_team,
            "other_fixture": other_fixture,
            "organisation": club,
            "other_organisation": other_club,
            "membership": membership,
            "other_membership": other_membership,
            "invitation": invitation,
            "other_invitation": other_invitation,
        },
    )


# ------------------------------------------------------------------ the arguments of each URL parameter

MISSING = "987654"
# Past 64 bits is one path whatever the number (10**30 went where 2**63 did): the converter's int, then the lookup.
OVERFLOW = ["0", str(2**63)]


def admin_model(route):
    """The model an admin route names (``admin/<app>/<model>/…``), or None."""
    parts = route.route.split("/")
    try:
        return apps.get_model(parts[1], parts[2]) if parts[0] == "admin" and len(parts) > 2 else None
    except (LookupError, ValueError):
        return None


def object_ids(world: World, route) -> tuple[list[str], list[str]]:
    model = admin_model(route)
    real = (model.objects.order_by("pk").first() if model else None) or world.tournament
    return [str(real.pk)], ["abc", "%00", "%FF", "1.5", str(2**63), MISSING]


def version_ids(world: World, route) -> tuple[list[str], list[str]]:
    model = admin_model(route)
    history = model.history.order_by("history_id").first() if model else None
    return [str(history.history_id) if history else "1"], ["abc", "%00", str(2**63), MISSING]


def ours_and_theirs(world: World, name: str) -> tuple[list[str], list[str]]:
    """An object of the world's extras by its id, and the other tournament's (``other_<name>``), absent and too large
    as the hostile ones."""
    return [str(world.extra[name].pk)], [str(world.extra[f"other_{name}"].pk), MISSING, *OVERFLOW]


# Each parameter name: its real values (the world's) and its hostile ones (absent, another tournament's, too
# large for the database), as URL-safe text.
BUILDERS = {
    "slug": lambda w, r: (
        ([w.extra["organisation"].slug], ["nope", w.extra["other_organisation"].slug, "a" * 300])
        if r.route.startswith("o/")
        else ([w.tournament.slug], ["nope", w.other.slug, "a" * 300])
    ),
    "membership_id": lambda w, r: ours_and_theirs(w, "membership"),
    "invitation_id": lambda w, r: ours_and_theirs(w, "invitation"),
    "pair_id": lambda w, r: ([str(p.pk) for p in w.pairs[:3]], [str(w.other_pair.pk), MISSING, *OVERFLOW]),
    "match_id": lambda w, r: ([str(m.pk) for m in w.matches], [str(w.other_match.pk), MISSING, *OVERFLOW]),
    "deal_id": lambda w, r: (
        [str(d.pk) for d in w.deals.values()],
        [str(w.other_deal.pk), MISSING, *OVERFLOW],
    ),
    "call_id": lambda w, r: ours_and_theirs(w, "call"),
    "adjustment_id": lambda w, r: ours_and_theirs(w, "adjustment"),
    # a duplicate's artificial score: the world's tournament is not a duplicate, so every id is refused there
    "score_id": lambda w, r: (["1"], [MISSING, *OVERFLOW]),
    "bye_id": lambda w, r: ([str(b.pk) for b in w.byes], [str(w.other_bye.pk), MISSING, *OVERFLOW]),
    "number": lambda w, r: ([str(n) for n in w.rounds], ["3", MISSING, "32768", *OVERFLOW]),
    "table": lambda w, r: (["1"], ["0", MISSING, "32768", *OVERFLOW]),  # a hall table (featured: live/)
    "user_id": lambda w, r: (
        [str(w.judge.pk), str(w.idle_judge.pk)],
        [str(w.director.pk), str(w.captain.pk), MISSING, *OVERFLOW],
    ),
    "series": lambda w, r: ([w.extra["series"].slug], ["nope", w.extra["hidden_series"].slug, "a" * 300]),
    "name": lambda w, r: (  # a backup's file name (tournaments/backup/files.py)
        ["referee-20261205-103512.sqlite3"],
        ["..", "referee-20261205-103512.sqlite3.json", "a" * 300, "referee-%00.sqlite3"],
    ),
    "player_id": lambda w, r: (
        [str(w.pairs[0].player1_id), str(w.other_pair.player1_id)],
        [MISSING, *OVERFLOW],
    ),
    "team_id": lambda w, r: (
        [str(w.extra["teams"]["home"].pk)],
        [str(w.extra["other_team"].pk), MISSING, *OVERFLOW],
    ),
    "fixture_id": lambda w, r: (
        [str(w.extra["teams"]["fixture"].pk)],
        [str(w.extra["other_fixture"].pk), MISSING, *OVERFLOW],
    ),
    "kiosk_id": lambda w, r: (["1"], [MISSING, *OVERFLOW]),
    "fmt": lambda w, r: (["csv", "xlsx"], ["exe", "%00", "%FF", "csv%20"]),
    # A table's link: no live one (it would sign the visitor's client in as the table's device).
    "token": lambda w, r: (
        [w.extra["invitation"].token] if r.route.startswith("invite/") else ["no-such-link-" + "x" * 30],
        ["a" * 300, "%00", "%FF", "-"],
    ),
    # The admin's.
    "object_id": object_ids,
    "id": lambda w, r: ([str(w.judge.pk)], ["abc", "%00", str(2**63), MISSING]),
    "version_id": version_ids,
    "content_type_id": lambda w, r: (
        [str(ContentType.objects.get_for_model(Tournament).pk)],
        ["abc", "%00", str(2**63), MISSING],
    ),
    "app_label": lambda w, r: (["tournaments", "auth"], []),
    "url": lambda w, r: (["nope/"], ["%00/", "%FF", "a" * 300]),
}


# ------------------------------------------------------------------ what a refused request must leave as it was

COUNTED = (Tournament, Pair, Player, Round, Match, Bye, Deal, Trick, Play)
# What a refused request must leave as it was, besides the counts: these columns of each row.
WATCHED = {
    Penalty: ("seat", "code", "note"),
    Deal: ("version", "state", "kitty"),
    Match: ("version", "state", "judge", "winner"),
    Pair: ("name", "seed", "withdrawn", "captain"),
    Tournament: ("name", "ruleset", "num_rounds", "finished_at"),
    Round: ("number", "state"),
    TableCall: ("state", "ruling", "penalty"),
    Adjustment: ("kind", "withdrawn_at", "reason"),
}


@cache
def fingerprint_queries() -> list[str]:
    """The counts in one query, then each watched table's columns in one raw query each: the check runs after
    every refused request of the sweep (thousands), where the ORM's querysets were a sixth of its time."""
    quote = connection.ops.quote_name
    counts = ", ".join(f"(SELECT COUNT(*) FROM {quote(m._meta.db_table)})" for m in COUNTED)
    queries = [f"SELECT {counts}"]
    for model, names in WATCHED.items():
        pk = quote(model._meta.pk.column)
        columns = ", ".join([pk, *(quote(model._meta.get_field(name).column) for name in names)])
        queries.append(f"SELECT {columns} FROM {quote(model._meta.db_table)} ORDER BY {pk}")
    return queries


def fingerprint() -> tuple:
    """What a refused request must leave as it was (a cheap summary of everything saved)."""
    with connection.cursor() as cursor:
        found = []
        for query in fingerprint_queries():
            cursor.execute(query)
            found.append(tuple(map(tuple, cursor.fetchall())))
        return tuple(found)
