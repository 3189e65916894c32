"""The admin keeps a match computed from its confirmed deals: computed fields read-only, deals and their parts
only read (never added, changed, deleted or reverted there)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.desk.helpers import deal
from tests.hostile import HAN
from tournaments.admin import MATCH_COMPUTED, most_tables
from tournaments.models import Bye, Deal, Match, Pair, Penalty, Play, Player, Round, Tournament, Trick
from tournaments.pairing import services as pairing


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
def test_a_match_or_round_with_deals_cannot_be_deleted_here_and_the_page_says_why(admin_client, recorded):
    match, _deal, _trick = recorded
    admin_client.cookies["django_language"] = "en"
    for url, back in (
        (reverse("admin:tournaments_match_delete", args=[match.pk]), change_url(match)),
        (reverse("admin:tournaments_round_delete", args=[match.round_id]), change_url(match.round)),
    ):
        response = admin_client.post(url, {"post": "yes"}, follow=True)
        assert response.redirect_chain == [(back, 302)]
        assert "Table 1 has begun: round 1 stays published." in [str(m) for m in response.context["messages"]]
        assert 'class="deletelink"' not in response.content.decode()
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
        refused = page == "delete" and obj is not director  # played: back to its page, which says why
        assert response.status_code == (302 if refused else 200), name


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
@pytest.mark.parametrize("bad", [str(2**63), str(-(2**63) - 1), str(10**30)])
def test_an_id_past_64_bits_in_a_many_to_many_field_is_a_form_error(hostile_admin, director, bad):
    """auth's user page posts its groups as a list of ids, which Django asks the database about at once: one past
    64 bits was an OverflowError in SQLite's driver (a 500); now the field says it is no available choice."""
    data = {"username": director.username, "groups": [bad], "date_joined_0": "2026-01-01"}
    data |= {"date_joined_1": "00:00:00", "is_active": "on", "is_staff": "on", "is_superuser": "on"}
    response = hostile_admin.post(reverse("admin:auth_user_change", args=[director.pk]), data)
    page = response.content.decode()
    assert (
        response.status_code == 200 and "errorlist" in page and "is not one of the available choices" in page
    )
    assert director.groups.exists()  # nothing saved: still in the director group


@pytest.mark.django_db
@pytest.mark.parametrize(
    "bad", ["9" * 5000, "[" * 100_000, '{"preset": "standard", "decks": ' + "9" * 5000 + "}"]
)
def test_a_ruleset_no_json_reader_takes_is_a_form_error(hostile_admin, tournament, bad):
    """A number of 5,000 digits or JSON nested 100,000 deep: a ValueError or RecursionError (a 500) before."""
    data = {"name": "秋季赛", "slug": "autumn", "ruleset": bad, "tie_breaks": "[]"}
    data |= {"format": "swiss", "num_rounds": "5", "points_win": "2", "points_draw": "1", "points_loss": "0"}
    data |= {"bye_points": "2"}
    response = hostile_admin.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 200 and "Enter a valid JSON." in response.content.decode()
    assert list(Tournament.objects.all()) == [tournament]


# ------------------------------------------------------------------ what the desk decides, the admin does not bypass


def tournament_form(tournament: Tournament, **changes) -> dict:
    data = {
        "name": tournament.name,
        "slug": tournament.slug,
        "venue": "",
        "ruleset": '{"preset": "standard"}',
    }
    data |= {"format": "swiss", "num_rounds": "5", "points_win": "2", "points_draw": "1", "points_loss": "0"}
    data |= {"bye_points": "2", "tie_breaks": "[]", "is_public": "on"}
    return data | changes


@pytest.mark.django_db
def test_a_tournaments_ruleset_and_scoring_settings_change_on_the_desk_not_here(admin_client, recorded):
    """The desk's settings page re-scores the recorded deals when the ruleset changes; the admin would not."""
    match, _deal, _trick = recorded
    tournament = match.round.tournament
    html = admin_client.get(change_url(tournament)).content.decode()
    for name in ("ruleset", "points_win", "bye_points", "tie_breaks", "match_time_limit"):
        assert f'name="{name}"' not in html, name
    assert 'name="name"' in html and f'href="{reverse("desk-settings", args=[tournament.slug])}"' in html
    form = tournament_form(
        tournament, name="春季赛（改）", ruleset='{"preset": "jj-competition"}', points_win="9"
    )
    assert admin_client.post(change_url(tournament), form).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.ruleset, tournament.points_win) == (
        "春季赛（改）",
        {"preset": "standard"},
        2,
    )


@pytest.fixture
def finished(recorded, make_pair):
    """The recorded match's tournament finished, with a bye in its round."""
    match, _deal, _trick = recorded
    bye = Bye.objects.create(round=match.round, pair=make_pair(), points=2)
    Tournament.objects.filter(pk=match.round.tournament_id).update(finished_at=timezone.now())
    return match, bye


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["pair", "round", "match", "bye"])
def test_a_finished_tournaments_pairs_rounds_matches_and_byes_are_only_read_here(
    admin_client, finished, kind
):
    match, bye = finished
    obj = {"pair": match.pair_ns, "round": match.round, "match": match, "bye": bye}[kind]
    admin_client.cookies["django_language"] = "en"
    response = admin_client.get(change_url(obj))
    html = response.content.decode()
    assert response.status_code == 200 and 'name="_save"' not in html and 'class="deletelink"' not in html
    assert "The tournament is finished: its results are final" in html
    assert admin_client.post(change_url(obj), {"table": "9", "name": "x", "points": "0"}).status_code == 403
    delete = reverse(f"admin:tournaments_{kind}_delete", args=[obj.pk])
    response = admin_client.post(delete, {"post": "yes"}, follow=True)
    assert response.redirect_chain == [(change_url(obj), 302)]
    said = [str(m) for m in response.context["messages"]]
    assert said == ["The tournament is finished: its results are final and can no longer be changed."]  # once
    assert type(obj).objects.filter(pk=obj.pk).exists()
    changelist = admin_client.get(reverse(f"admin:tournaments_{kind}_changelist")).content.decode()
    assert 'value="delete_selected"' not in changelist  # bulk delete would ask no one


@pytest.mark.django_db
def test_a_pair_or_bye_put_into_a_finished_tournament_here_is_a_form_error(admin_client, finished, make_pair):
    match, _bye = finished
    admin_client.cookies["django_language"] = "en"
    p1, p2 = Player.objects.create(name="甲"), Player.objects.create(name="乙")
    data = {
        "tournament": match.round.tournament_id,
        "name": "迟到队",
        "player1": p1.pk,
        "player2": p2.pk,
        "seed": "",
    }
    response = admin_client.post(reverse("admin:tournaments_pair_add"), data)
    assert response.status_code == 200 and "The tournament is finished" in response.content.decode()
    assert not Pair.objects.filter(name="迟到队").exists()
    data = {"round": match.round_id, "pair": make_pair().pk, "points": "2"}
    response = admin_client.post(reverse("admin:tournaments_bye_add"), data)
    assert response.status_code == 200 and "The tournament is finished" in response.content.decode()
    assert Bye.objects.count() == 1


@pytest.mark.django_db
def test_a_pair_never_paired_is_deleted_here_through_the_desks_service_and_a_paired_one_is_not(
    admin_client, match, make_pair, director
):
    admin_client.cookies["django_language"] = "en"
    typo = make_pair()
    players = [typo.player1_id, typo.player2_id]
    response = admin_client.post(reverse("admin:tournaments_pair_delete", args=[typo.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Pair.objects.filter(pk=typo.pk).exists() and not Player.objects.filter(pk__in=players).exists()
    assert Pair.history.filter(id=typo.pk, history_type="-").get().history_user == director
    paired = match.pair_ns
    delete = reverse("admin:tournaments_pair_delete", args=[paired.pk])
    response = admin_client.post(delete, {"post": "yes"}, follow=True)
    assert response.redirect_chain == [(change_url(paired), 302)]
    assert f"{paired.name} is paired in round 1" in response.content.decode()
    assert Pair.objects.filter(pk=paired.pk).exists()


@pytest.mark.django_db
def test_a_tournament_with_rounds_is_not_deleted_here_and_one_without_is(admin_client, match):
    admin_client.cookies["django_language"] = "en"
    played = match.round.tournament
    response = admin_client.post(
        reverse("admin:tournaments_tournament_delete", args=[played.pk]), {"post": "yes"}
    )
    assert response.status_code == 302 and Tournament.objects.filter(pk=played.pk).exists()
    empty = Tournament.objects.create(name="误建", slug="mistake")
    response = admin_client.post(
        reverse("admin:tournaments_tournament_delete", args=[empty.pk]), {"post": "yes"}
    )
    assert response.status_code == 302 and not Tournament.objects.filter(pk=empty.pk).exists()


@pytest.mark.django_db
def test_a_draft_rounds_table_is_deleted_here_and_a_published_rounds_is_not(admin_client, match, make_pair):
    draft = Round.objects.create(tournament=match.round.tournament, number=2)
    table = Match.objects.create(round=draft, table=1, pair_ns=make_pair(), pair_ew=make_pair())
    delete = reverse("admin:tournaments_match_delete", args=[table.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    assert not Match.objects.filter(pk=table.pk).exists()
    admin_client.post(reverse("admin:tournaments_match_delete", args=[match.pk]), {"post": "yes"})
    assert Match.objects.filter(pk=match.pk).exists()


@pytest.mark.django_db
def test_a_draft_round_is_discarded_here_through_the_desks_service_with_its_tables(
    admin_client, match, monkeypatch
):
    draft = Round.objects.create(tournament=match.round.tournament, number=2)
    Match.objects.create(round=draft, table=1, pair_ns=match.pair_ns, pair_ew=match.pair_ew)
    discarded, original = [], pairing.delete_draft_round
    monkeypatch.setattr(pairing, "delete_draft_round", lambda rnd: discarded.append(rnd.pk) or original(rnd))
    response = admin_client.post(reverse("admin:tournaments_round_delete", args=[draft.pk]), {"post": "yes"})
    assert response.status_code == 302 and discarded == [draft.pk]
    assert (
        not Round.objects.filter(pk=draft.pk).exists()
        and not Match.objects.filter(round_id=draft.pk).exists()
    )


@pytest.mark.django_db
def test_a_delete_refused_by_the_desks_service_meanwhile_goes_back_to_the_page_saying_why(
    admin_client, match, monkeypatch
):
    """The check passed, then the service (under its lock) found the round published meanwhile."""
    admin_client.cookies["django_language"] = "en"
    draft = Round.objects.create(tournament=match.round.tournament, number=2)

    def published_meanwhile(rnd):
        raise pairing.PairingError("Only a draft round can be changed.")

    monkeypatch.setattr(pairing, "delete_draft_round", published_meanwhile)
    url = reverse("admin:tournaments_round_delete", args=[draft.pk])
    response = admin_client.post(url, {"post": "yes"}, follow=True)
    assert response.redirect_chain == [(change_url(draft), 302)]
    assert [str(m) for m in response.context["messages"]] == ["Only a draft round can be changed."]
    assert Round.objects.filter(pk=draft.pk).exists()


def round_form(rnd: Round, tables: dict[Match, int]) -> dict:
    data = {"tournament": rnd.tournament_id, "number": rnd.number, "state": rnd.state}
    data |= {"matches-TOTAL_FORMS": len(tables), "matches-INITIAL_FORMS": len(tables)}
    data |= {"matches-MIN_NUM_FORMS": 0, "matches-MAX_NUM_FORMS": 1000}
    for i, (m, table) in enumerate(tables.items()):
        data |= {f"matches-{i}-id": m.pk, f"matches-{i}-round": rnd.pk, f"matches-{i}-table": table}
        data |= {f"matches-{i}-pair_ns": m.pair_ns_id, f"matches-{i}-pair_ew": m.pair_ew_id}
        data |= {f"matches-{i}-judge": m.judge_id or ""}
    return data


@pytest.mark.django_db
def test_two_tables_of_a_round_swap_numbers_here(hostile_admin, match, make_pair):
    """The formset saved one table at a time: 1 → 2 met table 2 still there (a 500)."""
    other = Match.objects.create(round=match.round, table=2, pair_ns=make_pair(), pair_ew=make_pair())
    url = reverse("admin:tournaments_round_change", args=[match.round_id])
    assert hostile_admin.post(url, round_form(match.round, {match: 2, other: 1})).status_code == 302
    match.refresh_from_db()
    other.refresh_from_db()
    assert (match.table, other.table) == (2, 1)
    response = hostile_admin.post(url, round_form(match.round, {match: 3, other: 3}))
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert set(Match.objects.values_list("table", flat=True)) == {1, 2}


@pytest.mark.django_db
def test_a_table_moved_onto_one_the_posted_form_leaves_out_is_a_form_error_in_the_visitors_language(
    hostile_admin, match, make_pair
):
    """The posted count of tables is the visitor's: a form of two of the round's three tables, the second moved to
    the third's number, met the one-table-a-number constraint in the database (a 500 the fuzz found)."""
    second = Match.objects.create(round=match.round, table=2, pair_ns=make_pair(), pair_ew=make_pair())
    Match.objects.create(round=match.round, table=3, pair_ns=make_pair(), pair_ew=make_pair())
    url = reverse("admin:tournaments_round_change", args=[match.round_id])
    hostile_admin.cookies["django_language"] = "zh-hans"
    response = hostile_admin.post(url, round_form(match.round, {match: 1, second: 3}))
    assert response.status_code == 200
    errors = response.context["inline_admin_formsets"][0].formset.forms[1].errors["table"]
    assert errors and all(HAN.search(error) for error in errors), errors
    assert sorted(Match.objects.values_list("table", flat=True)) == [1, 2, 3]


@pytest.mark.django_db
def test_two_tables_of_a_round_swap_a_pair_here(hostile_admin, match, make_pair):
    """The formset saved one table at a time: the first table's new pair met its seating at the second (a 500)."""
    other = Match.objects.create(round=match.round, table=2, pair_ns=make_pair(), pair_ew=make_pair())
    first_ns, other_ns = match.pair_ns_id, other.pair_ns_id
    url = reverse("admin:tournaments_round_change", args=[match.round_id])
    data = round_form(match.round, {match: 1, other: 2})
    data |= {"matches-0-pair_ns": other_ns, "matches-1-pair_ns": first_ns}
    assert hostile_admin.post(url, data).status_code == 302
    match.refresh_from_db()
    other.refresh_from_db()
    assert (match.pair_ns_id, other.pair_ns_id) == (other_ns, first_ns)
    assert set(match.seatings.values_list("pair_id", flat=True)) == {other_ns, match.pair_ew_id}


@pytest.mark.django_db
@pytest.mark.parametrize("left_out", [False, True], ids=["posted", "left-out-of-the-form"])
def test_a_pair_put_at_a_second_table_is_a_form_error_in_the_visitors_language(
    hostile_admin, match, make_pair, left_out
):
    """A pair at two tables of a round, whether the other table is in the posted form or left out of it (its count
    is the visitor's), met the seatings' constraint in the database (a 500 the hostile fuzz found)."""
    other = Match.objects.create(round=match.round, table=2, pair_ns=make_pair(), pair_ew=make_pair())
    url = reverse("admin:tournaments_round_change", args=[match.round_id])
    hostile_admin.cookies["django_language"] = "zh-hans"
    tables = {match: 1} if left_out else {match: 1, other: 2}
    data = round_form(match.round, tables) | {"matches-0-pair_ns": other.pair_ns_id}
    response = hostile_admin.post(url, data)
    assert response.status_code == 200
    errors = response.context["inline_admin_formsets"][0].formset.forms[0].non_field_errors()
    assert errors and all(HAN.search(error) for error in errors), errors
    match.refresh_from_db()
    assert match.pair_ns_id != other.pair_ns_id


@pytest.mark.django_db
def test_a_new_round_with_its_tables_is_added_here_and_one_pair_at_two_tables_is_refused(
    hostile_admin, tournament, make_pair
):
    """The add page's tables are checked among themselves (a new round leaves no table out)."""
    pairs = [make_pair() for _ in range(4)]
    data = {"tournament": tournament.pk, "number": 1, "state": Round.State.DRAFT}
    data |= {"matches-TOTAL_FORMS": 2, "matches-INITIAL_FORMS": 0, "matches-MIN_NUM_FORMS": 0}
    data |= {"matches-MAX_NUM_FORMS": 1000}
    for i, (ns, ew) in enumerate([(pairs[0], pairs[1]), (pairs[2], pairs[0])]):
        data |= {f"matches-{i}-table": i + 1, f"matches-{i}-pair_ns": ns.pk, f"matches-{i}-pair_ew": ew.pk}
    url = reverse("admin:tournaments_round_add")
    response = hostile_admin.post(url, data)
    assert response.status_code == 200 and not Round.objects.exists()
    assert "A pair is placed twice" in str(
        response.context["inline_admin_formsets"][0].formset.forms[1].errors
    )
    data["matches-1-pair_ew"] = pairs[3].pk
    assert hostile_admin.post(url, data).status_code == 302
    assert sorted(Match.objects.values_list("table", flat=True)) == [1, 2]


@pytest.mark.django_db
def test_a_round_form_claiming_more_tables_than_pairs_builds_only_the_rounds_tables(hostile_admin, match):
    """The posted count of tables is the visitor's: ``TOTAL_FORMS=9223372036854775808`` built 2,000 table forms
    and showed them again (a second a request); now the round's form takes as many as its pairs can fill."""
    url = reverse("admin:tournaments_round_change", args=[match.round_id])
    data = round_form(match.round, {match: 1}) | {"matches-TOTAL_FORMS": str(2**63)}
    response = hostile_admin.post(url, data)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    formset = response.context["inline_admin_formsets"][0].formset
    assert len(formset.forms) == formset.absolute_max == most_tables(match.round) < 10
