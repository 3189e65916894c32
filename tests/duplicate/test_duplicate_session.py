"""Issue 40's done-when for duplicate pairs, as one scene built once for the module: a 16-pair duplicate (8
tables, Mitchell with the skip, 7 rounds of 2 boards) created, dealt, simulated and finished from the commands.

The checks read what the public reads (the API and the pages) and recompute it independently of the site: the
boards are dealt again from the published seed with ``rules.boards`` (DEAL-RECORD's algorithm), the matchpoints
and percentages are recomputed from the boards API's NS scores by RULES §14.4 written out here (not the engine's
functions), and which boards are complete halfway through round 7 is worked out from §14.4's movement text.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import Client
from openpyxl import load_workbook

from referee.table.simulation import simulate_round
from rules.boards import deal_board, deck_text
from rules.boards_file import loads_boards
from tournaments.competition.accounts import create_director
from tournaments.models import Deal, Match, Tournament
from tournaments.workbook.export import write_workbook

pytestmark = pytest.mark.django_db

OUT = Path(__file__).resolve().parents[2] / "test-output" / "duplicate"
TABLES, ROUNDS, PER_ROUND = 8, 7, 2
SLUG, OTHER = "dup16", "dup16-venue2"


def board_set_at(table: int, rnd: int) -> int:
    """RULES §14.4: set k at table k in round 1, the sets move down one table a round (1 to t)."""
    return (table - 1 + rnd - 1) % TABLES + 1


def boards_of_set(k: int) -> set[int]:
    return {(k - 1) * PER_ROUND + i for i in range(1, PER_ROUND + 1)}


def api(client: Client, what: str) -> dict:
    response = client.get(f"/api/v1/tournaments/{SLUG}/{what}/")
    assert response.status_code == 200
    return json.loads(response.content)


def snapshot(client: Client, t: Tournament) -> dict:
    """What the public reads now, and the pages of board 1 and of the table that played it first."""
    first = Match.objects.get(round__tournament=t, round__number=1, table=1)
    deal = Deal.objects.filter(match=first).order_by("number").first()
    return {
        "boards": api(client, "boards"),
        "standings": api(client, "standings"),
        "match_api": api(client, f"matches/{first.pk}"),
        "board_page": client.get(f"/t/{SLUG}/boards/1/").content.decode(),
        "boards_page": client.get(f"/t/{SLUG}/boards/").content.decode(),
        "standings_page": client.get(f"/t/{SLUG}/standings/").content.decode(),
        "deal_log": client.get(f"/t/{SLUG}/matches/{first.pk}/deals/").content.decode(),
        "replay": client.get(f"/t/{SLUG}/matches/{first.pk}/deals/{deal.number}/").status_code,
        "workbook": workbook_boards(t),
    }


def workbook_boards(t: Tournament) -> dict[str, set[int]]:
    """The board numbers the workbook's Travellers sheet has lines of, and those its Boards sheet has hands of."""
    out = io.BytesIO()
    write_workbook(t, out)
    out.seek(0)
    wb = load_workbook(out, read_only=True)
    sheets = wb.worksheets[-2:]  # Boards, then Travellers
    hands = {row[0] for row in sheets[0].iter_rows(min_row=2, values_only=True) if row[5]}
    lines = {row[0] for row in sheets[1].iter_rows(min_row=2, values_only=True)}
    return {"hands": hands, "travellers": lines}


@pytest.fixture(scope="module")
def scene(django_db_setup, django_db_blocker):
    OUT.mkdir(parents=True, exist_ok=True)
    pairs_csv = OUT / "pairs.csv"
    pairs_csv.write_text(
        "pair,player1,player2,club\n" + "".join(f"P{i},A{i},B{i},\n" for i in range(1, 17)), encoding="utf-8"
    )
    with django_db_blocker.unblock(), transaction.atomic():  # built once, rolled back after
        director = create_director("dup-td", "dup-director-1")
        for slug in (SLUG, OTHER):
            call_command(
                "create_tournament", slug, name="复式", format="duplicate", movement="mitchell",
                boards_per_round=PER_ROUND, rounds=ROUNDS, stdout=io.StringIO(),
            )  # fmt: skip
            call_command("import_pairs", slug, str(pairs_csv), stdout=io.StringIO())
        t = Tournament.objects.get(slug=SLUG)
        call_command("deal_boards", SLUG, stdout=io.StringIO())
        boards_file = OUT / "boards.json"
        call_command("export_boards", SLUG, str(boards_file))
        call_command("import_boards", OTHER, str(boards_file), stdout=io.StringIO())
        exported = json.loads(boards_file.read_text(encoding="utf-8"))
        altered = json.loads(boards_file.read_text(encoding="utf-8"))
        hands = altered["boards"][4]["hands"]  # board 5: one card of North's and one of West's change hands
        n, w = hands["N"].split(), hands["W"].split()
        w_card = next(c for c in w if c not in n)
        n_card = next(c for c in n if c not in w)
        hands["N"] = " ".join(sorted([*[c for c in n if c != n_card], w_card]))
        hands["W"] = " ".join(sorted([*[c for c in w if c != w_card], n_card]))
        bad_file = OUT / "boards-altered.json"
        bad_file.write_text(json.dumps(altered), encoding="utf-8")
        try:
            call_command("import_boards", OTHER, str(bad_file))
            refusal = ""
        except CommandError as exc:
            refusal = str(exc)
        imported = json.loads(
            Client().get(f"/api/v1/tournaments/{OTHER}/boards/").content
        )  # the other venue's boards, as its API shows them
        for rnd in range(1, ROUNDS + 1):
            call_command("pair_round", SLUG, rnd, publish=True, stdout=io.StringIO())
            if rnd < ROUNDS:
                call_command("simulate", SLUG, round_number=rnd, operator="dup-td", stdout=io.StringIO())
        simulate_round(t, ROUNDS, director, skip_tables=frozenset({1, 2, 3, 4}))  # round 7 half played
        public = Client()
        mid = snapshot(public, t)
        td = Client()
        td.force_login(director)
        mid_director_board = td.get(f"/t/{SLUG}/boards/1/").content.decode()
        simulate_round(t, ROUNDS, director)  # the other tables of round 7
        call_command("finish_tournament", SLUG, stdout=io.StringIO())
        end = snapshot(public, Tournament.objects.get(slug=SLUG))
        call_command("export_boards", SLUG, str(OUT / "boards-after.json"))
        after_file = (OUT / "boards-after.json").read_text(encoding="utf-8")
        transaction.set_rollback(True)
    return {
        "exported": exported,
        "imported": imported,
        "refusal": refusal,
        "mid": mid,
        "end": end,
        "mid_director_board": mid_director_board,
        "after_file": after_file,
    }


def recomputed(boards: list[dict]) -> tuple[dict[tuple[int, int], tuple[Fraction, Fraction]], dict]:
    """RULES §14.4 by hand from the API's travellers: each line's NS and EW matchpoints (2 a score beaten, 1 a
    tie), and each pair's (direction, matchpoints, boards) over the lines shown."""
    lines: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}
    pairs: dict[tuple[str, int], list] = {}
    for board in boards:
        scores = [line["ns_score"] for line in board["traveller"]]
        for line in board["traveller"]:
            s = line["ns_score"]
            ns = sum(2 if s > o else 1 if s == o else 0 for o in scores) - 1
            ew = sum(2 if -s > -o else 1 if s == o else 0 for o in scores) - 1
            lines[(board["number"], line["table"] * 100 + line["round"])] = (Fraction(ns), Fraction(ew))
            for direction, pair, mp in (("NS", line["ns_pair"], ns), ("EW", line["ew_pair"], ew)):
                entry = pairs.setdefault((direction, pair["id"]), [Fraction(0), 0])
                entry[0] += mp
                entry[1] += 1
    return lines, pairs


def check_standings(boards: list[dict], standings: dict) -> int:
    """The standings' lines equal the recomputation; returns how many lines were checked."""
    lines, pairs = recomputed(boards)
    for board in boards:
        for line in board["traveller"]:
            ns, ew = lines[(board["number"], line["table"] * 100 + line["round"])]
            assert (line["ns_matchpoints"], line["ew_matchpoints"]) == (ns, ew)
    top = 2 * (ROUNDS - 1)
    for line in standings["lines"]:
        mp, played = pairs[(line["direction"], line["pair"]["id"])]
        assert line["matchpoints"] == mp and line["top"] == top * played
        shown = (Decimal(mp.numerator) * 100 / Decimal(mp.denominator * top * played)).quantize(
            Decimal("0.01"), ROUND_HALF_UP
        )
        assert line["percentage"] == str(shown)
    assert len(standings["lines"]) == len(pairs)
    for direction in ("NS", "EW"):
        ranked = [line for line in standings["lines"] if line["direction"] == direction]
        percents = [Decimal(line["percentage"]) for line in ranked]
        assert percents == sorted(percents, reverse=True)
    return len(standings["lines"])


def test_every_board_dealt_again_from_the_published_seed_has_the_sites_hands_and_fingerprint(scene):
    seed = scene["end"]["boards"]["seed"]
    assert re.fullmatch(r"[0-9a-f]{64}", seed)
    boards = scene["end"]["boards"]["boards"]
    assert [b["number"] for b in boards] == list(range(1, TABLES * PER_ROUND + 1))
    for b in boards:
        again = deal_board(seed, b["number"], "standard")
        assert b["fingerprint"] == again.fingerprint
        assert b["hands"] == {seat: deck_text(again.hands[seat]) for seat in "NWSE"}
        assert b["kitty"] == deck_text(again.kitty)
    assert loads_boards(scene["after_file"]).seed == seed  # the published file checks against its seed


def test_no_pair_plays_a_board_twice_or_meets_a_pair_twice_and_each_board_is_played_seven_times(scene):
    boards = scene["end"]["boards"]["boards"]
    meetings = Counter()
    for b in boards:
        assert len(b["traveller"]) == ROUNDS
        seated = [line["ns_pair"]["id"] for line in b["traveller"]] + [
            line["ew_pair"]["id"] for line in b["traveller"]
        ]
        assert len(seated) == len(set(seated))
        for line in b["traveller"]:
            meetings[(line["ns_pair"]["id"], line["ew_pair"]["id"], line["round"])] += 1
    met = Counter((ns, ew) for ns, ew, _r in meetings)
    assert len(met) == TABLES * ROUNDS and set(met.values()) == {1}  # 56 meetings, none twice


def test_the_matchpoints_and_percentages_recomputed_from_the_boards_api_equal_the_sites(scene):
    checked = check_standings(scene["end"]["boards"]["boards"], scene["end"]["standings"])
    assert checked == 2 * TABLES


def test_before_the_session_ends_the_public_sees_only_the_boards_every_table_has_played(scene):
    late = {board_set_at(table, ROUNDS) for table in (1, 2, 3, 4)}  # round 7's unplayed tables
    incomplete = set().union(*(boards_of_set(k) for k in late))
    mid = scene["mid"]["boards"]
    assert mid["seed"] is None
    for b in mid["boards"]:
        if b["number"] in incomplete:
            assert b["traveller"] == [] and b["hands"] is None and b["kitty"] is None
        else:
            assert len(b["traveller"]) == ROUNDS and b["hands"] is not None
    assert 1 in incomplete and len(incomplete) == 8
    check_standings(mid["boards"], scene["mid"]["standings"])  # the standings hold the complete boards only


@pytest.mark.parametrize(
    "reader",
    ["match_api", "board_page", "boards_page", "standings_page", "deal_log", "replay", "workbook"],
)
def test_no_reader_shows_a_result_of_board_1_before_every_table_has_played_it(scene, reader):
    """Board 1 is played at round 1 table 1 but still due at round 7 table 3 halfway through round 7."""
    mid, end = scene["mid"][reader], scene["end"][reader]
    if reader == "match_api":
        assert mid["deals"] == [] and len(end["deals"]) == PER_ROUND
    elif reader == "workbook":
        assert 1 not in mid["hands"] | mid["travellers"] and mid["hands"] == mid["travellers"]
        assert end["hands"] == end["travellers"] == set(range(1, TABLES * PER_ROUND + 1))
    elif reader == "replay":
        assert (mid, end) == (404, 200)
    elif reader == "board_page":
        assert 'data-testid="traveller"' not in mid and 'data-testid="compass"' not in mid
        assert 'data-testid="traveller"' in end and 'class="seed"' in end
    elif reader == "boards_page":
        assert 'href="/t/dup16/boards/1/"' not in mid and 'class="seed"' not in mid
        assert 'href="/t/dup16/boards/1/"' in end and 'class="seed"' in end
    elif reader == "standings_page":  # at the end every pair's top is 7 rounds of 2 boards of top 12
        full = f'<td class="num">{2 * (ROUNDS - 1) * ROUNDS * PER_ROUND}</td>'
        assert mid.count(full) < end.count(full) == 2 * TABLES
    else:
        assert 'data-testid="replay-link"' not in mid and end.count('data-testid="replay-link"') == PER_ROUND


def test_the_director_sees_a_boards_results_before_every_table_has_played_it(scene):
    assert 'data-testid="traveller"' in scene["mid_director_board"]


def test_export_and_import_of_boards_round_trip_and_one_altered_card_is_refused_naming_the_board(scene):
    ours = [(b["number"], b["fingerprint"]) for b in scene["exported"]["boards"]]
    theirs = [(b["number"], b["fingerprint"]) for b in scene["imported"]["boards"]]
    assert ours == theirs and scene["exported"]["seed"] is None
    assert re.search(r"(?<!\d)5(?!\d)", scene["refusal"]) and not re.search(
        r"(?<!\d)[0-46-9](?!\d)", scene["refusal"]
    )
