"""One site, many organisers: every desk page and write of one organisation's tournament is refused to the admins,
directors and scorers of another; scorers run results, the board and the calls of their own, and set nothing up;
an organisation's members are invited by a one-time link and managed by its admins."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.databases import module_transaction
from tests.table.helpers import confirmed_deal
from tournaments.competition import access
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import seat_table
from tournaments.models import (
    Adjustment,
    Deal,
    Invitation,
    Match,
    Membership,
    Organisation,
    Role,
    Round,
    Series,
    TableCall,
    Tournament,
)
from tournaments.organisations import services

ROLES = [Role.ADMIN, Role.DIRECTOR, Role.SCORER]
# The pages a scorer of the tournament's own organisation uses: results, the board, the queue and the calls.
SCORING = {
    "desk-board",
    "desk-board-rows",
    "desk-queue",
    "desk-calls",
    "desk-calls-live",
    "desk-call",
    "desk-call-on-the-way",
    "desk-call-resolve",
}


def desk_patterns() -> list[tuple[str, str]]:
    """Every named URL of one tournament's desk (``t/<slug>/desk/…``), with its route."""
    found = []

    def walk(patterns, prefix: str = "") -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern) and entry.name:
                route = prefix + str(entry.pattern)
                if route.startswith("t/<slug:slug>/desk/"):
                    found.append((entry.name, route))

    walk(get_resolver().url_patterns)
    return sorted(set(found))


DESK = desk_patterns()


def test_the_desk_has_the_pages_this_table_checks():
    assert len(DESK) > 50 and SCORING <= {name for name, _route in DESK}


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker) -> Iterator[dict]:
    """Two organisations, each with a tournament (a published round, a match with a confirmed deal, a call and
    an adjustment) and one member in each role: built once per module (``module_transaction``), each test in its
    own savepoint; the rows' ids."""
    with module_transaction(django_db_blocker):
        site_admin = get_user_model().objects.create_superuser("site-admin", password="site-admin-pass")
        made = {}
        for key in ("a", "b"):
            organisation = Organisation.objects.create(name=f"俱乐部{key}", slug=f"club-{key}")
            tournament = Tournament.objects.create(
                name=f"赛事{key}",
                slug=f"event-{key}",
                ruleset={"preset": "standard"},
                organisation=organisation,
            )
            rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
            judge = get_user_model().objects.create_user(f"judge-{key}", password="judge-pass-1")
            add_to_group(judge, JUDGE_GROUP)
            match = seat_table(rnd, 1, judge, names=(f"南北{key}", f"东西{key}"))
            deal = confirmed_deal(match, site_admin)
            call = TableCall.objects.create(match=match, reason=TableCall.Reason.OTHER)
            adjustment = Adjustment.objects.create(
                match=match, kind=Adjustment.Kind.VOID_DEAL, deal=deal, reason="—"
            )
            members = {}
            for role in ROLES:
                user = get_user_model().objects.create_user(f"{role}-{key}", password="member-pass-1")
                Membership.objects.create(organisation=organisation, user=user, role=role)
                members[role] = user.pk
            series = Series.objects.create(name=f"系列{key}", slug=f"series-{key}", organisation=organisation)
            made[key] = {
                "organisation": (Organisation, organisation.pk),
                "tournament": (Tournament, tournament.pk),
                "match": (Match, match.pk),
                "deal": (Deal, deal.pk),
                "call": (TableCall, call.pk),
                "adjustment": (Adjustment, adjustment.pk),
                "series": (Series, series.pk),
                "members": members,
            }
        yield made


@pytest.fixture
def two_organisations(db, built) -> dict:
    """``built``'s rows read afresh for each test (what one test changes in its objects never reaches the next)."""
    users = get_user_model().objects.in_bulk(
        [pk for side in built.values() for pk in side["members"].values()]
    )
    return {
        key: {
            **{name: row[0].objects.get(pk=row[1]) for name, row in side.items() if name != "members"},
            "members": {role: users[pk] for role, pk in side["members"].items()},
        }
        for key, side in built.items()
    }


def url_of(route: str, name: str, scene: dict) -> str:
    """The route filled with the scene's objects (their own ids, so a view that looks them up finds them)."""
    values = {
        "slug": scene["tournament"].slug,
        "number": 1,
        "match_id": scene["match"].pk,
        "pair_id": scene["match"].pair_ns_id,
        "call_id": scene["call"].pk,
        "adjustment_id": scene["adjustment"].pk,
        "user_id": scene["match"].judge_id,
        "team_id": 1,
        "fixture_id": 1,
        "bye_id": 1,
        "kiosk_id": 1,
        "score_id": 1,
        "name": "referee-20261205-103500.sqlite3",
        "fmt": "csv",
    }
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    return reverse(name, kwargs={n: values[n] for n in names})


@pytest.mark.parametrize("role", ROLES)
def test_no_member_of_one_organisation_opens_or_writes_any_desk_page_of_anothers(two_organisations, role):
    client = Client()
    client.force_login(two_organisations["a"]["members"][role])
    other = two_organisations["b"]
    opened = []
    for name, route in DESK:
        url = url_of(route, name, other)
        for method in ("get", "post"):
            status = getattr(client, method)(url).status_code
            if status not in (403, 404, 405):
                opened.append(f"{method.upper()} {name} → {status}")
    assert opened == []


@pytest.mark.parametrize("role", ROLES)
def test_no_member_of_one_organisation_records_reopens_or_adjusts_anothers_matches(two_organisations, role):
    client = Client()
    client.force_login(two_organisations["a"]["members"][role])
    other = two_organisations["b"]
    match, deal = other["match"], other["deal"]
    writes = [
        reverse("new_deal", args=[match.pk]),
        reverse("quick_entry", args=[match.pk]),
        reverse("deal-reopen", args=[deal.pk]),
        reverse("match-forfeit", args=[match.pk]),
    ]
    for url in writes:  # refused: 403, or the table's page again with the refusal (an action's answer)
        assert client.post(url, {"side": "NS", "note": "x"}).status_code in (302, 403, 404, 405), url
    deal.refresh_from_db()
    match.refresh_from_db()
    assert deal.state == deal.State.CONFIRMED and match.deals.count() == 1 and not match.forfeited_by
    assert not access.can_record(two_organisations["a"]["members"][role], match)


# A backup is the whole site's database (every organisation's events, the accounts' password hashes): only the
# site's own admin downloads one (docs/running-the-day.md), so an organisation's directors are refused it.
SITE_ADMIN_ONLY = ["desk-backup-download"]


@pytest.mark.parametrize("role", [Role.ADMIN, Role.DIRECTOR])
def test_directors_open_every_desk_page_of_their_own_organisation(two_organisations, role):
    client = Client()
    client.force_login(two_organisations["a"]["members"][role])
    own = two_organisations["a"]
    refused = []
    for name, route in DESK:
        if client.get(url_of(route, name, own)).status_code == 403:
            refused.append(name)
    assert refused == SITE_ADMIN_ONLY


def test_a_scorer_runs_results_the_board_and_the_calls_and_sets_nothing_up(two_organisations):
    scorer = two_organisations["a"]["members"][Role.SCORER]
    own = two_organisations["a"]
    client = Client()
    client.force_login(scorer)
    allowed = {name for name, route in DESK if client.get(url_of(route, name, own)).status_code != 403}
    assert {
        name for name, _route in DESK if name in SCORING and not name.endswith(("resolve", "on-the-way"))
    } <= (allowed)
    assert not allowed & {
        "desk-settings",
        "desk-delete-tournament",
        "desk-import",
        "desk-pairs",
        "desk-directors",
    }
    assert access.can_record(scorer, own["match"]) and access.can_confirm(scorer, own["deal"])
    assert not access.can_reopen(scorer, own["tournament"])


def test_series_of_another_organisation_are_refused_at_the_desk(two_organisations):
    client = Client()
    client.force_login(two_organisations["a"]["members"][Role.DIRECTOR])
    other = two_organisations["b"]["series"]
    assert client.get(reverse("desk-series-edit", args=[other.slug])).status_code == 403
    assert client.get(reverse("desk-series-workbook", args=[other.slug])).status_code == 403
    listed = client.get(reverse("desk-series")).content.decode()
    assert "系列a" in listed and "系列b" not in listed


def test_a_hidden_tournament_is_seen_by_its_own_organisation_alone(two_organisations):
    for key in ("a", "b"):
        Tournament.objects.filter(pk=two_organisations[key]["tournament"].pk).update(is_public=False)
    client = Client()
    client.force_login(two_organisations["a"]["members"][Role.SCORER])
    assert client.get(reverse("tournament", args=["event-a"])).status_code == 200
    assert client.get(reverse("tournament", args=["event-b"])).status_code == 404
    home = client.get(reverse("home")).content.decode()
    assert "赛事a" in home and "赛事b" not in home


def test_a_new_tournament_belongs_to_its_directors_organisation(two_organisations):
    client = Client()
    director = two_organisations["b"]["members"][Role.DIRECTOR]
    client.force_login(director)
    page = client.get(reverse("tournament-new"))
    assert page.status_code == 200 and 'name="organisation"' not in page.content.decode()  # one: no question
    assert services.owner_of_new(director) == two_organisations["b"]["organisation"]


def test_the_site_admin_may_do_anything_anywhere(two_organisations):
    admin = get_user_model().objects.get(username="site-admin")
    assert all(access.directs(admin, two_organisations[k]["tournament"]) for k in ("a", "b"))


# --- members and invitations -----------------------------------------------------------------------------


def test_an_invitation_link_makes_a_new_account_a_member_once(two_organisations):
    organisation = two_organisations["a"]["organisation"]
    admin = two_organisations["a"]["members"][Role.ADMIN]
    invitation = services.invite(organisation, admin, Role.DIRECTOR, "王主任")
    visitor = Client()
    url = reverse("invitation", args=[invitation.token])
    assert visitor.get(url).status_code == 200
    joined = visitor.post(
        url, {"username": "wang", "password1": "Tractor-2026-x", "password2": "Tractor-2026-x"}
    )
    assert joined.status_code == 302
    wang = get_user_model().objects.get(username="wang")
    assert Membership.objects.get(user=wang).role == Role.DIRECTOR
    assert access.directs(wang, two_organisations["a"]["tournament"])
    assert not access.directs(wang, two_organisations["b"]["tournament"])
    again = Client().post(
        url, {"username": "li", "password1": "Tractor-2026-y", "password2": "Tractor-2026-y"}
    )
    assert again.status_code == 410 and not get_user_model().objects.filter(username="li").exists()


def test_a_signed_in_user_joins_by_the_link_and_keeps_a_higher_role(two_organisations):
    organisation = two_organisations["a"]["organisation"]
    admin = two_organisations["a"]["members"][Role.ADMIN]
    outsider = two_organisations["b"]["members"][Role.SCORER]
    client = Client()
    client.force_login(outsider)
    link = reverse("invitation", args=[services.invite(organisation, admin, Role.SCORER).token])
    assert client.post(link).status_code == 302
    assert Membership.objects.get(user=outsider, organisation=organisation).role == Role.SCORER
    director_link = reverse("invitation", args=[services.invite(organisation, admin, Role.DIRECTOR).token])
    client.post(director_link)
    scorer_link = reverse("invitation", args=[services.invite(organisation, admin, Role.SCORER).token])
    client.post(scorer_link)
    assert Membership.objects.get(user=outsider, organisation=organisation).role == Role.DIRECTOR


def test_a_withdrawn_invitation_link_admits_nobody(two_organisations):
    organisation = two_organisations["a"]["organisation"]
    admin = two_organisations["a"]["members"][Role.ADMIN]
    invitation = services.invite(organisation, admin, Role.ADMIN)
    services.revoke(invitation, admin)
    response = Client().post(
        reverse("invitation", args=[invitation.token]),
        {"username": "zhao", "password1": "Tractor-2026-z", "password2": "Tractor-2026-z"},
    )
    assert response.status_code == 410 and not get_user_model().objects.filter(username="zhao").exists()


@pytest.mark.parametrize("role", [Role.DIRECTOR, Role.SCORER])
def test_only_an_organisations_admins_invite_and_remove_its_members(two_organisations, role):
    own = two_organisations["a"]
    member = own["members"][role]
    client = Client()
    client.force_login(member)
    slug = own["organisation"].slug
    client.post(reverse("organisation-invite", args=[slug]), {"role": Role.ADMIN})
    assert not Invitation.objects.exists()
    victim = Membership.objects.get(user=own["members"][Role.ADMIN])
    client.post(reverse("organisation-member", args=[slug, victim.pk]), {"remove": "1"})
    assert Membership.objects.filter(pk=victim.pk).exists()


def test_another_organisations_admin_cannot_see_or_manage_its_members(two_organisations):
    client = Client()
    client.force_login(two_organisations["a"]["members"][Role.ADMIN])
    other = two_organisations["b"]
    slug = other["organisation"].slug
    assert client.get(reverse("organisation-members", args=[slug])).status_code == 403
    target = Membership.objects.get(user=other["members"][Role.SCORER])
    assert (
        client.post(reverse("organisation-member", args=[slug, target.pk]), {"remove": "1"}).status_code
        == 403
    )
    assert client.post(reverse("organisation-invite", args=[slug]), {"role": Role.ADMIN}).status_code == 403
    assert Membership.objects.filter(pk=target.pk).exists() and not Invitation.objects.exists()


def test_an_organisation_keeps_its_last_admin(two_organisations):
    own = two_organisations["a"]
    admin = own["members"][Role.ADMIN]
    only = Membership.objects.get(user=admin)
    with pytest.raises(services.OrganisationError):
        services.remove(only, admin)
    with pytest.raises(services.OrganisationError):
        services.set_role(only, admin, Role.SCORER)


def test_the_organisations_page_lists_its_public_events(two_organisations):
    page = Client().get(reverse("organisation", args=["club-a"])).content.decode()
    assert "赛事a" in page and "赛事b" not in page
