"""The serve checks (``tools.checks.serve_checks``): one short run against the server the tool starts as
``make serve`` does, on a copy of the session's migrated database, and the figures' wording."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from referee.serve import free_port
from tools.checks.probes import Figure, other_pin, statuses_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def short_run(tmp_path_factory, migrated_file) -> tuple[int, dict, str, Path]:
    """The tool's run with smaller floods (the checks are the same): its exit status, figures, output and the
    folder it was given for its scratch folder. SERVE_CHECKS_PORT names the port where the machine reserves
    one."""
    folder = tmp_path_factory.mktemp("serve-checks")
    figures_path = folder / "figures.json"
    port = os.environ.get("SERVE_CHECKS_PORT") or str(free_port())
    run = subprocess.Popen(
        [
            *(sys.executable, "-m", "tools.checks.serve_checks", "--database", str(migrated_file)),
            *("--folder", str(folder), "--port", port, "--json", str(figures_path)),
            *("--live-values", "48", "--pins", "16"),
        ],
        cwd=ROOT,
        # the site's settings with the suite's fast password hasher: the server's log-ins and the tool's accounts
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.server_settings"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = run.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        run.send_signal(signal.SIGTERM)  # the tool then stops the server it started
        output, _ = run.communicate(timeout=60)
        pytest.fail(f"the serve checks did not end by themselves:\n{output}")
    figures = json.loads(figures_path.read_text()) if figures_path.exists() else {}
    return run.returncode, figures, output, folder


def test_every_check_passes_against_a_server_started_as_make_serve_starts_it(short_run):
    status, figures, output, _folder = short_run
    assert status == 0, output
    checks = {row["key"]: row for row in figures["figures"]}
    assert set(checks) == {
        *("live", "query", "language", "pins", "table-pins", "lock-out", "adjustments", "forfeits", "series")
    }
    assert all(row["passed"] for row in checks.values())
    assert output.count("PASS") == len(checks) and "FAIL" not in output


def test_the_figures_are_within_the_issues_bounds(short_run):
    value = {row["key"]: row["value"] for row in short_run[1]["figures"]}
    assert value["live"] <= 32  # cache entries added by 48 X-Live values (one each would be 48)
    assert value["query"] <= 64  # by 48 orders: 32 copies, each with its newest-copy pointer (one each: 96)
    assert value["language"] <= 32  # by 48 languages, two of them the site's (one each: 46 and more)
    assert value["pins"] <= 5  # wrong PINs checked of 16 at once at the tablet
    assert value["table-pins"] <= 5  # and of 16 at once at the table
    assert value["lock-out"] == 429  # the tablet refuses the pair locked at its table
    assert value["adjustments"] == 1  # adjustments in force
    assert value["forfeits"] == 1  # of two forfeits posted at once
    assert value["series"] == 1  # of six new series of one name posted at once


def test_the_run_leaves_nothing_behind_but_its_figures(short_run):
    folder = short_run[3]
    assert [p.name for p in folder.iterdir()] == ["figures.json"]


def test_a_figure_says_pass_or_fail_with_what_was_seen():
    seen = statuses_text(Counter({429: 58, 403: 6}))
    line = Figure("pins", "wrong PINs checked", 6, "at most 5", False, seen).line()
    assert line == "FAIL  wrong PINs checked: 6 (at most 5); 403×6 429×58"
    assert Figure("adjustments", "in force", 1, "exactly 1", True).line() == "PASS  in force: 1 (exactly 1)"


@pytest.mark.parametrize("pin", ["000000", "123456", "999999"])
def test_the_wrong_pin_is_six_digits_and_never_the_pairs(pin):
    wrong = other_pin(pin)
    assert len(wrong) == 6 and wrong.isdigit() and wrong != pin
