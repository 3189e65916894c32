"""Check-in and adjusted results as the director walks them: in English, five of six pairs tapped in, round 1
paired with the absent pair withdrawn for the round (paired around), published, and a forfeit awarded on the
adjusted results page (its result, the match page's reason, the standings' mark); for round 2, in Chinese, a pair
checks itself in on the desk's tablet with its PIN (a wrong one refused in a sentence), the absent pair is paired
and forfeits when the round is published. The pages are server-drawn forms with no script, so Django's client
walks them (this was a browser test; the check-in services are tests/calls/test_check_in.py's)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.desk.helpers import enter_pairs, finish
from tournaments.competition.accounts import create_director
from tournaments.models import Adjustment, Match, Tournament
from tournaments.table_links.services import make_pin

pytestmark = pytest.mark.django_db


def paired(rnd) -> set[int]:
    ids = {p for m in rnd.matches.all() for p in (m.pair_ns_id, m.pair_ew_id)}
    return ids | set(rnd.byes.values_list("pair_id", flat=True))


def shown(html: str, testid: str) -> str:
    """The text of the element marked ``data-testid=testid`` (its tags taken out)."""
    found = re.search(rf'<(\w+)[^>]*data-testid="{testid}"[^>]*>(.*?)</\1>', html, re.S)
    assert found, f"no {testid} on the page"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(2)).split())


def tap_in(desk: Client, url: str, pairs) -> str:
    """Each pair's Check in button, as the desk taps it; the page after the last tap."""
    for pair in pairs:
        page = desk.post(url, {"action": "in", "pair": pair.pk}, follow=True).content.decode()
        assert f'<tr data-pair="{pair.pk}" class="checked-in">' in page, pair.name
    return page


def test_a_no_show_is_paired_around_a_forfeit_is_awarded_and_an_absent_pair_forfeits():
    director = create_director("td", "director-pass-1")
    t = Tournament.objects.create(name="签到赛", slug="check", ruleset={"preset": "standard"})
    pairs = enter_pairs(t, ["东风", "西风", "南风", "北风", "红中", "白板"])
    desk = Client()
    desk.cookies["django_language"] = "en"
    desk.force_login(director)
    check_in = reverse("desk-check-in", args=[t.slug])

    # Round 1: 白板 does not come; it is withdrawn for the round and the others are paired around it.
    page = tap_in(desk, check_in, pairs[:5])
    assert shown(page, "here-count") == "5 of 6 pairs checked in"
    assert ">Pair the round</button>" in page
    answer = desk.post(check_in, {"action": "pair", "absent_as": "sit_out"})
    assert answer.status_code == 302 and answer["Location"] == reverse("desk-round", args=[t.slug, 1])
    rnd = t.rounds.get(number=1)
    assert pairs[5].pk not in paired(rnd) and paired(rnd) == {p.pk for p in pairs[:5]}
    assert ">Publish the round</button>" in desk.get(answer["Location"]).content.decode()
    assert desk.post(reverse("desk-publish-round", args=[t.slug, 1])).status_code == 302
    assert "Publish the round" not in desk.get(reverse("desk-round", args=[t.slug, 1])).content.decode()

    # A forfeit awarded by the director, with its reason.
    first, *others = rnd.matches.order_by("table")
    adjust = reverse("desk-adjust", args=[t.slug, first.pk])
    assert ">Record the adjusted result</button>" in desk.get(adjust).content.decode()
    reason = "East–West left before the first deal."
    answer = desk.post(adjust, {"kind": "forfeit", "side": "NS", "reason": reason}, follow=True)
    result = shown(answer.content.decode(), "match-result")
    assert f"{first.pair_ns.name} won" in result and "forfeit" in result, result
    assert reason in shown(desk.get(reverse("match", args=[first.pk])).content.decode(), "adjusted-result")
    standings = desk.get(reverse("standings", args=[t.slug])).content.decode()
    assert "adjusted result" in standings.split('class="table standings', 1)[1]
    for match in others:
        finish(match, match.pair_ns, "5", "3")

    # Round 2, in Chinese: 东风 checks itself in on the tablet; 南风 does not come, and forfeits.
    pin = make_pin(pairs[0], director)
    desk.cookies["django_language"] = "zh-hans"
    tablet = reverse("desk-check-in-tablet", args=[t.slug])
    wrong = desk.post(tablet, {"pair": pairs[0].pk, "pin": "0" if pin != "0" else "1"}).content.decode()
    assert "这不是该队的 PIN 码。" in wrong.split("check-in-tablet", 1)[1].split("</form>", 1)[0]
    welcomed = desk.post(tablet, {"pair": pairs[0].pk, "pin": pin}, follow=True).content.decode()
    assert "东风 已签到，欢迎！" in welcomed
    page = tap_in(desk, check_in, [pairs[1], pairs[3], pairs[4], pairs[5]])
    assert shown(page, "here-count") == "6 队中已有 5 队签到"
    answer = desk.post(check_in, {"action": "pair", "absent_as": "forfeit"})
    assert answer.status_code == 302 and answer["Location"] == reverse("desk-round", args=[t.slug, 2])
    rnd2 = t.rounds.get(number=2)
    assert pairs[2].pk in paired(rnd2)
    assert desk.post(reverse("desk-publish-round", args=[t.slug, 2])).status_code == 302
    assert "发布本轮" not in desk.get(reverse("desk-round", args=[t.slug, 2])).content.decode()
    match = Match.objects.get(
        pk=next(m.pk for m in rnd2.matches.all() if pairs[2].pk in (m.pair_ns_id, m.pair_ew_id))
    )
    assert match.state == "finished" and match.winner_id != pairs[2].pk and match.ended_by == "forfeit"
    assert Adjustment.objects.get(match=match).reason == "签到时缺席"
    assert "签到时缺席" in shown(
        desk.get(reverse("match", args=[match.pk])).content.decode(), "adjusted-result"
    )
    assert "南风" in shown(desk.get(check_in).content.decode(), "absences")
