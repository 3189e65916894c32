"""Database constraints of the competition data."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from tournaments.models import Match, Pair, Player, Round, Seating


def test_table_number_unique_in_round(round1, make_pair):
    Match.objects.create(round=round1, table=1, pair_ns=make_pair(), pair_ew=make_pair())
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round1, table=1, pair_ns=make_pair(), pair_ew=make_pair())


def test_pair_at_most_once_per_round_whatever_the_side(round1, make_pair):
    a, b, c = make_pair(), make_pair(), make_pair()
    Match.objects.create(round=round1, table=1, pair_ns=a, pair_ew=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round1, table=2, pair_ns=c, pair_ew=a)
    assert Match.objects.count() == 1


def test_same_pair_may_play_in_another_round(tournament, round1, make_pair):
    a, b = make_pair(), make_pair()
    Match.objects.create(round=round1, table=1, pair_ns=a, pair_ew=b)
    round2 = Round.objects.create(tournament=tournament, number=2)
    Match.objects.create(round=round2, table=1, pair_ns=b, pair_ew=a)
    assert Seating.objects.filter(pair=a).count() == 2


def test_two_different_pairs_per_match(round1, make_pair):
    a = make_pair()
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round1, table=1, pair_ns=a, pair_ew=a)


def test_swapping_sides_keeps_seatings_in_step(match):
    ns, ew = match.pair_ns, match.pair_ew
    match.pair_ns, match.pair_ew = ew, ns
    match.save()
    seats = dict(match.seatings.values_list("side", "pair_id"))
    assert seats == {"NS": ew.pk, "EW": ns.pk}


def test_pair_name_unique_in_tournament(tournament, make_pair):
    make_pair("红桃队")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_pair("红桃队")


def test_pair_needs_two_different_players(tournament):
    p = Player.objects.create(name="独行侠")
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(tournament=tournament, name="一人队", player1=p, player2=p)


def test_round_number_unique_in_tournament(tournament):
    Round.objects.create(tournament=tournament, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=tournament, number=1)


def test_tournament_clean_rejects_unknown_preset_and_tie_break(tournament):
    tournament.ruleset = {"preset": "no-such-preset"}
    with pytest.raises(ValidationError) as err:
        tournament.full_clean()
    assert "ruleset" in err.value.message_dict
    tournament.ruleset = {"preset": "standard"}
    tournament.tie_breaks = ["coin_toss"]
    with pytest.raises(ValidationError) as err:
        tournament.full_clean()
    assert "tie_breaks" in err.value.message_dict


@pytest.mark.parametrize("tie_breaks", [7, "buchholz", {"a": 1}, [{"a": 1}], [None], [["buchholz"]]])
def test_tie_breaks_that_are_not_a_list_of_codes_are_a_field_error(tournament, tie_breaks):
    """JSON typed in the admin may be any value: each is the tie-breaks' field error, not a TypeError (a 500)."""
    tournament.tie_breaks = tie_breaks
    with pytest.raises(ValidationError) as err:
        tournament.full_clean()
    assert list(err.value.message_dict) == ["tie_breaks"]


def test_each_match_save_is_kept_in_its_history(match, director):
    match.level_ns = "5"
    match.save()
    assert match.history.count() == 2
    assert match.history.first().level_ns == "5"


def test_penalty_and_tie_break_choices_are_the_engines_codes_each_with_a_label():
    from rules.scoring import PENALTY_CODES as ENGINE_PENALTIES
    from rules.standings import TIEBREAKS
    from tournaments.models import PENALTY_CODES, PENALTY_LABELS, TIE_BREAK_LABELS, TIE_BREAKS, Penalty

    assert [code for code, _label in PENALTY_CODES] == list(ENGINE_PENALTIES) == list(PENALTY_LABELS)
    assert [code for code, _label in Penalty._meta.get_field("code").choices] == list(ENGINE_PENALTIES)
    assert [code for code, _label in TIE_BREAKS] == list(TIEBREAKS) == list(TIE_BREAK_LABELS)


@pytest.mark.parametrize(
    ("ruleset", "refusal"),
    [
        (5, "规则引擎不接受这个值。"),
        ({"preset": "standard", "decks": 0}, "几副牌：至少用一副牌。"),
        ({"preset": ["standard"]}, "请选择一种预设规则。"),
    ],
)
def test_a_tournaments_ruleset_is_refused_in_the_directors_language(tournament, ruleset, refusal):
    """The admin's ruleset field shows the model's refusal: it was the engine's English."""
    tournament.ruleset = ruleset
    with translation.override("zh-hans"), pytest.raises(ValidationError) as err:
        tournament.full_clean()
    assert err.value.message_dict["ruleset"] == [refusal]


def test_an_attackers_total_past_a_small_integer_is_stored_as_scored(match):
    # A legal ruleset (failed_throw_points up to 99,999) can score a deal far past 32,767 points; PostgreSQL's
    # smallint refused or wrapped it. The total is stored and read back unchanged.
    from tests.desk.helpers import deal

    stored = deal(match, 1, "N", 800_032, "takeover")
    stored.refresh_from_db()
    assert stored.attackers_total == 800_032
