"""``python -m rules``: exit codes 0/1/2, one stderr line on unreadable input, help and bench."""

import json
import subprocess
import sys

import pytest

from rules.cli import main
from rules.ruleset import PRESETS
from rules.simulate import simulate_deal
from tools.bench.cli import COMMAND as BENCH


def run_cli(args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_judge_a_legal_file_exits_0_with_a_verdict(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(simulate_deal("standard", banker="S", level="4", seed=2)), encoding="utf-8")
    r = run_cli(["judge", str(path)])
    assert r.returncode == 0, r.stderr
    verdict = json.loads(r.stdout)
    assert verdict["ok"] is True and verdict["result"] is not None


def test_judge_stdin_with_a_violation_exits_1():
    rec = {
        "format": "tractor-deal/1",
        "banker": "N",
        "level": "5",
        "trump": "H",
        "partial": True,
        "tricks": [{"plays": [["N", "SA SA"], ["W", "S3"], ["S", "S8 S8"], ["E", "S4 C3"]]}],
    }
    r = run_cli(["judge", "-"], json.dumps(rec))
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["violations"][0]["code"] == "play_size"
    assert "出了" in r.stdout  # ensure_ascii=False: Chinese is printed as is


@pytest.mark.parametrize(
    "text, culprit",
    [
        ("not json", "JSON"),
        ('{"format": "tractor-deal/9"}', "tractor-deal/9"),
        ("[]", "object"),
        (
            '{"format": "tractor-deal/1", "banker": "N", "level": "5", "trump": "H", "partial": true, '
            '"tricks": [{"plays": [["N", "SQX"]]}]}',
            "SQX",
        ),
    ],
)
def test_unreadable_input_exits_2_naming_the_culprit(text, culprit):
    r = run_cli(["judge", "-"], text)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0]


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "nope.json")]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and "nope.json" in cap.err


def test_help_lists_judge_and_bench():
    r = run_cli(["--help"])
    assert r.returncode == 0 and "judge" in r.stdout and "bench" in r.stdout


def test_bench_reports_the_deals_it_judged(capsys):
    assert main(["bench", "--deals", "5", "--seed", "3"], {"bench": BENCH}) == 0
    out = capsys.readouterr().out
    assert "judged 5 deals in" in out
    for name in PRESETS:
        assert f"  {name} " in out  # deals/s per preset, one to four decks


def test_bench_pairing_reports_a_row_per_field(capsys):
    # Eight pairs in two clubs of four, three rounds: each pair has four opponents of the other club, so the
    # draws need neither a repeat nor a same-club table.
    assert main(["bench", "pairing", "--pairs", "8", "12", "--rounds", "3"], {"bench": BENCH}) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split()[:4] == ["pairs", "rounds", "repeats", "same-club"]
    assert [row.split()[:4] for row in rows] == [["8", "3", "0", "0"], ["12", "3", "0", "0"]]


def test_bench_pairing_refuses_an_event_without_rounds(capsys):
    assert main(["bench", "pairing", "--rounds", "0"], {"bench": BENCH}) == 2
    assert "--rounds" in capsys.readouterr().err


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_cli_judges_a_record_of_every_preset(tmp_path, capsys, name):
    deal = simulate_deal(name, banker="W", level=PRESETS[name].start_level, seed=5)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal), encoding="utf-8")
    assert main(["judge", str(path)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["result"]["outcome"] in ("banker_holds", "takeover")
    deal["tricks"][-1]["plays"][1][1] = deal["tricks"][-1]["plays"][2][1]  # a card not held, twice over
    path.write_text(json.dumps(deal), encoding="utf-8")
    assert main(["judge", str(path)]) == 1


# ------------------------------------------------------------------ hostile records: exit 2, one line, early


def judge_file(tmp_path, capsys, text: str) -> tuple[int, str, str]:
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    code = main(["judge", str(path)])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def record(**fields) -> dict:
    base = {
        "format": "tractor-deal/1",
        "banker": "N",
        "level": "5",
        "trump": "H",
        "partial": True,
        "tricks": [],
    }
    return {**base, **fields}


def assert_refused(code: int, out: str, err: str, culprit: str) -> None:
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], err[:300]
    assert len(lines[0]) < 300  # the culprit is named, never echoed whole


@pytest.mark.parametrize("where", ["level", "penalty trick", "nested"])
def test_a_number_over_4300_digits_exits_2_with_one_line(tmp_path, capsys, where):
    big = "9" * 5000
    text = {
        "level": json.dumps(record()).replace('"5"', big),
        "penalty trick": json.dumps(record(penalties=[{"seat": "N", "code": "misplay", "trick": 0}])).replace(
            '"trick": 0', f'"trick": {big}'
        ),
        "nested": f'{{"format": "tractor-deal/1", "x": [[[{big}]]]}}',
    }[where]
    assert_refused(*judge_file(tmp_path, capsys, text), "5000 digits")


def test_more_tricks_than_a_hand_holds_are_refused_early(tmp_path, capsys):
    """22,000 tricks took 8 s to judge (quadratic); a two-deck hand plays at most 25 tricks."""
    trick = {"plays": [["N", "S3"], ["W", "S4"], ["S", "S5"], ["E", "S6"]]}
    assert_refused(*judge_file(tmp_path, capsys, json.dumps(record(tricks=[trick] * 22_000))), "22000 tricks")


def test_more_tricks_than_a_hand_holds_refused_whatever_the_decks_declared(tmp_path, capsys):
    trick = {"plays": [["N", "S3"]]}
    rec = record(ruleset={"preset": "standard", "decks": 1000}, tricks=[trick] * 22_000)
    assert_refused(*judge_file(tmp_path, capsys, json.dumps(rec)), "decks")


def test_more_than_four_plays_in_a_trick_are_refused(tmp_path, capsys):
    trick = {"plays": [["N", "S3"], ["W", "S4"], ["S", "S5"], ["E", "S6"], ["N", "S7"]]}
    assert_refused(*judge_file(tmp_path, capsys, json.dumps(record(tricks=[trick]))), "tricks[0]")


@pytest.mark.parametrize(
    "fields, culprit",
    [
        ({"tricks": [{"plays": [["N", "SA " * 109]]}]}, "tricks[0].plays[0]: 109 cards"),
        ({"tricks": [{"plays": [["N", ["SA"] * 109]]}]}, "tricks[0].plays[0]: 109 cards"),
        ({"kitty": "H3 " * 109}, "kitty: 109 cards"),
        ({"tricks": [{"plays": [[s, "SA " * 20] for s in "NWSE"]}] * 3}, "tricks: 240 cards in all"),
        ({"hands": {s: "C4 " * 60 for s in "NWSE"}}, "hands: 240 cards in all"),
        ({"tricks": [{"plays": [["N", "SA"]], "throw": {"attempted": "SA " * 109}}]}, "throw.attempted"),
    ],
)
def test_more_cards_than_the_decks_hold_are_refused(tmp_path, capsys, fields, culprit):
    assert_refused(*judge_file(tmp_path, capsys, json.dumps(record(**fields))), culprit)


@pytest.mark.parametrize(
    "fields, culprit",
    [
        ({"banker": "N" * 100_000}, "banker"),
        ({"format": "x" * 100_000}, "format"),
        ({"trump": "H" * 100_000}, "trump"),
        ({"tricks": [{"plays": [["N", "SA" + " " * 100_000 + "SK"]]}]}, "tricks[0].plays[0]"),
        ({"penalties": [{"seat": "N", "code": "misplay", "note": "n" * 100_000}]}, "penalties[0]"),
        ({"penalties": [{"seat": "N", "code": "misplay"}] * 10_000}, "penalties"),
    ],
)
def test_overly_long_text_or_lists_are_refused(tmp_path, capsys, fields, culprit):
    assert_refused(*judge_file(tmp_path, capsys, json.dumps(record(**fields))), culprit)


def test_a_complete_deal_is_within_every_limit(tmp_path, capsys):
    for ruleset in ("standard", {"preset": "standard", "decks": 3}, {"preset": "standard", "decks": 1}):
        rec = simulate_deal(ruleset, banker="E", level="7", seed=5)
        code, out, err = judge_file(tmp_path, capsys, json.dumps(rec))
        assert code == 0 and err == "", err


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """``python -m rules bench | head -1``: no traceback when the pipe closes before the output is written."""
    child = subprocess.Popen(
        [sys.executable, "-m", "rules", "bench", "--deals", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    child.stdout.close()  # before the child has written a line: its first print finds no reader
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=60) == 1 and stderr == ""
