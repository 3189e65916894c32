"""Setting a tournament up: the new-tournament and settings forms, the ruleset's every setting, who may use them,
an override stored as the shortest spec and marked, and a ruleset change after deals re-scoring them."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from referee.table.simulation import simulate_match
from rules.ruleset import PRESETS, Ruleset
from rules.standings import TIEBREAKS
from tests.desk.helpers import delete_url, en, ruleset_form, settings_data, settings_url, tournament_form
from tournaments.checkin.forfeits import publish_round
from tournaments.competition import display, ruleset_settings
from tournaments.models import Deal, Match, Tournament
from tournaments.pairing.services import pair_round
from tournaments.setup.forms import (
    SETTINGS,
    RulesetForm,
    json_setting_field,
)

NEW = reverse("tournament-new")


# ---------------------------------------------------------------- the forms


@pytest.mark.django_db
def test_a_new_tournament_form_as_shown_is_valid():
    form = tournament_form(start_date="2026-12-01", end_date="2026-12-02", venue="Club")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["tie_breaks"] == list(TIEBREAKS)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", "This field is required."),
        ("num_rounds", "0", "greater than or equal to 1"),
        ("num_rounds", "many", "Enter a whole number."),
        ("end_date", "2026-11-30", "The last day cannot be before the first."),
        ("start_date", "tomorrow", "Enter a valid date."),
        ("points_win", "-1", "greater than or equal to 0"),
        ("match_time_limit", "x", "Enter a whole number."),
        ("format", "chess", "Select a valid choice."),
        ("tie_break_order", ["buchholz"], "order the tie-breaks"),
        ("tie_breaks", ["coin_toss"], "Select a valid choice."),
    ],
)
def test_each_bad_tournament_field_is_refused_next_to_it(field, value, message):
    with translation.override("en"):
        form = tournament_form(**({"start_date": "2026-12-01"} | {field: value}))
        assert not form.is_valid()
        assert message in " ".join(form.errors[field]), form.errors


@pytest.mark.django_db
def test_the_ruleset_as_a_preset_shows_it_is_valid_and_stored_as_the_preset_name():
    for preset in PRESETS:
        form = ruleset_form(preset)
        assert form.is_valid(), (preset, form.errors)
        assert form.spec == preset


@pytest.mark.django_db
def test_an_override_is_stored_as_the_shortest_spec():
    form = ruleset_form("jj-competition", **{"rules-strikes_to_forfeit": "2", "rules-level_cap": "3"})
    assert form.is_valid(), form.errors
    assert form.spec == {"preset": "jj-competition", "level_cap": 3, "strikes_to_forfeit": 2}


@pytest.mark.django_db
@pytest.mark.parametrize("rule", ["points", "sudden_death"])
def test_a_time_rule_other_than_the_presets_is_stored_as_an_override(rule):
    form = ruleset_form("jj-competition", **{"rules-time_rule": rule})
    assert form.is_valid(), form.errors
    assert form.spec == {"preset": "jj-competition", "time_rule": rule}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "zh-hans",
            ["比赛时间到", "高者胜", "领先方得2分，同级各得1分", "双方定为打目标级，领先方坐庄，继续比赛"],
        ),
        ("en", ["When time is called", "the higher level wins", "the side ahead scores 2, a tie 1 each"]),
    ],
)
def test_the_settings_page_offers_the_three_time_rules_in_the_directors_language(
    client, director, tournament, language, words
):
    client.cookies["django_language"] = language
    client.force_login(director)
    page = client.get(settings_url(tournament)).content.decode()
    section = page[page.index('name="rules-time_rule"') - 2000 : page.index('name="rules-time_tie"')]
    for word in words:
        assert word in section, word
    for value in ("higher_level", "points", "sudden_death"):
        assert f'value="{value}"' in section
    if language == "zh-hans":
        assert "side ahead" not in section and "higher level" not in section


@pytest.mark.django_db
def test_the_director_saves_a_time_rule_on_the_settings_page(client, director, tournament):
    en(client).force_login(director)
    answer = client.post(settings_url(tournament), settings_data(tournament, **{"rules-time_rule": "points"}))
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert Ruleset.from_spec(tournament.ruleset).time_rule == "points"


@pytest.mark.django_db
def test_the_kitty_and_level_tables_read_back_what_they_show():
    form = ruleset_form("permanent-twos")
    assert "×16" in form["kitty_table"].value()
    changed = ruleset_form(
        "jj-competition",
        **{
            "rules-level_bands": "below: banker side +3\n80: attackers +0\n120: attackers +1, one more every 40"
        },
    )
    assert changed.is_valid(), changed.errors
    assert changed.spec["level_bands"] == [
        {"from": None, "side": "banker", "levels": 3},
        {"from": 80, "side": "attackers", "levels": 0},
        {"from": 120, "side": "attackers", "levels": 1, "every": 40},
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"rules-decks": "0"}, "decks", "Play with at least one deck."),
        ({"rules-decks": "two"}, "decks", "Enter a whole number."),
        ({"rules-ladder": ["2"]}, "ladder", "Choose at least two levels."),
        ({"rules-ladder": ["3", "4", "5"]}, "start_level", "not one of the levels played"),
        ({"rules-target_level": "2"}, "target_level", "must be above the first level"),
        ({"rules-start_level": "Z"}, "start_level", "Select a valid choice."),
        (
            {"rules-must_play": ["2", "A"], "rules-ladder": ["3", "A"], "rules-start_level": "3"},
            "must_play",
            "must-play",
        ),
        ({"rules-permanent_twos": "on"}, "permanent_twos", "level 2 is not played"),
        ({"rules-kitty_scheme": "dice"}, "kitty_scheme", "Select a valid choice."),
        ({"rules-kitty_scheme": "table"}, "kitty_table", "needs a multiplier for a single"),
        ({"rules-kitty_table": "single ×0, pair ×4, tractor ×8"}, "kitty_table", "1 or more"),
        ({"rules-kitty_table": "lots"}, "kitty_table", "is not a kind and its multiplier"),
        ({"rules-kitty_cap": "0"}, "kitty_cap", "1 or more"),
        ({"rules-level_step": "0"}, "level_step", "1 or more"),
        ({"rules-level_bands": "hello"}, "level_bands", "is not a band"),
        ({"rules-level_bands": "10: banker side +2"}, "level_bands", "write “below”"),
        (
            {"rules-level_bands": "below: banker side +1\n40: banker side +2"},
            "level_bands",
            "never be better",
        ),
        ({"rules-level_cap": "-2"}, "level_cap", "leave it empty"),
        ({"rules-failed_throw_points": "-5"}, "failed_throw_points", "0 or more"),
        ({"rules-signal_points": "-1"}, "signal_points", "0 or more"),
        ({"rules-time_tie": "coin"}, "time_tie", "Select a valid choice."),
        ({"rules-time_rule": "overtime"}, "time_rule", "Select a valid choice."),
        ({"rules-preset": "poker"}, "preset", "Select a valid choice."),
    ],
)
def test_each_bad_ruleset_setting_is_refused_next_to_it_in_words(changes, field, message):
    with translation.override("en"):
        form = ruleset_form(**changes)
        assert not form.is_valid()
        assert message in " ".join(form.errors.get(field, [])), form.errors


@pytest.mark.django_db
def test_the_engines_refusal_is_in_chinese_by_default():
    with translation.override("zh-hans"):
        form = ruleset_form(**{"rules-decks": "0"})
        assert not form.is_valid()
        assert form.errors["decks"] == ["至少用一副牌。"]


def test_every_setting_of_the_engine_has_a_field_and_words():
    form = RulesetForm()
    assert set(SETTINGS) == {f.name for f in fields(Ruleset)} - {"preset"}
    assert set(SETTINGS) <= set(form.fields)
    assert set(SETTINGS) <= set(ruleset_settings.SETTING_WORDS)
    for name in SETTINGS:
        for value, _label in getattr(form.fields[name], "choices", []):
            if value not in ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"):
                assert value in ruleset_settings.CHOICE_WORDS, (name, value)


def test_every_preset_of_the_engine_is_offered_with_a_name_and_a_line_in_chinese():
    with translation.override("zh-hans"):
        offered = display.ruleset_presets()
    assert [code for code, _n, _l in offered] == list(PRESETS)
    for code, name, line in offered:
        assert name != code and line, code
        assert any("\u4e00" <= ch <= "\u9fff" for ch in name + line), code


# ---------------------------------------------------------------- who may set a tournament up


def make_user(kind: str):
    from tournaments.competition.access import JUDGE_GROUP, add_to_group
    from tournaments.competition.accounts import create_director

    if kind == "director":
        return create_director("td", "director-pass-1")
    user = get_user_model().objects.create_user(username=kind, password="pass-1234-x")
    if kind == "judge":
        add_to_group(user, JUDGE_GROUP)
    return user


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("judge", 403), ("player", 403), ("director", 200)]
)
@pytest.mark.parametrize("page", ["new", "settings", "delete"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_director_sets_a_tournament_up(client, tournament, who, status, page, method):
    if who != "anonymous":
        client.force_login(make_user(who))
    url = {"new": NEW, "settings": settings_url(tournament), "delete": delete_url(tournament)}[page]
    data = settings_data(tournament if page == "settings" else None, name="Renamed", move="buchholz:up")
    response = getattr(client, method)(url, data) if method == "post" else client.get(url)
    assert response.status_code == status
    if status == 302:
        assert "/login/" in response["Location"]
    tournament.refresh_from_db()
    assert tournament.name == "春季赛"


# ---------------------------------------------------------------- the pages


@pytest.mark.django_db
def test_the_director_creates_a_tournament_with_an_override_stored_short_and_marked(client, director):
    en(client).force_login(director)
    home = client.get(reverse("home")).content.decode()
    assert NEW in home and ">New tournament</a>" in home
    assert ">Create the tournament</button>" in client.get(NEW).content.decode()
    data = settings_data(preset="jj-competition", name="Spring Cup", **{"rules-strikes_to_forfeit": "2"})
    response = client.post(NEW, data)
    t = Tournament.objects.get(name="Spring Cup")
    assert response.status_code == 302 and response["Location"] == reverse("desk", args=[t.slug])
    assert t.slug == "spring-cup"
    assert t.ruleset == {"preset": "jj-competition", "strikes_to_forfeit": 2}
    assert t.history.get().history_user == director

    page = client.get(settings_url(t)).content.decode()
    marked = page.split('class="setting override"')
    assert len(marked) == 2, "one setting differs from the preset"
    assert "Strikes that lose the match" in marked[1][:600]
    assert 'value="jj-competition" checked' in page
    desk = client.get(reverse("desk", args=[t.slug])).content.decode()
    assert f'href="{reverse("desk-settings", args=[t.slug])}">Settings and rules</a>' in desk


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_dates_are_shown_to_the_date_picker_as_iso_dates(client, director, tournament, language):
    import datetime

    tournament.start_date = datetime.date(2026, 12, 1)
    tournament.save()
    client.cookies["django_language"] = language
    client.force_login(director)
    assert 'value="2026-12-01"' in client.get(settings_url(tournament)).content.decode()


@pytest.mark.django_db
def test_a_second_tournament_of_the_same_name_gets_its_own_address(client, director):
    client.force_login(director)
    for _ in range(2):
        client.post(NEW, settings_data(name="春季赛"))
    assert sorted(Tournament.objects.values_list("slug", flat=True)) == ["chun-ji-sai", "chun-ji-sai-2"]


@pytest.mark.django_db
def test_a_bad_setting_shows_the_form_again_with_the_error_and_saves_nothing(client, director):
    en(client).force_login(director)
    response = client.post(NEW, settings_data(name="Cup", **{"rules-target_level": "2"}))
    assert response.status_code == 400
    assert "The target level must be above the first level." in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_rearranging_button_shows_the_form_again_without_its_errors_and_saves_nothing(
    client, director, tournament
):
    en(client).force_login(director)
    data = settings_data(tournament, move="buchholz:up", name="", **{"rules-decks": "0"})
    answer = client.post(settings_url(tournament), data)
    page = answer.content.decode()
    assert answer.status_code == 200 and 'class="errorlist' not in page
    assert "This field is required." not in page
    data.pop("move")
    refused = client.post(settings_url(tournament), data).content.decode()
    assert "This field is required." in refused  # the same entries, saved, are refused
    tournament.refresh_from_db()
    assert tournament.name == "春季赛"


@pytest.mark.django_db
def test_a_stored_ruleset_the_engine_refuses_is_corrected_on_the_settings_page(client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(ruleset={"preset": "standard", "decks": 0})
    en(client).force_login(director)
    data = settings_data(Tournament(ruleset="standard"), name="Corrected")
    answer = client.post(settings_url(tournament), data)
    assert answer.status_code == 302, answer.content.decode()[:400]
    tournament.refresh_from_db()
    assert tournament.name == "Corrected" and tournament.ruleset == "standard"


@pytest.mark.django_db
def test_the_tie_break_buttons_reorder_the_form_without_saving(client, director, tournament):
    en(client).force_login(director)
    data = settings_data(tournament, move="buchholz:up")
    page = client.post(settings_url(tournament), data).content.decode()
    order = [page.index(f'name="tie_break_order" value="{c}"') for c in ("buchholz", "level_diff")]
    assert order == sorted(order)
    tournament.refresh_from_db()
    assert tournament.tie_breaks == list(TIEBREAKS)
    data = settings_data(
        tournament,
        tie_break_order=["buchholz", *[c for c in TIEBREAKS if c != "buchholz"]],
        tie_breaks=["buchholz", "level_diff"],
    )
    client.post(settings_url(tournament), data)
    tournament.refresh_from_db()
    assert tournament.tie_breaks == ["buchholz", "level_diff"]


@pytest.mark.django_db
def test_taking_a_preset_fills_the_settings_with_its_values(client, director):
    en(client).force_login(director)
    data = settings_data(name="Cup", take_preset="1", **{"rules-preset": "club-competition"})
    page = client.post(NEW, data).content.decode()
    assert 'value="club-competition" checked' in page
    assert 'class="setting override"' not in page
    assert not Tournament.objects.exists()


# ---------------------------------------------------------------- a ruleset change after deals


@pytest.fixture
def played_tournament(tournament, make_pair, director):
    for _ in range(2):
        make_pair()
    rnd = pair_round(tournament)
    publish_round(rnd)
    match = rnd.matches.get()
    simulate_match(match, director, seed=3, max_deals=4)
    return tournament, match


@pytest.mark.django_db
def test_a_ruleset_change_after_deals_asks_first_then_scores_every_deal_again(
    client, director, played_tournament
):
    t, match = played_tournament
    en(client).force_login(director)
    before = {d.number: d.verdict["result"] for d in match.deals.all()}
    data = settings_data(t, **{"rules-level_step": "20"})

    asked = client.post(settings_url(t), data)
    assert asked.status_code == 200
    assert "4 deals are recorded." in asked.content.decode()
    assert "Matches to recompute: 1." in asked.content.decode()
    t.refresh_from_db()
    assert t.ruleset == {"preset": "standard"}

    done = client.post(settings_url(t), data | {"confirm_rescore": "1"})
    assert done.status_code == 302
    t.refresh_from_db()
    assert t.ruleset == {"preset": "standard", "level_step": 20}
    after = {d.number: d.verdict["result"] for d in match.deals.all()}
    assert after != before
    match.refresh_from_db()
    from tournaments.scoring.fold import OFFICIAL, replay_match

    state = replay_match(match, states=OFFICIAL)
    assert (match.level_ns, match.level_ew) == (state.levels["NS"], state.levels["EW"])
    rescored = Deal.history.filter(history_change_reason__startswith="scored again")
    assert rescored.exists() and {h.history_user for h in rescored} == {director}
    # each deal was scored from the levels the re-scored deals before it give, as the fold reads them back
    from tournaments.scoring.fold import levels_before
    from tournaments.scoring.snapshot import snapshot

    for deal in match.deals.order_by("number"):
        rejudged = snapshot(deal, levels_before(deal)).judged().as_dict()["result"]
        assert deal.verdict["result"] == json.loads(json.dumps(rejudged)), f"deal {deal.number}"
        assert deal.start_levels == levels_before(deal), f"deal {deal.number}'s stored start"
        assert (
            deal.attackers_total == deal.verdict["attackers_points"]["total"]
        )  # the columns written with it


@pytest.mark.django_db
def test_settings_that_leave_the_rules_alone_save_without_asking(client, director, played_tournament):
    t, _match = played_tournament
    client.force_login(director)
    response = client.post(settings_url(t), settings_data(t, name="秋季赛"))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.name == "秋季赛"


@pytest.mark.django_db
def test_rules_under_which_a_recorded_deal_cannot_be_scored_are_refused(client, director, played_tournament):
    t, match = played_tournament
    en(client).force_login(director)
    data = settings_data(t, **{"rules-decks": "3", "confirm_rescore": "1"})
    response = client.post(settings_url(t), data)
    assert response.status_code == 409
    assert "cannot be scored, so the rules were not changed" in response.content.decode()
    t.refresh_from_db()
    assert t.ruleset == {"preset": "standard"}
    assert not Match.objects.filter(
        pk=match.pk, deals__verdict__isnull=True, deals__state="confirmed"
    ).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes",
    [
        {"rules-level_bands": "below: banker side +" + "9" * 5000},
        {"rules-kitty_table": "single ×" + "9" * 5000},
        {"rules-decks": "9" * 5000},
        {"rules-kitty_cap": "99999999999999999999"},
        {"venue": "bad\x00venue", "rules-level_bands": "\x00"},
        {"rules-ladder": ["2", "nope"], "tie_break_order": ["x"] * 50},
        {"move": "nonsense", "tie_break_order": []},
        {"take_preset": "1", "rules-preset": "nope"},
        {"rules-preset": None, "tie_break_order": None},
    ],
)
def test_hostile_settings_get_a_form_error_never_a_server_error(client, director, changes):
    client.force_login(director)
    response = client.post(NEW, settings_data(name="Cup", **changes))
    assert response.status_code in (200, 400)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_settings_page_says_words_not_codes(client, director, language):
    import re

    from rules.ruleset import Ruleset
    from tests.test_no_codes_on_screen import code_leaks, visible

    t = Tournament.objects.create(name="春季赛", slug="spring", ruleset={"preset": "jj-competition"})
    client.cookies["django_language"] = language
    client.force_login(director)
    text = visible(client.get(settings_url(t)).content.decode())
    lang = "zh" if language == "zh-hans" else "en"
    codes = {*SETTINGS, *TIEBREAKS, *(v for v in Ruleset().as_dict().values() if isinstance(v, str))}
    codes |= {"unit_power", "card_power", "per_card", "per_attempt", "lose_deal", "banker_side", "attackers"}
    leaks = code_leaks(text, lang) + [c for c in codes if "_" in c and c in text]
    assert not leaks
    if lang == "zh":
        english = set(re.findall(r"[A-Za-z]{3,}", text)) - {"English"}  # the language switch names itself
        assert not english, english


@pytest.mark.parametrize("text", ["[" * 100_000, "9" * 5000, "{"])
def test_a_setting_written_as_json_that_json_cannot_read_is_a_form_error(text):
    """No setting is written as JSON today; one added tomorrow must not fail on JSON nested 100,000 deep."""
    with pytest.raises(forms.ValidationError):
        json_setting_field(label="x").clean(text)
