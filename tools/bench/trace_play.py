"""Measure (not a test): which of the project's files one play touches, from the request to the answer.

A deal is prepared (a tournament, a judge, a match, a deal dealt at the table with its trump: a duplicate board's
deal would add the board's module, ``tournaments/scoring/board_hands.py``), a few plays are posted through
Django's test client as the page posts them, and one lead and one follow are each posted under
``sys.setprofile``: every Python frame entered is noted by its file. The project's files are those under the
repository (the linked ``.venv`` and this tool left out). The first play is posted untraced, so what a first
request imports once is not counted; the traced plays find the deal as the last play left it (the turn cache), as
a judge's next tap does.

For each traced play it prints the files, how many (the app's and the engine's, ``rules/``, apart), and how many
times the play came back to a file it had already left (a reader's jumps). Run it on a throwaway database
(``make bench`` does: ``manage.py bench_trace``).
"""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
from django.urls import reverse

from referee.table.recording.deal_entry import start_deal
from rules.seats import side_of
from rules.simulate import simulate_deal
from tournaments.competition.accounts import seat_table
from tournaments.models import Round, Tournament
from tournaments.scoring.fold import table_state

FORM = "application/x-www-form-urlencoded"  # as the page's script posts (URLSearchParams)
ENGINE = "rules/"


@dataclass
class Trace:
    """The project files one traced call entered, in the order first entered, and the returns to one left."""

    root: Path
    files: list[str] = field(default_factory=list)
    returns: int = 0
    _last: str = ""
    _seen: set[str] = field(default_factory=set)
    _names: dict[str, str | None] = field(default_factory=dict)
    functions: dict[str, set[str]] = field(default_factory=dict)

    def project_file(self, filename: str) -> str | None:
        """The file's path in the repository, or None for Django, the libraries, the standard library, this tool."""
        if filename not in self._names:
            name = None
            path = Path(filename)
            if path.is_absolute() and ".venv" not in path.parts:
                try:
                    name = path.resolve().relative_to(self.root).as_posix()
                except ValueError:
                    name = None
            if name == Path(__file__).resolve().relative_to(self.root).as_posix():
                name = None
            self._names[filename] = name
        return self._names[filename]

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        if event == "return":  # back in the caller's frame: where the reader's eye goes next
            frame = frame.f_back  # type: ignore[assignment]
            if frame is None:
                return
        name = self.project_file(frame.f_code.co_filename)
        if name is None:
            return
        self.functions.setdefault(name, set()).add(frame.f_code.co_name)
        if name == self._last:
            return
        if name in self._seen:
            self.returns += 1
        else:
            self._seen.add(name)
            self.files.append(name)
        self._last = name

    def run(self, call: Callable[[], Any]) -> Any:
        sys.setprofile(self.profile)
        try:
            return call()
        finally:
            sys.setprofile(None)

    @property
    def engine(self) -> list[str]:
        return [name for name in self.files if name.startswith(ENGINE)]

    @property
    def app(self) -> list[str]:
        return [name for name in self.files if not name.startswith(ENGINE)]


class Command(BaseCommand):
    help = "List the project files one play touches (a lead and a follow), with their count."

    def add_arguments(self, parser):
        parser.add_argument("--seed", default="trace")
        parser.add_argument("--quiet", action="store_true", help="print the counts alone")
        parser.add_argument("--functions", action="store_true", help="name the functions run in each file")

    def handle(self, *args, **options):
        setup_test_environment()  # lets the test client run against ALLOWED_HOSTS=testserver
        judge = get_user_model().objects.create_user(f"trace-judge-{time.time_ns()}", password="x-trace-pass")
        tournament = Tournament.objects.create(name="trace", slug=f"trace-{time.time_ns()}")
        rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
        match = seat_table(rnd, 1, judge, ("p0", "p1"))
        state = table_state(match)
        banker = state.banker or "N"
        record = simulate_deal(
            "standard", banker=banker, level=state.levels[side_of(banker)], seed=options["seed"]
        )
        deal = start_deal(match, judge, trump=record["trump"], declarer=banker)
        client = Client()
        client.force_login(judge)
        url = reverse("deal-play", args=[deal.pk])
        plays = [play for trick in record["tricks"][:2] for play in trick["plays"]]
        version = deal.version
        traced: dict[str, Trace] = {}
        for n, (seat, cards) in enumerate(plays[:6]):
            data = {"cards": cards, "seat": seat, "version": version, "idempotency_key": str(uuid.uuid4())}

            def post(data=data):
                with override_settings(DEBUG=False):
                    return client.post(url, urlencode(data), FORM, HTTP_ACCEPT="application/json")

            label = {1: "follow", 4: "lead"}.get(n)
            if label is None:
                response = post()
            else:
                trace = traced[label] = Trace(Path(settings.BASE_DIR).resolve())
                response = trace.run(post)
            if response.status_code != 200:
                raise SystemExit(f"play refused: {response.json().get('message')}")
            version = response.json()["state"]["deal"]["version"]
        for label, trace in traced.items():
            self.stdout.write(
                f"a {label}: {len(trace.files)} project files ({len(trace.app)} of the app, "
                f"{len(trace.engine)} of the engine), {trace.returns} returns to a file already left"
            )
            if not options["quiet"]:
                for name in trace.files:
                    called = ", ".join(sorted(trace.functions[name])) if options["functions"] else ""
                    self.stdout.write(f"  {name}" + (f": {called}" if called else ""))
