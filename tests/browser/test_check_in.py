"""Check-in and adjusted results in a browser: the director (in English) taps five of six pairs in, pairs round 1
with the absent pair withdrawn for the round (paired around), publishes it and awards a forfeit on the adjusted
results page; for round 2 (in Chinese) a pair checks itself in on the desk's tablet with its PIN, the absent pair
is paired and forfeits when the round is published."""

from __future__ import annotations

import pytest

from tests.browser.helpers import enter_pairs, expect, login
from tests.desk.helpers import finish
from tournaments.competition.accounts import create_director
from tournaments.models import Adjustment, Match, Tournament
from tournaments.table_links.services import make_pin

pytestmark = pytest.mark.django_db(transaction=True)


def language(page, live_server, code: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": code, "url": live_server.url}])


def tap_in(page, pairs) -> None:
    for pair in pairs:
        page.locator(f"tr[data-pair='{pair.pk}'] button[value=in]").click()
        expect(page.locator(f"tr[data-pair='{pair.pk}'].checked-in")).to_have_count(1)


def paired(rnd) -> set[int]:
    ids = {p for m in rnd.matches.all() for p in (m.pair_ns_id, m.pair_ew_id)}
    return ids | set(rnd.byes.values_list("pair_id", flat=True))


def test_a_no_show_is_paired_around_a_forfeit_is_awarded_and_an_absent_pair_forfeits(
    page, live_server, screenshot
):
    director = create_director("td", "director-pass-1")
    t = Tournament.objects.create(name="签到赛", slug="check", ruleset={"preset": "standard"})
    pairs = enter_pairs(t, ["东风", "西风", "南风", "北风", "红中", "白板"])
    language(page, live_server, "en")
    login(page, "td", "director-pass-1")

    # Round 1: 白板 does not come; it is withdrawn for the round and the others are paired around it.
    page.goto_path(f"/t/{t.slug}/desk/check-in/")
    tap_in(page, pairs[:5])
    expect(page.get_by_test_id("here-count")).to_have_text("5 of 6 pairs checked in")
    screenshot(page, "check-in-en")
    page.locator("input[name=absent_as][value=sit_out]").check()
    page.get_by_role("button", name="Pair the round").click()
    page.wait_for_url(f"**/t/{t.slug}/desk/rounds/1/")
    rnd = t.rounds.get(number=1)
    assert pairs[5].pk not in paired(rnd) and paired(rnd) == {p.pk for p in pairs[:5]}
    page.get_by_role("button", name="Publish the round").click()
    expect(page.get_by_role("button", name="Publish the round")).to_have_count(0)

    # A forfeit awarded by the director, with its reason.
    first, *others = rnd.matches.order_by("table")
    page.goto_path(f"/t/{t.slug}/desk/matches/{first.pk}/adjust/")
    page.locator("input[name=kind][value=forfeit]").check()
    page.select_option("select[name=side]", "NS")
    page.fill("input[name=reason]", "East–West left before the first deal.")
    page.get_by_role("button", name="Record the adjusted result").click()
    expect(page.get_by_test_id("match-result")).to_contain_text(f"{first.pair_ns.name} won")
    expect(page.get_by_test_id("match-result")).to_contain_text("forfeit")
    page.goto_path(f"/match/{first.pk}/")
    expect(page.get_by_test_id("adjusted-result")).to_contain_text("East–West left before the first deal.")
    page.goto_path(f"/t/{t.slug}/standings/")
    expect(page.locator("table.standings")).to_contain_text("adjusted result")
    for match in others:
        finish(match, match.pair_ns, "5", "3")

    # Round 2, in Chinese: 东风 checks itself in on the tablet; 南风 does not come, and forfeits.
    pin = make_pin(pairs[0], director)
    language(page, live_server, "zh-hans")
    page.goto_path(f"/t/{t.slug}/desk/check-in/tablet/")
    page.select_option("select[name=pair]", str(pairs[0].pk))
    page.fill("input[name=pin]", "0" if pin != "0" else "1")
    page.get_by_role("button", name="签到").click()
    expect(page.locator("form.check-in-tablet .errorlist")).to_contain_text("这不是该队的 PIN 码。")
    page.select_option("select[name=pair]", str(pairs[0].pk))
    page.fill("input[name=pin]", pin)
    page.get_by_role("button", name="签到").click()
    expect(page.locator("body")).to_contain_text("东风 已签到，欢迎！")
    screenshot(page, "tablet-zh")
    page.goto_path(f"/t/{t.slug}/desk/check-in/")
    tap_in(page, [pairs[1], pairs[3], pairs[4], pairs[5]])
    expect(page.get_by_test_id("here-count")).to_have_text("6 队中已有 5 队签到")
    page.locator("input[name=absent_as][value=forfeit]").check()
    page.get_by_role("button", name="编排本轮").click()
    page.wait_for_url(f"**/t/{t.slug}/desk/rounds/2/")
    rnd2 = t.rounds.get(number=2)
    assert pairs[2].pk in paired(rnd2)
    page.get_by_role("button", name="发布本轮").click()
    expect(page.get_by_role("button", name="发布本轮")).to_have_count(0)
    match = Match.objects.get(
        pk=next(m.pk for m in rnd2.matches.all() if pairs[2].pk in (m.pair_ns_id, m.pair_ew_id))
    )
    assert match.state == "finished" and match.winner_id != pairs[2].pk and match.ended_by == "forfeit"
    assert Adjustment.objects.get(match=match).reason == "签到时缺席"
    page.goto_path(f"/match/{match.pk}/")
    expect(page.get_by_test_id("adjusted-result")).to_contain_text("签到时缺席")
    page.goto_path(f"/t/{t.slug}/desk/check-in/")
    expect(page.get_by_test_id("absences")).to_contain_text("南风")
    screenshot(page, "absent-zh")
