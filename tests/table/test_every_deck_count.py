"""Every deck count on the judges' pages (RULES §11, §13): the card picker holds each card as often as the decks
do, the kitty is the ruleset's size (or there is none), quick entry's bounds follow the decks, and a deal goes
through the pages, DEAL-RECORD and the workbook on one, two, three and four decks alike."""

from __future__ import annotations

import io
import json
from functools import partial
from io import StringIO

import openpyxl
import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from referee.table.forms import QuickEntryForm
from referee.table.recording import deal_entry, records
from referee.table.recording.words import parse_card_text
from referee.table.screens.deal_state import current_deal_state
from rules.cards import parse_cards
from rules.judge import judge as engine_judge
from rules.ruleset import PRESETS, Ruleset
from tests.table.helpers import DECKS, deck_ruleset, posted_plays, quick_fields, record_play, simulated
from tournaments.competition import display
from tournaments.models import Deal, Match, Tournament
from tournaments.scoring import errors
from tournaments.scoring.quick_totals import most_kitty_points
from tournaments.scoring.rulesets import ruleset_for
from tournaments.workbook.export import write_workbook

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(params=DECKS, ids=lambda n: f"{n}-decks")
def decks(request) -> int:
    return request.param


@pytest.fixture
def table(match, decks) -> Match:
    """The conftest's match, in a tournament played with ``decks`` decks (quick entry allowed)."""
    t = match.round.tournament
    t.ruleset = deck_ruleset(decks)
    t.quick_entry_allowed = True
    t.save()
    return Match.objects.get(pk=match.pk)


def as_user(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def english(user) -> Client:
    c = as_user(user)
    c.cookies["django_language"] = "en"
    return c


def play_pages(c: Client, deal: Deal, record: dict) -> int:
    """Post every play of ``record`` as the trick-entry page does; the deal's version after the last."""
    version = deal.version
    for fields in posted_plays(record):
        response = c.post(reverse("deal-play", args=[deal.pk]), {**fields, "version": version}, **JSON)
        assert response.status_code == 200, response.json()
        version = response.json()["state"]["deal"]["version"]
    return version


# ------------------------------------------------------------------ the ruleset the site reads


def test_the_test_rulesets_have_the_decks_of_their_name(decks):
    rs = Ruleset.from_spec(deck_ruleset(decks))
    assert rs.decks == decks and rs.deck_points == 100 * decks
    assert 4 * rs.hand_size + rs.kitty_size == 54 * decks


def test_every_preset_has_a_name_and_a_line_in_both_languages():
    for lang in ("zh-hans", "en"):
        with translation.override(lang):
            presets = display.ruleset_presets()
            assert [code for code, _name, _line in presets] == list(PRESETS)
            for code, name, line in presets:
                assert name and name != code and line, code
                assert display.preset_description(code) == line
    with translation.override("zh-hans"):
        assert display.preset_name("one-deck") == "一副牌"
        assert display.preset_name("three-deck") == "三副牌"
        assert display.preset_name("four-deck") == "四副牌"


def test_the_tournament_page_names_the_preset_and_what_it_plays(table, client, decks):
    page = client.get(reverse("tournament", args=[table.round.tournament.slug])).content.decode()
    name = Ruleset.from_spec(deck_ruleset(decks)).preset
    assert display.preset_name(name) in page and display.preset_description(name) in page


# ------------------------------------------------------------------ card picker and notation


def test_the_picker_holds_each_card_as_often_as_the_decks(table, judge, decks):
    deal = deal_entry.start_deal(table, judge, trump="S", declarer="N")
    state = current_deal_state(deal, judge)
    cards = [card for row in state["picker"] for card in row["cards"]]
    assert len(cards) == 54 and {c["left"] for c in cards} == {decks}
    assert state["hand_size"] == ruleset_for(table).hand_size


def test_the_picker_counts_down_what_is_played_and_buried(table, judge, decks):
    rs = ruleset_for(table)
    deal = deal_entry.start_deal(table, judge, trump="S", declarer="N")
    record = simulated(deal, seed=3)
    if rs.kitty_size:
        deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
        deal.refresh_from_db()
    lead = record["tricks"][0]["plays"][0][1]
    record_play(deal, judge, cards=lead, seat="N", version=deal.version)
    deal.refresh_from_db()
    left = {c["code"]: c["left"] for row in current_deal_state(deal, judge)["picker"] for c in row["cards"]}
    used = parse_card_text(f"{record['kitty']} {lead}", "cards").split()
    for code, n in left.items():
        assert n == decks - used.count(code), code


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("S333 H5555", "S3 S3 S3 H5 H5 H5 H5"),
        ("♠333 ♥5555", "S3 S3 S3 H5 H5 H5 H5"),
        ("s1010 10", None),
        ("LJLJLJ BJBJBJ", "LJ LJ LJ BJ BJ BJ"),
        ("D444555", "D4 D4 D4 D5 D5 D5"),
        ("CKKKK，C3", "CK CK CK CK C3"),
    ],
)
def test_the_notation_reads_groups_of_three_and_four_copies(typed, read):
    if read is None:
        with pytest.raises(errors.RecordingError):
            parse_card_text(typed, "cards")
    else:
        assert sorted(parse_card_text(typed, "cards").split()) == sorted(read.split())


# ------------------------------------------------------------------ the kitty


def test_the_new_deal_page_asks_for_a_kitty_of_the_rulesets_size(table, judge):
    size = ruleset_for(table).kitty_size
    page = as_user(judge).get(reverse("new_deal", args=[table.pk])).content.decode()
    if size:
        assert f"底牌 {size} 张" in page and 'name="kitty"' in page
    else:
        assert 'name="kitty"' not in page and "本赛制不留底牌" in page


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_a_kitty_of_another_size_is_refused_and_of_the_right_size_kept(table, judge):
    rs = ruleset_for(table)
    c = english(judge)
    kitty = first_deal(table)["kitty"]
    wrong = "SA SK SQ SJ ST S9 S8 S7 S6"
    response = c.post(
        reverse("new_deal", args=[table.pk]), {"trump": "S", "declarer": "N", "next_deal": 1, "kitty": wrong}
    )
    assert response.status_code == 200 and not table.deals.exists()
    assert f"it must have {rs.kitty_size}" in response.content.decode()
    response = c.post(
        reverse("new_deal", args=[table.pk]), {"trump": "S", "declarer": "N", "next_deal": 1, "kitty": kitty}
    )
    assert response.status_code == 302
    assert table.deals.get().kitty.split() == parse_card_text(kitty, "k").split()


@pytest.mark.parametrize("decks", [4])
def test_a_game_without_a_kitty_refuses_one_and_ignores_a_posted_one(table, judge):
    assert ruleset_for(table).kitty_size == 0
    with translation.override("en"), pytest.raises(errors.RecordingError, match="This game has no kitty"):
        deal_entry.start_deal(table, judge, trump="S", declarer="N", kitty="SA SK")
    fields = {"trump": "S", "declarer": "N", "next_deal": 1, "kitty": "SA SK"}
    assert as_user(judge).post(reverse("new_deal", args=[table.pk]), fields).status_code == 302
    deal = table.deals.get()
    assert deal.kitty == ""
    with translation.override("en"), pytest.raises(errors.RecordingError, match="This game has no kitty"):
        deal_entry.set_kitty(deal, judge, "SA", version=deal.version)


def first_deal(match: Match, seed: int = 1) -> dict:
    """A simulated first deal of the match's ruleset (banker N, at the start level, spades), with that ruleset."""
    from rules.simulate import simulate_deal

    spec = match.round.tournament.ruleset
    level = Ruleset.from_spec(spec).start_level
    return simulate_deal(spec, banker="N", level=level, trump="S", seed=seed) | {"ruleset": spec}


def test_an_empty_kitty_starts_a_deal_on_every_ruleset(table, judge):
    response = as_user(judge).post(
        reverse("new_deal", args=[table.pk]), {"trump": "H", "declarer": "E", "next_deal": 1, "kitty": ""}
    )
    assert response.status_code == 302 and table.deals.get().kitty == ""


def test_the_kitty_box_of_the_deal_page_follows_the_ruleset(table, judge):
    size = ruleset_for(table).kitty_size
    deal = deal_entry.start_deal(table, judge, trump="S", declarer="N")
    page = as_user(judge).get(reverse("deal", args=[deal.pk])).content.decode()
    assert ('id="kitty-form"' in page) == bool(size)
    if size:
        assert f"{size} 张，例如" in page


# ------------------------------------------------------------------ a whole deal, its record and the workbook


def test_a_whole_deal_through_the_pages_then_submit_and_confirm(table, judge, make_judge, decks):
    c = as_user(judge)
    c.post(reverse("new_deal", args=[table.pk]), {"trump": "D", "declarer": "W", "next_deal": 1})
    deal = table.deals.get()
    record = simulated(deal, seed=4)
    version = play_pages(c, deal, record)
    has_kitty = bool(ruleset_for(table).kitty_size)
    if has_kitty:
        response = c.post(
            reverse("deal-kitty", args=[deal.pk]),
            {"kitty": record["kitty"], "version": version},
            **JSON,
        )
        assert response.status_code == 200, response.json()
    review = c.get(reverse("review", args=[deal.pk])).content.decode()
    assert 'data-testid="total"' in review
    assert ("抠底加分" in review) == has_kitty  # no kitty, no kitty bonus
    deal.refresh_from_db()
    assert c.post(reverse("deal-submit", args=[deal.pk]), {"version": deal.version}).status_code == 302
    deal.refresh_from_db()
    start = ruleset_for(table).start_level
    expected = engine_judge({**record, "levels": {"NS": start, "EW": start}}).as_dict()
    assert deal.state == Deal.State.SUBMITTED and deal.verdict["ok"] is True
    assert deal.verdict["attackers_points"] == expected["attackers_points"]
    assert deal.verdict["result"] == expected["result"]
    as_user(make_judge("second")).post(reverse("deal-confirm", args=[deal.pk]), {"version": deal.version})
    table.refresh_from_db()
    after = expected["result"]["levels_after"]
    assert (table.level_ns, table.level_ew) == (after["NS"], after["EW"])


def test_a_record_goes_in_and_comes_out_the_same_on_every_ruleset(table, director, tmp_path):
    rs = ruleset_for(table)
    record = first_deal(table, seed=2)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = StringIO()
    call_command("record_deal", str(table.pk), str(path), stdout=out)
    assert json.loads(out.getvalue())["ok"] is True
    (exported,) = records.export_deals(table)
    assert exported["tricks"] == record["tricks"]
    assert len(parse_cards(exported["kitty"])) == rs.kitty_size
    assert Ruleset.from_spec(exported["ruleset"]) == rs
    assert engine_judge(exported).ok


def test_the_workbook_lists_the_deals_of_every_ruleset(table, director):
    records.record_deal(table, first_deal(table, seed=2), director)
    deal = table.deals.get()
    out = io.BytesIO()
    with translation.override("en"):
        write_workbook(table.round.tournament, out)
    out.seek(0)
    rows = list(openpyxl.load_workbook(out)["Deals"].iter_rows(values_only=True))
    assert len(rows) == 2
    assert deal.verdict["attackers_points"]["total"] in rows[1]


# ------------------------------------------------------------------ quick entry


def test_quick_entry_offers_the_bounds_of_the_decks(table, judge, decks):
    rs = ruleset_for(table)
    page = as_user(judge).get(reverse("quick_entry", args=[table.pk])).content.decode()
    assert f'max="{100 * decks}"' in page and 'step="5"' in page
    assert ('name="kitty_points"' in page) == bool(rs.kitty_size)
    assert ('value="pair"' in page) == (decks >= 2 and bool(rs.kitty_size))


def test_quick_entry_takes_all_the_points_of_the_decks_and_no_more(table, judge, decks):
    c = english(judge)
    kitty = {"kitty_points": 0} if ruleset_for(table).kitty_size else {}
    fields = quick_fields(table, points=100 * decks + 5, last_lead="single", **kitty)
    response = c.post(reverse("quick_entry", args=[table.pk]), fields)
    assert response.status_code == 200 and f"between 0 and {100 * decks}" in response.content.decode()
    fields["points"] = 100 * decks
    assert c.post(reverse("quick_entry", args=[table.pk]), fields).status_code == 302
    deal = table.deals.get()
    assert deal.verdict["attackers_points"]["tricks"] == 100 * decks
    assert deal.verdict["result"]["outcome"] == "takeover"


def test_quick_entry_kitty_points_are_bounded_by_the_kitty(table, judge):
    rs = ruleset_for(table)
    if not rs.kitty_size:
        fields = quick_fields(table, kitty_points=10)
        response = english(judge).post(reverse("quick_entry", args=[table.pk]), fields)
        assert response.status_code == 302  # the form has no kitty field: what is posted for it is ignored
        assert table.deals.get().verdict["attackers_points"]["kitty"] == 0
        return
    most = most_kitty_points(rs)
    assert most == 10 * rs.kitty_size
    fields = quick_fields(table, kitty_points=most + 5, points=0, last_lead="single")
    response = english(judge).post(reverse("quick_entry", args=[table.pk]), fields)
    assert f"Kitty points must be between 0 and {most}" in response.content.decode()


# RULES §10 with the step of the decks (20 × decks: one deck 20, three decks 60, four decks 80; §11's tables):
# attackers' points as a multiple of the step (and 5 over nothing) → the outcome and the levels gained.
LEVEL_STEPS = [
    (0, 0, "banker_holds", 3),
    (0, 5, "banker_holds", 2),
    (1, -5, "banker_holds", 2),
    (1, 0, "banker_holds", 1),
    (2, -5, "banker_holds", 1),
    (2, 0, "takeover", 0),
    (3, 0, "takeover", 1),
    (4, 0, "takeover", 2),
    (5, 0, "takeover", 3),
]


@pytest.mark.parametrize(("steps", "extra", "outcome", "levels"), LEVEL_STEPS)
def test_quick_entry_levels_follow_the_step_of_the_decks(table, judge, decks, steps, extra, outcome, levels):
    rs = ruleset_for(table)
    assert rs.step == 20 * decks
    kitty = {"kitty_points": 0, "last_lead": "single"} if rs.kitty_size else {}
    fields = quick_fields(table, points=steps * rs.step + extra, attackers_won_last="", **kitty)
    assert english(judge).post(reverse("quick_entry", args=[table.pk]), fields).status_code == 302
    result = table.deals.get().verdict["result"]
    assert (result["outcome"], result["levels"]) == (outcome, levels)


# ------------------------------------------------------------------ commands: create, demo, simulate


def test_create_tournament_and_simulate_on_the_preset(decks, make_pair, director):
    preset = deck_ruleset(decks)
    call_command(
        "create_tournament", "cup", "--name", "杯赛", "--preset", preset, "--rounds", "1", stdout=StringIO()
    )
    t = Tournament.objects.get(slug="cup")
    assert t.preset_name == preset
    from tournaments.models import Round

    round1 = Round.objects.create(tournament=t, number=1, state=Round.State.PUBLISHED)
    Match.objects.create(round=round1, table=1, pair_ns=make_pair(t=t), pair_ew=make_pair(t=t))
    out = StringIO()
    call_command("simulate", "cup", "--round", "1", "--seed", "3", "--max-deals", "2", stdout=out)
    assert "table 1: 2 deals" in out.getvalue()
    m = round1.matches.get()
    assert all(d.verdict["ok"] for d in m.deals.all())


def test_the_demo_runs_on_a_preset(monkeypatch):
    """The preset reaches the demo's tournament and its printout. Its round is played two deals a table, not to
    the end (a hundred three-deck deals, the module's slowest test): the demo's whole round is played by
    tests/test_demo.py, and three-deck deals recorded by simulation by
    ``test_create_tournament_and_simulate_on_the_preset``."""
    from referee.table.management.commands import demo

    monkeypatch.setattr(demo, "simulate_round", partial(demo.simulate_round, max_deals=2))
    out = StringIO()
    call_command("demo", "--preset", "three-deck", stdout=out)
    t = Tournament.objects.get(slug="demo")
    assert t.preset_name == "three-deck" and Ruleset.from_spec(t.ruleset).decks == 3
    assert "preset three-deck" in out.getvalue()
    deals = Deal.objects.filter(match__round__tournament=t)
    assert deals.exists() and all(d.verdict["ok"] for d in deals)  # played on the preset's three decks


# ------------------------------------------------------------------ sizes: a hand is the most any entry holds


def test_a_play_or_throw_of_more_than_a_hand_is_refused_in_words(table, judge):
    rs = ruleset_for(table)
    deal = deal_entry.start_deal(table, judge, trump="S", declarer="N")
    too_many = " ".join(["SA"] * (rs.hand_size + 1))
    c = english(judge)
    for fields in (
        {"cards": too_many},
        {"cards": "SA", "throw_attempted": too_many, "throw_challenger": "E"},
    ):
        response = c.post(reverse("deal-play", args=[deal.pk]), {**fields, "version": 0}, **JSON)
        assert response.status_code == 400
        assert f"A hand holds {rs.hand_size} cards" in response.json()["message"]
    assert not deal.tricks.exists()


def test_a_record_with_more_than_a_hand_in_one_play_is_refused(table, director):
    rs = ruleset_for(table)
    record = first_deal(table, seed=2)
    record["tricks"][0]["plays"][0][1] = " ".join(["SA"] * (rs.hand_size + 1))
    with pytest.raises(errors.RecordingError, match="more cards in one entry than a hand holds"):
        records.record_deal(table, record, director)
    assert not table.deals.exists()


def test_a_throw_of_a_whole_hand_is_stored_whole(table, judge):
    """The longest throw text (a whole hand, canonical) fits the trick's columns on every deck count."""
    from tournaments.models import Trick

    rs = ruleset_for(table)
    longest = " ".join(["ST"] * rs.hand_size)
    assert len(longest) <= Trick._meta.get_field("throw_attempted").max_length
    assert len(longest) <= Trick._meta.get_field("throw_shown").max_length


def test_the_admin_names_each_tournaments_preset_and_lists_every_preset(table, director, decks):
    c = as_user(director)
    t = table.round.tournament
    listing = c.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert display.preset_name(Ruleset.from_spec(t.ruleset).preset) in listing
    form = c.get(reverse("admin:tournaments_tournament_add")).content.decode()  # a saved one's is the desk's
    for code in PRESETS:
        assert f"{code}: {display.preset_name(code)}" in form


LEADS_BY_DECKS = {
    1: {"single", "throw"},
    2: {"single", "pair", "tractor2", "tractor3", "tractor4", "throw"},
    3: {"single", "pair", "tractor2", "tractor3", "tractor4", "triple", "triples2", "triples3", "throw"},
    4: set(),  # no kitty: the last lead does not matter
}


def test_quick_entry_offers_the_last_leads_the_decks_can_make(table, decks):
    form = QuickEntryForm(needs_declarer=True, ruleset=ruleset_for(table))
    offered = (
        {code for code, _label in form.fields["last_lead"].choices} if "last_lead" in form.fields else set()
    )
    assert offered == LEADS_BY_DECKS[decks]


@pytest.mark.parametrize(
    ("decks", "lead", "multiplier"), [(3, "triple", 6), (3, "triples2", 18), (1, "throw", 2)]
)
def test_a_quick_deal_scores_the_kitty_by_the_last_leads_sets(table, judge, lead, multiplier):
    fields = quick_fields(table, points=40, kitty_points=20, last_lead=lead)
    assert english(judge).post(reverse("quick_entry", args=[table.pk]), fields).status_code == 302
    points = table.deals.get().verdict["attackers_points"]
    assert (points["multiplier"], points["kitty_bonus"]) == (multiplier, 20 * multiplier)


@pytest.mark.parametrize("preset", ["three-deck", "four-deck"])
def test_the_settings_form_writes_and_reads_back_a_presets_follow_orders(preset):
    from tournaments.competition.ruleset_settings import follow_tables_text, read_follow_tables

    tables = Ruleset.from_spec(preset).as_dict()["follow_tables"]
    text = follow_tables_text(tables)
    assert "—" in text and "3x1:" in text
    assert read_follow_tables(text) == tables
    decks = Ruleset.from_spec(preset).decks  # a table of quads needs four decks
    spec = {"preset": "standard", "decks": decks, "follow_tables": read_follow_tables(text)}
    assert Ruleset.from_spec(spec).follow_tables == Ruleset.from_spec(preset).follow_tables


def test_the_kitty_bonus_column_is_shown_only_when_the_game_buries_a_kitty(table, judge, director, decks):
    """Four decks bury no kitty (RULES §13): the match page and the public deal log then have no kitty-bonus
    column instead of one full of zeros."""
    kitty = Ruleset.from_spec(table.round.tournament.ruleset).kitty_size > 0
    assert kitty == (decks != 4)
    deal_entry.start_deal(table, judge, trump="S", declarer="N")  # the match page lists its deals
    match_page = english(judge).get(reverse("match", args=[table.pk])).content.decode()
    deal_log = (
        english(director)
        .get(reverse("deal-log", args=[table.round.tournament.slug, table.pk]))
        .content.decode()
    )
    assert ("kitty bonus" in match_page) == kitty
    assert ("kitty bonus" in deal_log) == kitty
