"""Check-in: pairs tapped in at the desk or by their PIN on the desk's tablet; the round paired with the pairs
checked in, the absent ones sitting out or forfeiting (recorded when the round is published); who may use it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.checkin import services
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.throttle import PINS
from tournaments.models import Absence, Adjustment, CheckIn, Match
from tournaments.table_links.services import make_pin

pytestmark = pytest.mark.django_db


@pytest.fixture
def five(tournament, make_pair):
    return [make_pair() for _ in range(5)]


def check_in_all_but(tournament, pairs, director, absent):
    for pair in pairs:
        if pair not in absent:
            services.check_in(tournament, pair, director)


def paired_ids(rnd) -> set[int]:
    ids = {p for m in rnd.matches.all() for p in (m.pair_ns_id, m.pair_ew_id)}
    return ids | set(rnd.byes.values_list("pair_id", flat=True))


def test_a_pair_checks_in_once_for_the_next_round(tournament, five, director):
    services.check_in(tournament, five[0], director)
    services.check_in(tournament, five[0], director)
    assert list(CheckIn.objects.values_list("pair", "round_number")) == [(five[0].pk, 1)]


def test_an_absent_pair_withdrawn_for_the_round_is_paired_around(tournament, five, director):
    check_in_all_but(tournament, five, director, absent=[five[2]])
    rnd = services.pair_checked_in(tournament, director, absent_as="sit_out")
    assert five[2].pk not in paired_ids(rnd) and len(paired_ids(rnd)) == 4
    assert rnd.matches.count() == 2 and not rnd.byes.exists()
    assert Absence.objects.get().pair == five[2]


def test_an_absent_pair_that_forfeits_is_paired_and_loses_when_the_round_is_published(
    tournament, five, director
):
    check_in_all_but(tournament, five, director, absent=[five[0]])
    rnd = services.pair_checked_in(tournament, director, absent_as="forfeit")
    assert five[0].pk in paired_ids(rnd)
    publish_round(rnd)
    match = (
        Match.objects.filter(round=rnd).get(pair_ns=five[0])
        if rnd.matches.filter(pair_ns=five[0]).exists()
        else Match.objects.get(round=rnd, pair_ew=five[0])
    )
    assert match.state == "finished" and match.winner is not None and match.winner != five[0]
    assert Adjustment.objects.get(match=match).kind == "forfeit"


def test_pairing_with_no_pair_checked_in_is_refused(tournament, five, director):
    with pytest.raises(services.CheckInError):
        services.pair_checked_in(tournament, director, absent_as="sit_out")
    assert not tournament.rounds.exists()


def test_a_pair_checks_itself_in_with_its_pin_and_a_wrong_pin_is_counted(tournament, five, director):
    pin = make_pin(five[1], director)
    with pytest.raises(services.CheckInError):
        services.check_in_by_pin(tournament, five[1], "x" + pin, director)
    services.check_in_by_pin(tournament, five[1], pin, director)
    assert CheckIn.objects.get().how == "pin"
    for _ in range(PINS.limit):
        with pytest.raises(services.CheckInError):
            services.check_in_by_pin(tournament, five[2], "000000x", director)
    make_pin(five[2], director)
    with pytest.raises(services.CheckInError) as refused:
        services.check_in_by_pin(tournament, five[2], "anything", director)
    assert refused.value.status == 429


def test_the_desk_page_taps_a_pair_in_and_takes_it_back(client, tournament, five, director):
    client.force_login(director)
    url = reverse("desk-check-in", args=[tournament.slug])
    client.post(url, {"action": "in", "pair": five[3].pk})
    assert CheckIn.objects.filter(pair=five[3]).exists()
    client.post(url, {"action": "undo", "pair": five[3].pk})
    assert not CheckIn.objects.exists()


def test_the_tablet_checks_a_pair_in_with_its_pin_in_the_visitors_language(
    client, tournament, five, director
):
    pin = make_pin(five[4], director)
    client.force_login(director)
    url = reverse("desk-check-in-tablet", args=[tournament.slug])
    wrong = client.post(url, {"pair": five[4].pk, "pin": "nope"})
    assert wrong.status_code == 403 and "这不是该队的 PIN 码。" in wrong.content.decode()
    assert client.post(url, {"pair": five[4].pk, "pin": pin}).status_code == 302
    assert CheckIn.objects.get().pair == five[4]


@pytest.mark.parametrize("name", ["desk-check-in", "desk-check-in-tablet"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_the_check_in_pages_need_the_director(client, tournament, five, judge, name, method):
    url = reverse(name, args=[tournament.slug])
    fields = {"action": "in", "pair": five[0].pk}
    answer = getattr(client, method)(url, fields)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    client.force_login(judge)
    assert getattr(client, method)(url, fields).status_code == 403
    assert not CheckIn.objects.exists()


@pytest.mark.parametrize("posted", ["²", "①", "٣"])
def test_a_pair_number_in_other_digits_is_refused_in_words_not_a_500(
    client, tournament, five, director, posted
):
    client.force_login(director)
    response = client.post(reverse("desk-check-in", args=[tournament.slug]), {"action": "in", "pair": posted})
    assert response.status_code == 200 and not CheckIn.objects.exists()  # the page, with its refusal
