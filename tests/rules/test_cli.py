"""``python -m rules``: exit codes 0/1/2, one stderr line on unreadable input, help and bench."""

import json
import subprocess
import sys

import pytest

from rules.cli import main
from rules.simulate import simulate_deal


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
    assert main(["bench", "--deals", "5", "--seed", "3"]) == 0
    assert "judged 5 deals in" in capsys.readouterr().out
