"""The worker's peak memory while reading the largest workbook the import accepts and a hostile one.

Each file is read in a fresh Python (a subprocess) so the rest of the suite does not move the figure; the
figure is the growth of the process's peak resident memory (``ru_maxrss``) over reading the file, after a
small workbook has been read once to load openpyxl and lxml. docs/benchmarks.md gives the measured figures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.desk.helpers import empty_strings_workbook, largest_workbook, xlsx_bytes

ROOT = Path(__file__).resolve().parents[2]
# Measured on 2 shared cores (docs/benchmarks.md): 4 MB for the largest accepted workbook, under 1 MB for the
# hostile one (481 MB before the caps). The bound is a generous margin over both: 2 x 8 MB (the largest figure
# seen over repeated runs, rounded up), well under what one uncapped table of texts costs.
PEAK_BOUND_MB = 16

READ = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
import django
django.setup()
from django.utils import translation
translation.activate("en")
from tournaments.workbook.importing import ImportFileError, read_rows
read_rows("warm.xlsx", open(sys.argv[1], "rb").read())
data = open(sys.argv[2], "rb").read()
def status(field):
    line = next(l for l in open("/proc/self/status") if l.startswith(field + ":"))
    return int(line.split()[1])
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # the peak (VmHWM) starts again from the memory in use now
before = status("VmRSS")
try:
    outcome = f"{len(read_rows('upload.xlsx', data))} rows"
except ImportFileError as exc:
    outcome = str(exc)
grown = status("VmHWM") - before
print(json.dumps({"outcome": outcome, "peak_mb": grown / 1024}))
"""


def peak_reading(tmp_path: Path, data: bytes) -> dict:
    """What a fresh worker answers for ``data`` and how much its peak memory grew reading it."""
    warm, upload = tmp_path / "warm.xlsx", tmp_path / "upload.xlsx"
    warm.write_bytes(xlsx_bytes([["pair", "player1", "player2", "club"], ["A", "p", "q", ""]]))
    upload.write_bytes(data)
    env = {**os.environ, "DEBUG": "1"}
    done = subprocess.run(
        [sys.executable, "-c", READ, str(warm), str(upload)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_reading_the_largest_accepted_workbook_stays_under_the_measured_bound(tmp_path):
    answer = peak_reading(tmp_path, largest_workbook())
    assert answer["outcome"] == "2001 rows"
    assert answer["peak_mb"] < PEAK_BOUND_MB, answer


def test_a_workbook_of_millions_of_empty_texts_is_refused_under_the_measured_bound(tmp_path):
    answer = peak_reading(tmp_path, empty_strings_workbook())
    assert (
        answer["outcome"] == "The workbook holds more than 20000 different texts: keep only the pairs in it."
    )
    assert answer["peak_mb"] < PEAK_BOUND_MB, answer
