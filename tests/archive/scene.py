"""A finished 16-pair tournament built as a director runs one: ``create_tournament``, the settings service, the
pairs entered at the desk, each round paired, published and played by the rules simulator through the recording
service (one deal a table, then time is called: the test stays quick), a check-in, a call for the referee with its ruling, then finished. And what its pages show, with the
ids and the address normalised, so two sites' copies of it can be compared."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from io import StringIO

import openpyxl
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from referee.table.simulation import simulate_round
from tournaments.calls.services import raise_call, resolve_call
from tournaments.checkin.forfeits import publish_round
from tournaments.checkin.services import check_in
from tournaments.competition.finishing import finish_tournament
from tournaments.models import Match, Membership, Organisation, Role, Tournament
from tournaments.pairing.services import pair_round
from tournaments.people.pairs import PairEntry, save_pair
from tournaments.scoring.fold import call_time, match_summary
from tournaments.setup.services import save_settings
from tournaments.standings.compute import compute_standings
from tournaments.teams.sheets import team_sheets
from tournaments.workbook.export import write_workbook

SLUG = "spring16"
PAIRS = 16
ROUNDS = 2
RULES = {"preset": "standard"}
PASSWORD = "archive-director-1"


def member(username: str, organisation: Organisation):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    Membership.objects.create(organisation=organisation, user=user, role=Role.DIRECTOR)
    return user


def build_day() -> Tournament:
    club = Organisation.objects.create(name="东城升级俱乐部", slug="dongcheng")
    director = member("dongcheng-td", club)
    call_command(
        "create_tournament", SLUG, "--name", "春季十六对赛", "--rounds", str(ROUNDS),
        "--organisation", club.slug, stdout=StringIO(),
    )  # fmt: skip
    t = Tournament.objects.get(slug=SLUG)
    t.match_time_limit = 1
    save_settings(t, RULES, director)
    for k in range(1, PAIRS + 1):
        save_pair(t, PairEntry(name=f"第{k:02d}对", player1=f"东{k:02d}", player2=f"西{k:02d}", seed=k))
    for number in range(1, ROUNDS + 1):
        check_in(t, t.pairs.get(seed=number), director)
        rnd = pair_round(t)
        publish_round(rnd)
        if number == 1:
            call = raise_call(
                Match.objects.get(round=rnd, table=1), director, reason="other", note="记分有疑问"
            )
            resolve_call(call, director, ruling="按记录计分")
        simulate_round(t, number, director, seed=number, max_deals=1)
        for match in Match.objects.filter(round=rnd).select_related("round__tournament"):
            if match.state != Match.State.FINISHED:  # the time limit ends the match after its one deal
                call_time(match, director, now=timezone.now() + timedelta(hours=1))
    finish_tournament(t, director)
    return Tournament.objects.get(pk=t.pk)  # as finished (the finish saved its own copy)


# Where a page names a row by its id or the tournament by its address (links, forms, data attributes), and the
# tokens every response makes anew.
IDS = re.compile(r"(?<=/)\d+(?=/)|(?<==\")\d+(?=\")|(?<=-)\d+(?=\")")
TOKENS = re.compile(r"(csrfmiddlewaretoken\" value=\"|nonce=\"|csrf-token\" content=\")[^\"]*")


def normalised(html: str, slug: str) -> str:
    return IDS.sub("#", TOKENS.sub(r"\1…", html.replace(f"/{slug}/", "/SLUG/")))


def workbook_cells(t: Tournament) -> dict[str, list[list]]:
    out = io.BytesIO()
    write_workbook(t, out, extra=team_sheets)
    wb = openpyxl.load_workbook(io.BytesIO(out.getvalue()))
    return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets}


def seen(t: Tournament, client: Client) -> dict:
    """Everything compared: the standings, every match's page and its state, every cell of the workbook."""
    standings = [
        (
            ln.rank,
            ln.pair.name,
            ln.match_points,
            ln.played,
            ln.wins,
            ln.draws,
            ln.losses,
            ln.tiebreaks,
            ln.adjusted,
        )
        for ln in compute_standings(t)
    ]
    pages, states = {}, {}
    for match in Match.objects.of(t).select_related("round__tournament").order_by("round__number", "table"):
        where = (match.round.number, match.table)
        response = client.get(reverse("match", args=[match.pk]))
        assert response.status_code == 200
        pages[where] = normalised(response.content.decode(), t.slug)
        states[where] = {k: v for k, v in match_summary(match).items() if k != "id"}
    return {"standings": standings, "pages": pages, "states": states, "workbook": workbook_cells(t)}
