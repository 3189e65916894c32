"""The match page and the desk's board agree on a table's levels (issue 30 item 7): the board shows the confirmed
deals' levels, the match page the levels the table plays on, and while a deal waits for confirmation each says
which it shows."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.table.helpers import as_user, confirmed_deal, submitted_by


@pytest.fixture
def waiting(match, judge):
    """A deal the judge submitted that moves the levels, not yet confirmed."""
    deal = submitted_by(match, judge)
    match.refresh_from_db()
    return deal


def test_the_match_page_names_the_confirmed_levels_while_a_deal_waits(waiting, match, director):
    page = as_user(director).get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="official-levels"' in page
    assert "以上级数包含 1 局待确认的牌局；确认之前，排名和裁判台看板显示 2 : 2。" in page


def test_the_board_marks_its_levels_as_the_confirmed_deals_while_a_deal_waits(waiting, match, director):
    slug = match.round.tournament.slug
    page = as_user(director).get(reverse("desk-board", args=[slug])).content.decode()
    assert "（已确认的牌局）" in page


def test_no_note_once_the_deal_is_confirmed(match, director):
    confirmed_deal(match, director)
    page = as_user(director).get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-testid="official-levels"' not in page
