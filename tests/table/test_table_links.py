"""A table's link (the QR code on its card): a device that opens it records that table alone, with no account,
until the link is revoked or the round or tournament is finished; wrong links are counted per address."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.table.helpers import Clock, as_user, open_link
from tournaments.competition import access
from tournaments.models import Round, TableDevice, TableLink
from tournaments.table_links import services

pytestmark = pytest.mark.django_db

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1"
)


def test_a_link_carries_256_random_bits_and_the_database_keeps_only_its_sha256(card, match):
    link = TableLink.objects.get(match=match)
    assert len(card.token) >= 43  # token_urlsafe(32): 256 bits
    assert link.token_hash == hashlib.sha256(card.token.encode()).hexdigest()
    stored = [str(v) for v in TableLink.objects.filter(pk=link.pk).values().get().values()]
    stored += [str(v) for v in get_user_model().objects.filter(pk=link.account_id).values().get().values()]
    assert not [v for v in stored if card.token in v]


def test_two_cards_never_share_a_token(card, match, director):
    assert services.issue_card(match, director).token != card.token


def test_the_link_signs_a_fresh_device_in_and_opens_its_table(card, match):
    response, device = open_link(card.token)
    assert response.status_code == 302 and response["Location"] == reverse("match", args=[match.pk])
    assert device.get(reverse("new_deal", args=[match.pk])).status_code == 200


def test_the_device_is_refused_another_tables_pages_in_one_sentence(card, other_match):
    _response, device = open_link(card.token)
    for name in ("match", "new_deal"):
        page = device.get(reverse(name, args=[other_match.pk]))
        assert page.status_code == 403
        assert "This device records only the table whose card it scanned." in page.content.decode()


def test_the_devices_account_has_no_other_right(card, match, director):
    _response, device = open_link(card.token)
    account = TableLink.objects.get(match=match).account
    assert not account.has_usable_password()
    assert not (access.is_director(account) or access.is_judge(account) or access.is_captain_account(account))
    assert device.get(reverse("desk", args=["spring"])).status_code == 403
    assert device.get(reverse("desk-table-links", args=["spring", 1])).status_code == 403


@pytest.mark.parametrize(
    ("who", "own_table", "other_table"),
    [
        ("anonymous", 302, 302),
        ("the table's device", 200, 403),
        ("a revoked device", 403, 403),
        ("the table's judge", 200, 403),
        ("the director", 200, 200),
    ],
)
def test_who_opens_the_new_deal_page_of_each_table(
    card, match, other_match, judge, director, who, own_table, other_table
):
    client = {
        "anonymous": Client(),
        "the table's judge": as_user(judge),
        "the director": as_user(director),
    }.get(who)
    if client is None:
        _response, client = open_link(card.token)
        if who == "a revoked device":
            services.revoke(match)
    assert client.get(reverse("new_deal", args=[match.pk])).status_code == own_table
    assert client.get(reverse("new_deal", args=[other_match.pk])).status_code == other_table


def test_a_revoked_link_stops_the_device_and_opens_no_more(card, match):
    _response, device = open_link(card.token)
    services.revoke(match)
    page = device.get(reverse("match", args=[match.pk]))
    assert page.status_code == 403 and "no longer works" in page.content.decode()
    again, _client = open_link(card.token)
    assert again.status_code == 404 and "This table link does not work" in again.content.decode()


def test_a_new_card_takes_the_table_back_from_the_old_links_devices(card, match, director):
    _response, old_device = open_link(card.token)
    new = services.issue_card(match, director)
    assert old_device.get(reverse("new_deal", args=[match.pk])).status_code == 403
    _response, new_device = open_link(new.token)
    assert new_device.get(reverse("new_deal", args=[match.pk])).status_code == 200


@pytest.mark.parametrize("what", ["round", "tournament"])
def test_the_link_stops_when_its_round_or_tournament_is_finished(card, match, what):
    _response, device = open_link(card.token)
    if what == "round":
        Round.objects.filter(pk=match.round_id).update(state=Round.State.FINISHED)
    else:
        type(match.round.tournament).objects.filter(pk=match.round.tournament_id).update(
            finished_at=timezone.now()
        )
    assert device.get(reverse("new_deal", args=[match.pk])).status_code == 403
    assert open_link(card.token)[0].status_code == 404


def test_twenty_wrong_links_a_minute_from_one_address_are_refused_then(card):
    for n in range(20):
        assert open_link(f"wrong-{n}")[0].status_code == 404
    refused, _client = open_link("wrong-21")
    assert refused.status_code == 429 and "Too many wrong table links" in refused.content.decode()


def test_a_live_link_opens_from_an_address_that_has_run_out_of_tries(card, match):
    for n in range(21):
        open_link(f"garbage-{n}")
    opened, _client = open_link(card.token)
    assert opened.status_code == 302 and opened["Location"] == reverse("match", args=[match.pk])


def test_the_links_window_is_exactly_its_minute_from_the_first_wrong_link(card, monkeypatch, file_cache):
    clock = Clock(monkeypatch)
    for n in range(20):
        open_link(f"wrong-{n}")
        clock.advance(2)
    clock.advance(59 - 40)  # 59 s after the first
    assert open_link("wrong-again")[0].status_code == 429
    clock.advance(2)  # 61 s after the first: a new window
    assert open_link("wrong-again")[0].status_code == 404


def test_a_working_link_is_never_counted_against_the_address(card):
    for _n in range(25):
        assert open_link(card.token)[0].status_code == 302


def test_each_device_that_opened_the_link_is_listed_once(card, match):
    _response, phone = open_link(card.token, HTTP_USER_AGENT=IPHONE)
    open_link(card.token, phone, HTTP_USER_AGENT=IPHONE)
    open_link(card.token, HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/120.0 Mobile")
    devices = TableDevice.objects.filter(link__match=match).order_by("pk")
    assert [d.user_agent for d in devices] == ["Safari · iPhone", "Chrome · Android"]


@pytest.mark.parametrize(
    ("user_agent", "summary"),
    [
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S9180 Build/TP1A.220624.014; wv) AppleWebKit/537.36 Version/4.0 "
            "Chrome/116 Mobile Safari/537.36 MicroMessenger/8.0.42",
            "WeChat · Android SM-S9180",
        ),
        (
            "Mozilla/5.0 (Linux; U; Android 12; zh-cn; 22081212C Build/SKQ1) AppleWebKit/537.36 Chrome/100 "
            "MQQBrowser/13.4 Mobile Safari/537.36",
            "QQ Browser · Android 22081212C",
        ),
        (
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36",
            "Chrome · Android",
        ),
        (
            "Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00) AppleWebKit/537.36 Chrome/99 HuaweiBrowser/14.0 "
            "Mobile Safari/537.36",
            "Huawei Browser · HarmonyOS",
        ),
    ],
)
def test_a_device_is_named_by_its_own_browser_and_phone_model_not_the_chrome_inside(user_agent, summary):
    assert services.user_agent_summary(user_agent) == summary


def test_the_desk_numbers_the_devices_of_a_link(card, match, director):
    open_link(card.token, HTTP_USER_AGENT=IPHONE)
    open_link(card.token, HTTP_USER_AGENT=IPHONE)  # a second phone of the same kind
    client = Client()
    client.force_login(director)
    page = client.get(reverse("desk-table-links", args=[match.round.tournament.slug, match.round.number]))
    html = page.content.decode()
    assert "设备 1：" in html and "设备 2：" in html


def test_the_device_is_named_by_its_table_never_by_its_account(card, match):
    from django.utils import translation

    from tournaments.competition.accounts import display_name

    account = TableLink.objects.get(match=match).account
    with translation.override("en"):
        assert display_name(account) == "the device at table 1"
    with translation.override("zh-hans"):
        assert display_name(account) == "第1桌的设备"


def test_the_devices_visits_to_its_match_page_keep_its_last_visit(card, match):
    _response, device = open_link(card.token)
    row = TableDevice.objects.get(link__match=match)
    TableDevice.objects.filter(pk=row.pk).update(last_seen=row.last_seen - timezone.timedelta(minutes=5))
    device.get(reverse("match", args=[match.pk]))
    assert TableDevice.objects.get(pk=row.pk).last_seen > row.last_seen - timezone.timedelta(minutes=1)


def test_a_signed_in_director_is_asked_before_a_link_signs_them_out(card, match, director):
    browser = as_user(director)
    url = reverse("table-link", args=[card.token])
    asked = browser.get(url)
    assert asked.status_code == 200 and b'method="post"' in asked.content
    assert browser.session["_auth_user_id"] == str(director.pk)  # a GET from anywhere changes nothing
    switched = browser.post(url)
    assert switched.status_code == 302 and switched["Location"] == reverse("match", args=[match.pk])
    assert browser.session["_auth_user_id"] == str(TableLink.objects.get(match=match).account_id)


def test_a_cross_site_post_cannot_switch_a_signed_in_browser(card, director):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(director)
    assert browser.post(reverse("table-link", args=[card.token])).status_code == 403
    assert browser.session["_auth_user_id"] == str(director.pk)


def test_a_link_scanned_by_many_cookieless_browsers_lists_a_bounded_number_of_devices(card, match):
    for _n in range(30):
        assert open_link(card.token)[0].status_code == 302
    assert TableDevice.objects.filter(link__match=match).count() == services.MAX_DEVICES


def test_a_round_taken_back_to_draft_and_published_again_revives_none_of_its_links(card, match):
    from tournaments.checkin.forfeits import publish_round
    from tournaments.pairing.services import unpublish_round

    unpublish_round(match.round)
    publish_round(match.round)
    assert open_link(card.token)[0].status_code == 404
