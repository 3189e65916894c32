"""Every ruleset setting out of what the engine covers is refused, on the form and on the new-tournament page, in
one sentence."""

from __future__ import annotations

import typing

import pytest
from django.urls import reverse
from django.utils import translation

from rules.ruleset import Ruleset
from tests.desk.helpers import ruleset_form, settings_data
from tournaments.models import Tournament
from tournaments.setup.forms import (
    SETTINGS,
)

NEW = reverse("tournament-new")


# Out of what the engine covers, one value per setting (a yes/no setting has no value out of range: a posted box
# is ticked or not; its impossible combinations are refused above, e.g. permanent twos on a ladder playing 2).
OUT_OF_RANGE = {
    "decks": ("5", "one to four decks"),
    "kitty_cards": ("112", "at least one card"),
    "follow_tables": ("5x1: 5x1 / —", "like 3x1, 3x2 or 4x*"),
    "ladder": (["2"], "at least two levels"),
    "start_level": ("Z", "Select a valid choice."),
    "target_level": ("X", "Select a valid choice."),
    "must_play": (["2", "X"], "Select a valid choice."),
    "kitty_scheme": ("dice", "Select a valid choice."),
    "kitty_cap": ("100000", "99999"),
    "kitty_table": ("single ×100000, pair ×4, tractor ×8", "at most 99,999"),
    "level_step": ("100000", "99999"),
    "level_bands": ("below: banker side +100000", "at most 99,999"),
    "level_cap": ("0", "leave it empty"),
    "failed_throw": ("always", "Select a valid choice."),
    "failed_throw_points": ("100000", "99999"),
    "misplay_points": ("-1", "0 or more"),
    "signal_points": ("-100000", "-99999"),
    "revoke": ("jail", "Select a valid choice."),
    "renege": ("jail", "Select a valid choice."),
    "wrong_card_count": ("both", "Select a valid choice."),
    "strikes_to_forfeit": ("0", "leave it empty"),
    "time_limit_minutes": ("100000", "99999"),
    "time_rule": ("coin", "Select a valid choice."),
    "time_tie": ("coin", "Select a valid choice."),
    "mercy_levels": ("-3", "leave it empty"),
}
CHOICE = "Select a valid choice."
YES_NO = {name for name in SETTINGS if typing.get_type_hints(Ruleset)[name] is bool}


def test_every_setting_but_a_yes_or_no_has_an_out_of_range_case():
    assert set(OUT_OF_RANGE) == set(SETTINGS) - YES_NO


@pytest.mark.django_db
@pytest.mark.parametrize(("setting", "value", "message"), [(k, *v) for k, v in OUT_OF_RANGE.items()])
def test_each_setting_out_of_range_is_a_form_error_in_one_sentence(setting, value, message):
    preset = "three-deck" if setting == "follow_tables" else "standard"
    with translation.override("en"):
        form = ruleset_form(preset, **{f"rules-{setting}": value})
        assert not form.is_valid()
        errors = form.errors.get(setting, [])
        assert len(errors) == 1 and message in errors[0], form.errors
        if message != CHOICE:  # Django's own refusal of a choice the page never offers says the value too
            assert errors[0].endswith(".") and ". " not in errors[0].rstrip(".")


@pytest.mark.django_db
@pytest.mark.parametrize("decks", ["5", "8", "99999"])
def test_a_new_tournament_with_more_decks_than_the_rules_cover_is_refused(client, director, decks):
    client.force_login(director)
    response = client.post(NEW, settings_data(name="Cup", **{"rules-decks": decks}))
    assert response.status_code == 400
    assert not Tournament.objects.exists()
