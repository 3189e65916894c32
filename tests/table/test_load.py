"""The load test: a short run against a real server the command starts, and the checks it relies on."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rules.simulate import simulate_deal
from tools.loadtest.clients import conflict_outcome
from tools.loadtest.figures import compare_plays
from tools.loadtest.plays import PlayEntry, plays_of, shows_play
from tools.loadtest.server import local_address

ROOT = Path(__file__).resolve().parents[2]


def run_load(tmp_path: Path, migrated: Path, *args: str) -> dict:
    """``manage.py load`` with these arguments on a fresh SQLite file (a copy of the session's migrated one, so
    the run costs no migration of its own); its figures (it must exit 0)."""
    database = tmp_path / "load.sqlite3"
    shutil.copy(migrated, database)
    # Its own STATIC_ROOT: the run collects the static files, and the repository's folder is the one the other
    # workers' WhiteNoise reads while this runs (a file replaced mid-read was a FileNotFoundError there).
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{database}",
        "STATIC_ROOT": str(tmp_path / "static"),
        # the site's settings with the suite's fast password hasher, for the judges' accounts and their log-ins
        "DJANGO_SETTINGS_MODULE": "tests.server_settings",
    }
    manage = [sys.executable, "manage.py"]
    figures_path = tmp_path / "figures.json"
    load = subprocess.Popen(
        [*manage, "load", *args, "--json", str(figures_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = load.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        load.send_signal(signal.SIGINT)  # the command then stops the server it started
        output, _ = load.communicate(timeout=60)
        pytest.fail(f"the load run did not end by itself:\n{output}")
    assert load.returncode == 0, output
    return json.loads(figures_path.read_text())


@pytest.fixture(scope="module")
def short_run(tmp_path_factory, migrated_file) -> dict:
    """One short run for the tests below (a run costs a server's start): 4 tables and a racing pair in a closed
    loop, deals played to the end and new ones started, beside spectators polling a simulated event's public
    pages; then the closed-loop standings and the checks. Each closed loop burns all the CPU it is given for as
    long as it lasts, so the phases are as short as still gives every test below a figure: one second of plays
    (80 accepted and 4 races on a quiet machine, 20–30 and 4 at a load average of 8; every deal starts one trick
    from its end, so deals end and new ones begin), a quarter of a second each of standings and of bare pages
    (30–140 bare pages, a tenth of a second of the server's CPU or more); the crowd polls every 0.3 s from before
    the sign-ins, as before. Four seconds of plays and one each of standings and bare pages cost 3–7 s more of
    the machine's CPU for the same checks."""
    return run_load(
        tmp_path_factory.mktemp("load"),
        migrated_file,
        *("--tables", "4", "--conflicts", "1", "--closed", "--duration", "1", "--preplayed", "24"),
        *("--spectators", "6", "--spectator-interval", "0.3", "--event", "8x3", "--standings-burst", "0.25"),
        *("--bare-seconds", "0.25", "--crowd-from-sign-ins"),
    )


def test_short_load_loses_and_doubles_nothing(short_run):
    figures = short_run
    assert figures["accepted"] > 0
    assert (figures["lost"], figures["duplicated"], figures["rejected_stored"]) == (0, 0, 0)
    assert figures["server_errors"] == 0
    assert figures["faults"] == []
    assert sum(figures["conflicts"].values()) > 0 and "both accepted" not in figures["conflicts"]


def test_spectators_beside_the_judges_see_every_public_page_without_an_error(short_run):
    spectators = short_run["spectators"]
    assert spectators["requests"] > 0 and spectators["errors"] == 0
    assert set(spectators["statuses"]) <= {"200", "304"}
    assert short_run["standings_closed_loop_rps"] > 0 and short_run["standings_closed_loop"]["errors"] == 0


def test_the_run_measures_a_bare_pages_server_cpu_beside_a_plays_and_their_ratio(short_run):
    bare = short_run["bare_page"]
    assert bare["requests"] > 0 and bare["other"] == 0 and bare["server_cpu"] > 0
    per_play = short_run["cpu_seconds"]["server"] / short_run["accepted"]
    assert short_run["cpu_ratio"] == pytest.approx(per_play / (bare["server_cpu"] / bare["requests"]))


RECORD = simulate_deal("standard", banker="N", level="2", trump="S", seed=3)
KEYS = [p.key for p in plays_of(RECORD)]


def test_stored_plays_match_what_clients_were_told():
    assert compare_plays(KEYS, KEYS[:5], acked=set(range(5))).__dict__ == {
        "lost": 0,
        "duplicated": 0,
        "rejected_stored": 0,
    }


def test_an_acknowledged_play_missing_is_lost():
    assert compare_plays(KEYS, KEYS[:4], acked=set(range(5))).lost == 1


def test_a_play_stored_twice_is_a_duplicate():
    tally = compare_plays(KEYS, [*KEYS[:5], KEYS[4]], acked=set(range(5)))
    assert (tally.lost, tally.duplicated) == (0, 1)


def test_a_refused_play_must_not_be_stored():
    assert compare_plays(KEYS, KEYS[:5], acked=set(range(4)), rejected={4}).rejected_stored == 1


def test_a_play_of_unknown_outcome_may_be_stored_or_not():
    for stored in (KEYS[:4], KEYS[:5]):
        tally = compare_plays(KEYS, stored, acked=set(range(4)), unresolved={4})
        assert (tally.lost, tally.duplicated) == (0, 0)


def test_a_409_shows_the_play_when_its_state_holds_it():
    entries = plays_of(RECORD)
    state = {
        "tricks": [
            {
                "plays": [
                    {"seat": seat, "cards": [{"code": c} for c in reversed(cards.split())]}
                    for seat, cards in t
                ]
            }
            for t in [RECORD["tricks"][0]["plays"]]
        ]
    }
    assert shows_play(state, entries[0])
    assert not shows_play(state, entries[4])
    assert not shows_play(state, PlayEntry(0, entries[1].seat, entries[1].cards))


def test_races_end_with_one_200_and_one_409():
    assert conflict_outcome([200, 409], [7, 7]) == "clean"
    assert conflict_outcome([200, 200], [7, 8]) == "both accepted"


@pytest.mark.parametrize("url", ["http://example.com:8000", "https://127.0.0.1:8000", "http://10.0.0.1"])
def test_traffic_goes_only_to_this_machine(url):
    with pytest.raises(ValueError):
        local_address(url)
    assert local_address("http://localhost:8123") == ("localhost", 8123)


def test_a_crowd_there_from_the_sign_ins_on_is_timed_in_each_phase(short_run):
    """``--crowd-from-sign-ins``: the spectators poll before the judges sign in; their waits while the judges
    sign in and while they play are reported apart (issue 41 item 5's two figures)."""
    during, after = short_run["spectators_while_sign_ins"], short_run["spectators_while_plays"]
    assert during["requests"] > 0 and after["requests"] > 0
    assert during["requests"] + after["requests"] == short_run["spectators"]["requests"]
