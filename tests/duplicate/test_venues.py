"""Issue 40 item 8: a simultaneous session at two venues, built once for the module with the same commands as the
16-pair scene (create_tournament, import_pairs, deal_boards, export_boards / import_boards, pair_round) but small:
3 tables and 2 boards a round at each venue, venue A playing 3 rounds and venue B 2, B's last table unplayed
when it exports, so that boards are compared a different number of times and Neuberg applies.

The overall matchpoints are recomputed here from the two venues' results files by RULES §14.4 written out (not
the engine's functions) and compared with the site's overall standings (the API's ``?scope=all``).
"""

from __future__ import annotations

import io
import json
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import Client

from referee.table.simulation import simulate_round
from tournaments.competition.accounts import create_director
from tournaments.models import Tournament, VenueLine, VenueResults

pytestmark = pytest.mark.django_db

OUT = Path(__file__).resolve().parents[2] / "test-output" / "duplicate-venues"
A, B = "venue-a", "venue-b"
ROUNDS_A, ROUNDS_B, PER_ROUND = 3, 2, 2


def refusal(*args) -> str:
    try:
        call_command(*args, stdout=io.StringIO())
    except CommandError as exc:
        return str(exc)
    return ""


def standings(client: Client, scope: str = "all") -> dict:
    response = client.get(f"/api/v1/tournaments/{A}/standings/?scope={scope}")
    assert response.status_code == 200
    return json.loads(response.content)


@pytest.fixture(scope="module")
def scene(django_db_setup, django_db_blocker):
    OUT.mkdir(parents=True, exist_ok=True)
    pairs_csv = OUT / "pairs.csv"
    pairs_csv.write_text(
        "pair,player1,player2,club\n" + "".join(f"P{i},A{i},B{i},\n" for i in range(1, 7)), encoding="utf-8"
    )
    files = {name: OUT / f"{name}.json" for name in ("boards", "a", "b", "b-late", "altered", "wrong")}
    with django_db_blocker.unblock(), transaction.atomic():  # built once, rolled back after
        director = create_director("venues-td", "venues-director-1")
        for slug, venue, rounds in ((A, "甲馆", ROUNDS_A), (B, "乙馆", ROUNDS_B)):
            call_command(
                "create_tournament", slug, name="同步复式", format="duplicate", movement="mitchell",
                boards_per_round=PER_ROUND, rounds=rounds, venue=venue, stdout=io.StringIO(),
            )  # fmt: skip
            call_command("import_pairs", slug, str(pairs_csv), stdout=io.StringIO())
        a, b = Tournament.objects.get(slug=A), Tournament.objects.get(slug=B)
        call_command("deal_boards", A, stdout=io.StringIO())
        call_command("export_boards", A, str(files["boards"]))
        call_command("import_boards", B, str(files["boards"]), stdout=io.StringIO())
        for rnd in range(1, ROUNDS_B + 1):
            call_command("pair_round", B, rnd, publish=True, stdout=io.StringIO())
            skip = frozenset({1}) if rnd == ROUNDS_B else frozenset()
            simulate_round(b, rnd, director, seed=7, skip_tables=skip)
        call_command("export_results", B, str(files["b-late"]))  # an early file, replaced below
        simulate_round(b, ROUNDS_B, director, seed=7)
        call_command("export_results", B, str(files["b"]))
        b_file = json.loads(files["b"].read_text(encoding="utf-8"))
        late = [line for line in b_file["results"] if (line["round"], line["table"]) == (ROUNDS_B, 1)]
        b_file["results"] = [
            line for line in b_file["results"] if line not in late
        ]  # B's last table unplayed
        files["b"].write_text(json.dumps(b_file, ensure_ascii=False), encoding="utf-8")
        for rnd in range(1, ROUNDS_A + 1):
            call_command("pair_round", A, rnd, publish=True, stdout=io.StringIO())
            simulate_round(a, rnd, director, skip_tables=frozenset({1}) if rnd == ROUNDS_A else frozenset())
        call_command("import_results", A, str(files["b-late"]), stdout=io.StringIO())
        call_command("import_results", A, str(files["b"]), stdout=io.StringIO())  # replaces the early file
        imports = (VenueResults.objects.filter(tournament=a).count(), VenueLine.objects.count())
        public = Client()
        mid = standings(public)
        altered = json.loads(files["b"].read_text(encoding="utf-8"))
        altered["boards"][3]["fingerprint"] = "0" * 64  # board 4
        files["altered"].write_text(json.dumps(altered), encoding="utf-8")
        wrong = dict(altered, format="tractor-results/2")
        files["wrong"].write_text(json.dumps(wrong), encoding="utf-8")
        hostile = dict(altered, boards=b_file["boards"], results=[*b_file["results"], "x"], plays=True)
        files["hostile"] = OUT / "hostile.json"
        files["hostile"].write_text(json.dumps(hostile), encoding="utf-8")
        files["not-json"] = OUT / "not-json.json"
        files["not-json"].write_text("{results", encoding="utf-8")
        refused = {
            name: refusal("import_results", A, str(files[name]))
            for name in ("altered", "wrong", "hostile", "not-json")
        }
        td = Client()
        td.force_login(director)
        pages = {
            "public_mid": public.get(f"/t/{A}/standings/?scope=all").content.decode(),
            "director_mid": td.get(f"/t/{A}/standings/?scope=all").content.decode(),
        }
        simulate_round(a, ROUNDS_A, director)  # A's last table
        call_command("export_results", A, str(files["a"]))
        refused["own"] = refusal("import_results", A, str(files["a"]))
        end = standings(public)
        own = standings(public, "venue")
        pages["public_all"] = public.get(f"/t/{A}/standings/?scope=all").content.decode()
        pages["public_own"] = public.get(f"/t/{A}/standings/").content.decode()
        pages["boards"] = {n: public.get(f"/t/{A}/boards/{n}/").content.decode() for n in (3, 4)}
        transaction.set_rollback(True)
    return {
        "a": json.loads(files["a"].read_text(encoding="utf-8")),
        "b": b_file,
        "imports": imports,
        "mid": mid,
        "end": end,
        "own": own,
        "refused": refused,
        "pages": pages,
    }


def recomputed(files: list[dict], shown_boards: set[int]) -> dict[tuple[str, str, str], tuple[Fraction, int]]:
    """RULES §14.4 by hand across venues: N is the sum of each venue's plays, 2 a score beaten and 1 a tie,
    Neuberg ``(MP + 1)·N/n − 1`` where a board has fewer results; (direction, venue, pair) → (MP, boards)."""
    n_all = sum(f["plays"] for f in files)
    by_board: dict[int, list[tuple[str, dict]]] = defaultdict(list)
    for f in files:
        for line in f["results"]:
            if line["board"] in shown_boards:
                by_board[line["board"]].append((f["venue"], line))
    totals: dict[tuple[str, str, str], tuple[Fraction, int]] = {}
    for lines in by_board.values():
        scores = [line["ns_score"] for _v, line in lines]
        n = len(scores)
        for venue, line in lines:
            s = line["ns_score"]
            for direction, pair, mine in (("NS", line["ns_pair"], s), ("EW", line["ew_pair"], -s)):
                theirs = scores if direction == "NS" else [-o for o in scores]
                mp = Fraction(sum(2 if mine > o else 1 if mine == o else 0 for o in theirs) - 1)
                if n < n_all:
                    mp = (mp + 1) * n_all / n - 1
                old = totals.get((direction, venue, pair), (Fraction(0), 0))
                totals[(direction, venue, pair)] = (old[0] + mp, old[1] + 1)
    return totals


def shown(mp: Fraction) -> int | float:
    return int(mp) if mp.denominator == 1 else round(float(mp), 4)


def check(answer: dict, files: list[dict], boards: set[int]) -> None:
    totals = recomputed(files, boards)
    top = 2 * (sum(f["plays"] for f in files) - 1)
    got = {(x["direction"], x["venue"], x["pair"]["name"]): x for x in answer["lines"]}
    assert set(got) == set(totals)
    for key, (mp, played) in totals.items():
        line = got[key]
        assert (line["matchpoints"], line["top"], line["boards"]) == (shown(mp), top * played, played)
        percent = (Decimal(mp.numerator) * 100 / Decimal(mp.denominator * top * played)).quantize(
            Decimal("0.01"), ROUND_HALF_UP
        )
        assert line["percentage"] == str(percent)


def test_export_then_import_round_trips_the_other_venues_results(scene):
    venue_b = [x for x in scene["end"]["lines"] if x["venue"] == "乙馆"]
    b_lines = scene["b"]["results"]
    assert len(venue_b) == 2 * 3 and all(x["pair"]["id"] is None for x in venue_b)  # 3 NS and 3 EW pairs
    assert sum(x["boards"] for x in venue_b) == 2 * len(b_lines)
    assert scene["end"]["venues"] == ["甲馆", "乙馆"] and scene["end"]["plays"] == ROUNDS_A + ROUNDS_B
    assert {b["fingerprint"] for b in scene["a"]["boards"]} == {
        b["fingerprint"] for b in scene["b"]["boards"]
    }


def test_a_second_import_of_the_same_venue_replaces_the_first(scene):
    assert scene["imports"] == (1, len(scene["b"]["results"]))


def test_overall_matchpoints_recomputed_from_both_venues_files_equal_the_sites(scene):
    boards = {b["number"] for b in scene["a"]["boards"]}
    n_results = defaultdict(int)
    for f in (scene["a"], scene["b"]):
        for line in f["results"]:
            n_results[line["board"]] += 1
    assert min(n_results.values()) < ROUNDS_A + ROUNDS_B  # Neuberg is exercised
    check(scene["end"], [scene["a"], scene["b"]], boards)


def test_an_imported_board_counts_only_once_every_table_here_has_played_it(scene):
    """Halfway through A's last round its table 1 has not played its boards: no venue's result of them shows."""
    incomplete = {
        line["board"] for line in scene["a"]["results"] if (line["round"], line["table"]) == (ROUNDS_A, 1)
    }
    boards = {b["number"] for b in scene["a"]["boards"]} - incomplete
    assert len(incomplete) == PER_ROUND
    a_then = dict(scene["a"], results=[x for x in scene["a"]["results"] if x["board"] in boards])
    check(scene["mid"], [a_then, scene["b"]], boards)


def test_each_venues_own_ranking_is_unchanged_by_the_import(scene):
    assert {x.get("venue") for x in scene["own"]["lines"]} == {None}
    assert len(scene["own"]["lines"]) == 6 and scene["own"]["lines"][0]["top"] == 2 * (ROUNDS_A - 1) * 6


def test_an_import_with_one_altered_fingerprint_is_refused_naming_the_board(scene):
    assert "4" in scene["refused"]["altered"] and not any(d in scene["refused"]["altered"] for d in "1235678")


@pytest.mark.parametrize("case", ["wrong", "own", "hostile", "not-json"])
def test_a_file_of_another_format_this_venues_own_or_an_unreadable_one_is_refused(scene, case):
    assert scene["refused"][case]


def test_the_standings_page_offers_the_overall_ranking_beside_the_venues_own(scene):
    pages = scene["pages"]
    assert "乙馆" in pages["public_all"] and 'href="?scope=all"' in pages["public_own"]
    assert "乙馆" not in pages["public_own"]


def test_the_director_sees_every_venues_result_of_a_board_before_every_table_here_has_played_it(scene):
    """Halfway through A's last round, two NS pairs of A have played all 6 boards (top 8 a board: 48); the
    public's page leaves out the two boards still due at table 1, the director's counts them."""
    full = '<td class="num">48</td>'
    assert scene["pages"]["public_mid"].count(full) < scene["pages"]["director_mid"].count(full)


def test_a_boards_page_shows_its_traveller_across_venues(scene):
    for number, page in scene["pages"]["boards"].items():
        section = page.split('data-testid="traveller-all"')[1].split("</table>")[0]
        expected = [
            line for f in (scene["a"], scene["b"]) for line in f["results"] if line["board"] == number
        ]
        assert section.count("<tr>") - 1 == len(expected)  # the header's row and one a table
        assert section.count("乙馆") == sum(
            1 for f in [scene["b"]] for x in f["results"] if x["board"] == number
        )
