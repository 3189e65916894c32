"""The admin keeps a match computed from its confirmed deals: computed fields read-only, deals and their parts
only read (never added, changed, deleted or reverted there)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.desk.helpers import deal
from tournaments.admin import MATCH_COMPUTED
from tournaments.models import Deal, Match, Penalty, Play, Trick


@pytest.fixture
def admin_client(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def recorded(match, judge):
    """A match with one confirmed deal, a trick, a play and a penalty."""
    d = deal(match, 1, "N", 40, "banker_holds", trump="H")
    trick = Trick.objects.create(deal=d, number=0)
    Play.objects.create(trick=trick, order=0, seat="N", cards="HA", recorded_by=judge)
    Penalty.objects.create(deal=d, seat="E", code="renege", recorded_by=judge)
    return match, d, trick


def change_url(obj) -> str:
    return reverse(f"admin:tournaments_{obj._meta.model_name}_change", args=[obj.pk])


@pytest.mark.django_db
def test_match_change_form_shows_the_computed_fields_read_only(admin_client, recorded):
    match, _deal, _trick = recorded
    html = admin_client.get(change_url(match)).content.decode()
    for name in ("level_ns", "level_ew", "banker", "winner", "ended_by", "state"):
        assert f'name="{name}"' not in html, name
    assert 'name="table"' in html and 'name="judge"' in html
    assert {"level_ns", "level_ew", "banker", "winner", "ended_by", "state"} <= set(MATCH_COMPUTED)


@pytest.mark.django_db
def test_posting_a_level_or_winner_to_the_match_changes_nothing_computed(admin_client, recorded):
    match, _deal, _trick = recorded
    data = {
        "round": match.round_id,
        "table": 7,
        "pair_ns": match.pair_ns_id,
        "pair_ew": match.pair_ew_id,
        "judge": match.judge_id,
        "level_ns": "A",
        "winner": match.pair_ns_id,
        "state": Match.State.FINISHED,
        "ended_by": Match.EndedBy.TARGET,
    }
    response = admin_client.post(change_url(match), data)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.table == 7  # the editable field is saved ...
    assert (match.level_ns, match.winner, match.state, match.ended_by) == (
        "2",
        None,
        "scheduled",
        "",
    )  # ... not these


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["deal", "trick", "penalty"])
def test_deals_tricks_and_penalties_are_only_read(admin_client, recorded, kind):
    match, d, trick = recorded
    obj = {"deal": d, "trick": trick, "penalty": d.penalties.get()}[kind]
    html = admin_client.get(change_url(obj)).content.decode()
    assert 'name="_save"' not in html and 'name="verdict"' not in html and 'name="code"' not in html
    assert admin_client.post(change_url(obj), {"banker": "E", "note": "x", "seat": "W"}).status_code == 403
    add = reverse(f"admin:tournaments_{kind}_add")
    assert admin_client.get(add).status_code == 403
    delete = reverse(f"admin:tournaments_{kind}_delete", args=[obj.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    obj.refresh_from_db()


@pytest.mark.django_db
def test_the_deal_and_its_parts_are_unchanged_after_the_refusals(admin_client, recorded):
    match, d, trick = recorded
    admin_client.post(change_url(d), {"banker": "E", "verdict": "{}"})
    admin_client.post(reverse("admin:tournaments_deal_delete", args=[d.pk]), {"post": "yes"})
    d.refresh_from_db()
    assert d.banker == "N" and d.verdict["result"]["outcome"] == "banker_holds"
    assert Deal.objects.count() == 1 and Play.objects.count() == 1 and Penalty.objects.count() == 1


@pytest.mark.django_db
def test_a_match_or_round_with_deals_cannot_be_deleted_here(admin_client, recorded):
    match, _deal, _trick = recorded
    url = reverse("admin:tournaments_match_delete", args=[match.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    url = reverse("admin:tournaments_round_delete", args=[match.round_id])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Match.objects.filter(pk=match.pk).exists() and Deal.objects.count() == 1


@pytest.mark.django_db
def test_the_history_cannot_revert_a_deal_a_match_or_a_pair(admin_client, recorded):
    match, d, _trick = recorded
    for obj in (d, match, match.pair_ns):
        record = obj.history.earliest()
        url = reverse(
            f"admin:tournaments_{obj._meta.model_name}_simple_history", args=[obj.pk, record.history_id]
        )
        assert admin_client.get(url).status_code == 200
        assert admin_client.post(url, {"table": 9, "banker": "E"}).status_code == 403


# ------------------------------------------------------------------ addresses and fields no id or JSON can be


@pytest.fixture
def hostile_admin(director):
    """The director's admin client, answering a crash with its 500 as a browser sees it."""
    c = Client(raise_request_exception=False)
    c.force_login(director)
    c.cookies["django_language"] = "en"
    return c


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["abc", "1.5", "%00", "%FF", str(2**63), "9" * 30])
def test_a_history_address_naming_no_id_is_not_found(hostile_admin, recorded, bad):
    """simple-history's pages looked the address up as it was: a ValueError (a 500) for anything but digits."""
    match, _deal, _trick = recorded
    version = match.history.earliest().history_id
    for url in (
        f"/admin/tournaments/match/{bad}/history/",
        f"/admin/tournaments/match/{bad}/history/{version}/",
        f"/admin/tournaments/match/{match.pk}/history/{bad}/",
    ):
        assert hostile_admin.get(url).status_code == 404, url
    assert hostile_admin.get(f"/admin/tournaments/match/{match.pk}/history/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["change", "delete"])
def test_an_empty_to_field_is_no_field_on_every_admin_page(hostile_admin, recorded, director, page):
    """Django looked up a field named '' (a 500); auth's and axes' pages included."""
    match, _deal, _trick = recorded
    for obj in (match, match.round.tournament, director):
        name = f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{page}"
        response = hostile_admin.get(reverse(name, args=[obj.pk]) + "?_to_field=")
        assert response.status_code == 200, name


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["abc", str(2**63), "1e999"])
def test_a_choice_typed_into_an_autocomplete_field_is_a_form_error(hostile_admin, recorded, bad):
    """The form shown again looked its posted pair up as it was (a 500 for anything but an id)."""
    match, _deal, _trick = recorded
    data = {"table": "1", "pair_ns": bad, "pair_ew": match.pair_ew_id, "judge": ""}
    response = hostile_admin.post(change_url(match), data)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    match.refresh_from_db()
    assert match.pair_ns_id != bad and match.table == 1


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["9" * 5000, "[" * 100_000, '{"preset": "standard", "decks": ' + "9" * 5000 + "}"])
def test_a_ruleset_no_json_reader_takes_is_a_form_error(hostile_admin, tournament, bad):
    """A number of 5,000 digits or JSON nested 100,000 deep: a ValueError or RecursionError (a 500) before."""
    data = {"name": tournament.name, "slug": tournament.slug, "ruleset": bad, "tie_breaks": "[]"}
    data |= {"format": "swiss", "num_rounds": "5", "points_win": "2", "points_draw": "1", "points_loss": "0"}
    data |= {"bye_points": "2"}
    response = hostile_admin.post(change_url(tournament), data)
    assert response.status_code == 200 and "Enter a valid JSON." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.ruleset == {"preset": "standard"}
