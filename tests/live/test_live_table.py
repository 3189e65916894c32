"""A featured table followed live: the public page never shows a trick the director's delay still hides (checked
against the plays as recorded through the service, at several points of a deal), counts the attackers' points
from the shown tricks alone, shows the hands only once the deal is confirmed, answers a poll that finds nothing
new with a 304; a table not featured, or a hidden tournament's, is a 404; only the tournament's directors feature
a table."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry
from rules.judge import judge as judge_record
from rules.seats import side_of
from tests.table.helpers import play_through_service, record_play, simulated
from tournaments.competition.display import card_faces
from tournaments.live import services
from tournaments.models import FeaturedTable, Membership, Organisation, Role, Tournament

SHOWN = re.compile(r'data-shown="(\d+)"')
TRICK = re.compile(r'data-trick="(\d+)"')


def live_url(tournament, table: int = 1) -> str:
    return reverse("live-table", args=[tournament.slug, table])


def poll(client: Client, tournament, etag: str | None = None):
    headers = {"HTTP_X_LIVE": "1"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(live_url(tournament), **headers)


def shown_on(page: str) -> tuple[int, set[int]]:
    """The number of tricks the page says it shows, and the trick numbers it draws."""
    return int(SHOWN.search(page).group(1)), {int(n) for n in TRICK.findall(page)}


def attackers_points(record: dict, tricks: int) -> int:
    """The attackers' points of the record's first ``tricks`` tricks, judged by the engine on them alone."""
    partial = {**record, "tricks": record["tricks"][:tricks], "partial": True, "kitty": ""}
    verdict = judge_record(partial, live=True)
    side = side_of(record["banker"])
    return sum(t.points for t in verdict.tricks if t.winner and side_of(t.winner) != side)


@pytest.fixture
def started(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    return deal, simulated(deal)


def test_the_live_page_never_shows_a_trick_the_delay_still_hides(tournament, started, judge):
    deal, record = started
    services.feature(tournament, 1, 2, on_screen=False)
    client = Client()
    done = 0
    for complete in (0, 1, 2, 3, 5, 9):
        play_through_service(deal, judge, {"tricks": record["tricks"][done:complete]})
        done = complete
        page = poll(client, tournament).content.decode()
        shown, drawn = shown_on(page)
        assert shown == max(0, complete - 2)
        assert drawn == set(range(1, shown + 1))  # every shown trick, none after them
        assert f'data-testid="live-points">{attackers_points(record, shown)}<' in page
        assert 'data-testid="live-hands"' not in page
        if shown:
            latest = record["tricks"][shown - 1]["plays"]
            assert all(card_faces(cards).split()[0] in page for _seat, cards in latest)


def test_a_poll_that_finds_nothing_new_is_a_304_and_a_trick_past_the_delay_a_200(
    tournament, started, judge, django_assert_max_num_queries
):
    deal, record = started
    services.feature(tournament, 1, 2, on_screen=False)
    play_through_service(deal, judge, {"tricks": record["tricks"][:3]})
    client = Client()
    first = poll(client, tournament)
    etag = first["ETag"]
    assert first.status_code == 200 and shown_on(first.content.decode())[0] == 1
    with django_assert_max_num_queries(
        5
    ):  # the tournament, the featured table, match, deal, a count of plays
        assert poll(client, tournament, etag).status_code == 304
    seat, cards = record["tricks"][3]["plays"][0]
    deal.refresh_from_db()
    record_play(deal, judge, cards=cards, seat=seat, version=deal.version)  # a lead: no trick more complete
    assert poll(client, tournament, etag).status_code == 304
    play_through_service(deal, judge, {"tricks": [{"plays": record["tricks"][3]["plays"][1:]}]})
    newer = poll(client, tournament, etag)
    assert newer.status_code == 200 and newer["ETag"] != etag
    assert shown_on(newer.content.decode())[0] == 2


def test_whole_deals_only_shows_nothing_until_the_deal_is_confirmed_then_the_tricks_and_hands(
    tournament, started, judge, director
):
    deal, record = started
    services.feature(tournament, 1, None, on_screen=False)
    play_through_service(deal, judge, record)
    client = Client()
    page = poll(client, tournament).content.decode()
    assert shown_on(page) == (0, set()) and 'data-testid="live-hands"' not in page
    deal.refresh_from_db()
    deal = deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
    deal = deal_entry.submit_deal(deal, judge, version=deal.version)
    page = poll(client, tournament).content.decode()
    assert shown_on(page) == (0, set()) and 'data-testid="live-hands"' not in page  # submitted, not confirmed
    deal_entry.confirm_deal(deal, director, version=deal.version)
    page = poll(client, tournament).content.decode()
    tricks = len(record["tricks"])
    assert shown_on(page) == (tricks, set(range(1, tricks + 1)))
    assert 'data-testid="live-hands"' in page
    assert f'data-testid="live-points">{attackers_points(record, tricks)}<' in page


def test_a_table_not_featured_and_a_hidden_tournaments_table_are_404(tournament, started):
    client = Client()
    assert client.get(live_url(tournament)).status_code == 404
    services.feature(tournament, 1, 2, on_screen=False)
    assert client.get(live_url(tournament, 2)).status_code == 404
    assert client.get(live_url(tournament)).status_code == 200
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert client.get(live_url(tournament)).status_code == 404


@pytest.fixture
def organised(tournament, director):
    """The tournament run by an organisation with a director of its own, and another organisation's director."""
    own, other = (
        Organisation.objects.create(name=n, slug=s) for n, s in (("甲会", "club-a"), ("乙会", "club-b"))
    )
    Tournament.objects.filter(pk=tournament.pk).update(organisation=own)
    users = {}
    for key, organisation in (("own", own), ("other", other)):
        user = get_user_model().objects.create_user(f"director-{key}", password="member-pass-1")
        Membership.objects.create(organisation=organisation, user=user, role=Role.DIRECTOR)
        users[key] = user
    users["judge"] = get_user_model().objects.get(username="judge")
    return users


@pytest.mark.parametrize(
    ("who", "allowed"), [("own", True), ("other", False), ("judge", False), (None, False)]
)
def test_only_the_tournaments_directors_feature_a_table(tournament, match, organised, who, allowed):
    client = Client()
    if who:
        client.force_login(organised[who])
    url = reverse("desk-live", args=[tournament.slug])
    answer = client.post(url, {"action": "feature", "table": "1", "delay": "3", "on_screen": "on"})
    assert FeaturedTable.objects.filter(tournament=tournament, table=1, delay=3).exists() == allowed
    assert (answer.status_code == 302 and answer["Location"] == url) == allowed
    if allowed:
        assert "1" in client.get(url).content.decode()
        client.post(url, {"action": "remove", "table": "1"})
        assert not FeaturedTable.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "feature", "table": "0"},
        {"action": "feature", "table": "x<script>", "delay": "-1"},
        {"action": "feature", "table": "1", "delay": "99"},
        {"action": "remove", "table": "7"},
        {"action": "remove", "table": "9" * 30},
        {"action": "what"},
    ],
)
def test_a_wrong_desk_form_is_refused_with_a_sentence_and_changes_nothing(tournament, director, fields):
    client = Client()
    client.force_login(director)
    answer = client.post(reverse("desk-live", args=[tournament.slug]), fields)
    assert answer.status_code in (400, 404) and not FeaturedTable.objects.exists()


def test_the_projector_shows_the_featured_table_put_on_it_and_no_other(tournament, match):
    services.feature(tournament, 1, 2, on_screen=True)
    services.feature(tournament, 2, 2, on_screen=False)
    page = Client().get(reverse("screen-panels", args=[tournament.slug])).content.decode()
    assert f'data-live-src="{live_url(tournament)}"' in page and live_url(tournament, 2) not in page
    services.feature(tournament, 2, 2, on_screen=True)  # one table on the screen at a time
    page = Client().get(reverse("screen-panels", args=[tournament.slug])).content.decode()
    assert live_url(tournament, 2) in page and f'data-live-src="{live_url(tournament)}"' not in page


def test_a_deal_entered_as_totals_shows_its_totals_once_confirmed_and_no_trick(
    tournament, match, judge, director
):
    """A table that enters totals only (quick entry) has no tricks to follow: the page says so, and shows the
    attackers' points and the kitty's once the deal is confirmed, as a recorded deal's hands."""
    from referee.table.recording.quick import quick_entry

    tournament.quick_entry_allowed = True
    tournament.save()
    services.feature(tournament, 1, 2, on_screen=False)
    deal = quick_entry(
        match,
        judge,
        trump="S",
        declarer="N",
        points=85,
        kitty_points=10,
        last_lead="single",
        attackers_won_last=False,
    )
    client = Client()
    page = poll(client, tournament).content.decode()
    assert 'data-testid="live-totals"' in page and 'data-testid="live-points"' not in page
    assert shown_on(page) == (0, set())
    deal_entry.confirm_deal(deal, director, version=deal.version)
    page = poll(client, tournament).content.decode()
    assert 'data-testid="live-points">85<' in page and "10" in page
    assert shown_on(page)[1] == set()
