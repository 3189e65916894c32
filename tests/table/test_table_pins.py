"""Confirmation at the table: after the submit, a player of each pair types their pair's PIN on the same device
and the deal is confirmed by both (no pair alone records and confirms its own result); wrong PINs are refused
and counted per pair; the director or another judge still confirm as before, a captain only what a judge
submitted."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from referee.table.recording import pin_confirm as pins
from tests.table.helpers import JSON, Clock, as_user, key, open_link, submitted_by
from tests.threads import in_thread
from tournaments.models import Deal, PairPin, TableLink
from tournaments.scoring import corrections
from tournaments.table_links import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def device(card):
    return open_link(card.token)[1]


@pytest.fixture
def submitted(card, match, device):
    """A deal the table's device submitted (quick entry)."""
    return submitted_by(match, TableLink.objects.get(match=match).account)


def pin_confirm(client, deal, ns: str, ew: str, **headers):
    fields = {"pin_NS": ns, "pin_EW": ew, "version": Deal.objects.get(pk=deal.pk).version, "_key": key()}
    return client.post(reverse("deal-pin-confirm", args=[deal.pk]), fields, **(headers or JSON))


def test_a_pin_is_six_digits_kept_only_as_a_slow_hash(card, match):
    pin = card.pins[0]
    stored = PairPin.objects.get(pair=match.pair_ns).pin_hash
    assert len(pin) == 6 and pin.isdigit()
    assert pin not in stored and stored.startswith("pin_pbkdf2_sha256$")
    assert services.pin_matches(match.pair_ns, pin) and not services.pin_matches(match.pair_ew, pin)


def test_both_pairs_pins_confirm_the_deal_the_same_device_submitted(card, match, device, submitted):
    answer = pin_confirm(device, submitted, *card.pins)
    assert answer.status_code == 200, answer.content
    deal = Deal.objects.get(pk=submitted.pk)
    assert deal.state == Deal.State.CONFIRMED and deal.confirmed_at is not None
    assert deal.confirmed_by_pair == match.pair_ew
    assert deal.confirmed_by == TableLink.objects.get(match=match).account
    assert deal.history.first().confirmed_by_pair_id == match.pair_ew.pk  # the change history keeps it


def test_the_review_says_both_pairs_confirmed_with_their_pins(card, match, device, submitted):
    pin_confirm(device, submitted, *card.pins)
    page = device.get(reverse("review", args=[submitted.pk])).content.decode()
    assert "Confirmed at the table with both pairs' PINs" in page


@pytest.mark.parametrize(
    ("ns_pin_of", "ew_pin_of"),
    [
        ("NS", "none"),
        ("none", "EW"),
        ("EW", "NS"),
        ("NS", "NS"),
        ("EW", "EW"),
        ("wrong", "EW"),
        ("NS", "letters"),
    ],
)
def test_one_pairs_pin_alone_or_a_wrong_pin_is_refused_and_the_deal_waits(
    card, device, submitted, ns_pin_of, ew_pin_of
):
    pins = {"NS": card.pins[0], "EW": card.pins[1], "wrong": "000000", "letters": "12a456", "none": ""}
    if card.pins[0] == "000000":
        pins["wrong"] = "000001"
    answer = pin_confirm(device, submitted, pins[ns_pin_of], pins[ew_pin_of])
    assert answer.status_code == 400 and answer.json()["message"]
    assert Deal.objects.get(pk=submitted.pk).state == Deal.State.SUBMITTED


def test_a_wrong_pin_typed_on_the_form_stays_on_the_form_with_the_sentence(card, match, device, submitted):
    device.cookies["django_language"] = "en"
    wrong = "111111" if card.pins[1] != "111111" else "222222"
    page = pin_confirm(device, submitted, card.pins[0], wrong, HTTP_ACCEPT="text/html")
    text = page.content.decode()
    assert page.status_code == 400 and 'data-testid="pin-confirm"' in text
    assert f"That is not {match.pair_ew.name}&#x27;s PIN." in text and 'data-testid="pin-error"' in text


def test_the_device_that_submits_a_deal_lands_on_the_pin_form(match, device):
    deal = submitted_by(match, TableLink.objects.get(match=match).account)
    corrections.reopen_deal(deal, match.judge or deal.submitted_by, version=deal.version, reason="x")
    deal.refresh_from_db()
    url = reverse("deal-submit", args=[deal.pk])
    answer = device.post(url, {"version": deal.version, "_key": key()})
    assert answer.status_code == 302 and answer["Location"] == reverse("review", args=[deal.pk]) + "#pin"


def test_five_wrong_pins_lock_the_pair_out_even_with_its_right_pin(card, device, submitted):
    wrong = "111111" if card.pins[0] != "111111" else "222222"
    for _n in range(5):
        assert pin_confirm(device, submitted, wrong, card.pins[1]).status_code == 400
    locked = pin_confirm(device, submitted, *card.pins)
    assert locked.status_code == 429 and "Too many wrong PINs" in locked.json()["message"]
    assert Deal.objects.get(pk=submitted.pk).state == Deal.State.SUBMITTED


@pytest.mark.parametrize(("submitter", "may_confirm"), [("the table's device", False), ("the judge", True)])
def test_a_captain_confirms_only_what_a_judge_submitted(
    card, match, judge, django_user_model, submitter, may_confirm
):
    account = TableLink.objects.get(match=match).account if submitter == "the table's device" else judge
    deal = submitted_by(match, account)
    captain = django_user_model.objects.create_user("captain-ns", password="x")
    match.pair_ns.captain = captain
    match.pair_ns.save()
    answer = as_user(captain).post(reverse("deal-confirm", args=[deal.pk]), {"version": deal.version}, **JSON)
    assert (answer.status_code == 200) is may_confirm
    assert (Deal.objects.get(pk=deal.pk).state == Deal.State.CONFIRMED) is may_confirm


def test_the_device_that_submitted_cannot_confirm_without_a_pin(device, submitted):
    answer = device.post(reverse("deal-confirm", args=[submitted.pk]), {"version": submitted.version}, **JSON)
    assert answer.status_code == 403
    assert Deal.objects.get(pk=submitted.pk).state == Deal.State.SUBMITTED


def test_the_director_still_confirms_a_deal_a_device_submitted(director, submitted):
    answer = as_user(director).post(
        reverse("deal-confirm", args=[submitted.pk]), {"version": submitted.version}, **JSON
    )
    assert answer.status_code == 200
    deal = Deal.objects.get(pk=submitted.pk)
    assert deal.confirmed_by == director and deal.confirmed_by_pair is None


def test_reopening_forgets_the_pair_that_confirmed(card, director, device, submitted):
    pin_confirm(device, submitted, *card.pins)
    deal = Deal.objects.get(pk=submitted.pk)
    corrections.reopen_deal(deal, director, version=deal.version, reason="mistyped")
    assert Deal.objects.get(pk=submitted.pk).confirmed_by_pair is None


@pytest.mark.parametrize(
    ("who", "sees_form", "may_confirm"),
    [
        ("anonymous", False, False),
        ("the table's device", True, True),
        ("another table's device", False, False),
        ("the table's judge", True, True),
        ("another judge", False, False),
        ("the director", True, True),
    ],
)
def test_who_is_offered_the_pin_form_and_may_use_it(
    card, match, other_match, director, judge, make_judge, device, submitted, who, sees_form, may_confirm
):
    if who == "another table's device":
        client = open_link(services.issue_card(other_match, director).token)[1]
    else:
        clients = {"anonymous": Client(), "the table's device": device, "the table's judge": as_user(judge)}
        clients |= {"another judge": as_user(make_judge("other")), "the director": as_user(director)}
        client = clients[who]
    client.cookies["django_language"] = "en"
    page = client.get(reverse("review", args=[submitted.pk]))
    assert ('data-testid="pin-confirm"' in page.content.decode()) is sees_form
    answer = pin_confirm(client, submitted, *card.pins)
    assert (Deal.objects.get(pk=submitted.pk).state == Deal.State.CONFIRMED) is may_confirm, (
        answer.status_code
    )


def test_the_match_page_leads_the_device_to_the_pin_form(match, device, submitted):
    page = device.get(reverse("match", args=[match.pk])).content.decode()
    assert f'href="{reverse("review", args=[submitted.pk])}#pin"' in page


def wrong_pin(card) -> str:
    return "111111" if card.pins[0] != "111111" else "222222"


def test_the_pin_lock_lasts_exactly_its_ten_minutes_on_the_file_cache(
    card, device, submitted, monkeypatch, file_cache
):
    clock = Clock(monkeypatch)
    for _n in range(5):  # north–south's PIN wrong five times, east–west's right
        assert pin_confirm(device, submitted, wrong_pin(card), card.pins[1]).status_code == 400
        clock.advance(1)
    clock.advance(400)
    assert pin_confirm(device, submitted, *card.pins).status_code == 429  # 405 s after the first
    clock.advance(196)  # 601 s after the first: the window is over
    assert pin_confirm(device, submitted, *card.pins).status_code == 200


def test_a_pin_lock_outlasts_two_hundred_public_page_addresses(card, match, device, submitted, file_cache):
    for _n in range(5):
        pin_confirm(device, submitted, wrong_pin(card), card.pins[1])
    visitor = Client()
    for n in range(200):
        assert (
            visitor.get(reverse("tournament", args=[match.round.tournament.slug]) + f"?p={n}").status_code
            == 200
        )
    assert pin_confirm(device, submitted, *card.pins).status_code == 429


def test_sixty_four_wrong_pins_at_once_check_only_five(card, submitted, monkeypatch):
    checked = []

    def slow_wrong(pair, pin):
        checked.append(pin)
        time.sleep(0.02)  # the slow hash: every try is in flight at once
        return False

    monkeypatch.setattr(services, "pin_matches", slow_wrong)
    monkeypatch.setattr(pins, "can_confirm_by_pin", lambda user, deal: True)
    deal = Deal.objects.select_related("match__pair_ns", "match__pair_ew").get(pk=submitted.pk)
    threads = [in_thread(lambda: pins.checked_pair(deal, None, "NS", "123456")) for _n in range(64)]
    for thread, _outcome in threads:
        thread.join()
    outcomes = [outcome[0] for _thread, outcome in threads]
    assert len(checked) == 5
    assert sum(isinstance(o, pins.TooManyPins) for o in outcomes) == 59


def test_a_pair_locked_at_the_table_is_refused_at_the_check_in_tablet(
    card, match, director, device, submitted
):
    from tournaments.checkin import services as checkin

    for _n in range(5):
        assert pin_confirm(device, submitted, wrong_pin(card), card.pins[1]).status_code == 400
    with pytest.raises(checkin.CheckInError) as refused:
        checkin.check_in_by_pin(match.round.tournament, match.pair_ns, card.pins[0], director)
    assert refused.value.status == 429 and not match.pair_ns.check_ins.exists()


def test_sixty_four_wrong_check_in_pins_at_once_check_only_five(card, match, director, monkeypatch):
    from tournaments.checkin import services as checkin

    checked = []

    def slow_wrong(pair, pin):
        checked.append(pin)
        time.sleep(0.02)  # the slow hash: every try is in flight at once
        return False

    monkeypatch.setattr(services, "pin_matches", slow_wrong)
    monkeypatch.setattr(checkin, "pin_matches", slow_wrong, raising=False)
    t, pair = match.round.tournament, match.pair_ns
    threads = [in_thread(lambda: checkin.check_in_by_pin(t, pair, "123456", director)) for _n in range(64)]
    for thread, _outcome in threads:
        thread.join()
    outcomes = [outcome[0] for _thread, outcome in threads]
    assert len(checked) == 5
    assert sum(getattr(o, "status", None) == 429 for o in outcomes) == 59
