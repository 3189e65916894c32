"""The serve checks' event, in the database the server uses: the load test's throwaway tournament
(``tools.loadtest.prepare.set_up``: per table a judge, a match and a started deal) and what the checks need beside
it — a director, a self check-in tablet link, two pairs' PINs and a deal the table submitted, waiting for them."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.urls import reverse

from referee.table.recording.quick import quick_entry
from tools.loadtest.prepare import PASSWORD, set_up
from tournaments.checkin.kiosk import issue_kiosk
from tournaments.competition.access import DIRECTOR_GROUP, JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import seat_table
from tournaments.models import Match
from tournaments.table_links.services import make_pin


@dataclass(frozen=True)
class Event:
    """What the checks are told of the event: names, ids, the tablet's link and the PINs (printed nowhere)."""

    slug: str
    standings: str  # the public page the X-Live flood asks for
    kiosk: str  # the self check-in tablet's address
    director: str  # username (password: tools.loadtest.prepare.PASSWORD)
    judge: str  # the judge of the table that locks its pair (same password)
    adjusted_match: int  # a match in progress, for the director's assigned levels
    adjust: str  # its adjusted results page on the desk
    forfeit_match: int  # another, for a forfeit posted twice at once
    forfeit_adjust: str
    flood_pair: int  # the pair whose wrong PINs come all at once, at the tablet
    flood_pin: str
    table_pair: int  # the pair locked out at its table, then tried at the tablet
    table_pin: str
    submitted_deal: int  # the table's deal waiting for both pairs' PINs
    pin_confirm: str  # where the table posts them
    deal_state: str  # the deal's state (its version)
    series_new: str  # the desk's new series form
    password: str = PASSWORD

    def as_dict(self) -> dict:
        return asdict(self)


@transaction.atomic
def prepare(seed: str = "serve-checks") -> Event:
    """A tournament of two tables (the load test's) plus a third whose judge submitted a deal in totals; the
    director, the tablet link and the PINs of table 1's and table 3's north–south pairs."""
    jobs = set_up(2, seed, 0)
    adjusted = Match.objects.select_related("round__tournament").get(pk=jobs[0].match_id)
    tournament = adjusted.round.tournament
    director = get_user_model().objects.create(
        username=f"{tournament.slug}-director", password=make_password(PASSWORD)
    )
    add_to_group(director, DIRECTOR_GROUP)
    tournament.chief_director = director
    tournament.quick_entry_allowed = True
    tournament.save()
    judge = get_user_model().objects.create(
        username=f"{tournament.slug}-judge", password=make_password(PASSWORD)
    )
    add_to_group(judge, JUDGE_GROUP)
    table = seat_table(adjusted.round, 3, judge, ("NS3", "EW3"))
    submitted = quick_entry(
        table,
        judge,
        trump="S",
        declarer="N",
        points=85,
        kitty_points=10,
        last_lead="pair",
        attackers_won_last=True,
        next_deal=1,
    )
    return Event(
        slug=tournament.slug,
        standings=reverse("standings", args=[tournament.slug]),
        kiosk=reverse("kiosk-check-in", args=[tournament.slug, issue_kiosk(tournament, director)]),
        director=director.username,
        judge=judge.username,
        adjusted_match=adjusted.pk,
        adjust=reverse("desk-adjust", args=[tournament.slug, adjusted.pk]),
        forfeit_match=jobs[1].match_id,
        forfeit_adjust=reverse("desk-adjust", args=[tournament.slug, jobs[1].match_id]),
        flood_pair=adjusted.pair_ns_id,
        flood_pin=make_pin(adjusted.pair_ns, director),
        table_pair=table.pair_ns_id,
        table_pin=make_pin(table.pair_ns, director),
        submitted_deal=submitted.pk,
        pin_confirm=reverse("deal-pin-confirm", args=[submitted.pk]),
        deal_state=reverse("deal_state", args=[submitted.pk]),
        series_new=reverse("desk-series-new"),
    )
