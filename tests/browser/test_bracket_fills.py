"""The public bracket filling itself on a phone: a Swiss of 24 pairs, then a top-8 knockout whose rounds after the
first pair and publish themselves as the tables confirm their last deals; a spectator reloads after each round.
Screenshots go to test-output/screenshots/kodone/ (with SCREENSHOTS=1)."""

from __future__ import annotations

import pytest

from referee.table.simulation import simulate_round
from tests.browser import shots
from tests.browser.helpers import expect
from tests.desk.helpers import swiss_stage
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.accounts import create_director
from tournaments.models import Match, Round
from tournaments.pairing.services import pair_round
from tournaments.pairing.ties import decide_tie

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("kodone")


def test_the_public_bracket_fills_round_by_round_on_a_phone(page, make_pair):
    director = create_director("td", "director-pass-1")
    t = swiss_stage(make_pair, "winter")
    publish_round(
        pair_round(t)
    )  # the director's seeding review is the desk's (tests/desk/test_knockout_done.py)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto_path(f"/t/{t.slug}/bracket/")
    expect(page.get_by_test_id("bracket")).to_be_visible()
    expect(page.locator(".bracket-line.won")).to_have_count(0)
    shots.save(page, SHOTS / "bracket-phone-0-quarter-finals.png", full_page=True)
    won = 0
    for number, tables, name in ((7, 4, "semi-finals"), (8, 2, "final"), (9, 1, "placings")):
        simulate_round(t, number, director, seed=number)
        for m in Match.objects.filter(round__tournament=t, round__number=number, winner=None):
            decide_tie(
                m, m.pair_ns_id, "庄家局数多", director
            )  # a level match decided: the next round on commit
        won += tables
        page.reload()
        expect(page.locator(".bracket-line.won")).to_have_count(won)
        following = Round.objects.filter(tournament=t, number=number + 1).first()
        if following is not None:
            for m in following.matches.select_related("pair_ns", "pair_ew"):
                expect(page.locator(".bracket-round").nth(number - 6)).to_contain_text(m.pair_ns.name)
                expect(page.locator(".bracket-round").nth(number - 6)).to_contain_text(m.pair_ew.name)
        else:
            expect(page.get_by_test_id("placings")).to_contain_text("队")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the bracket scrolls in its box
        shots.save(page, SHOTS / f"bracket-phone-{number - 6}-{name}.png", full_page=True)
    final = page.locator(".bracket-round").last
    final.scroll_into_view_if_needed()  # the bracket's box scrolled to its last column: the final, its winner
    expect(final.locator(".bracket-line.won")).to_have_count(1)
    shots.save(page, SHOTS / "bracket-phone-4-final-scrolled.png")
