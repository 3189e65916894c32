"""What a crowd of sign-ins costs the pages: a page's wait while passwords are hashed beside it.

A page stands in as a fixed piece of Python work (``--page-ms`` of one core, about a public page's render); a
thread asks for it every ``--every`` seconds for ``--seconds`` and times each answer. Meanwhile ``--signins``
threads hash a password each, over and over, with Django's PBKDF2 hasher as it comes (``django``) or with the
site's, which runs the rounds on a low-priority thread (``low-priority``, referee/hashing.py); ``none`` is the
page alone. Prints p50, p95 and the worst wait of the page for each, and the hashes done.
"""

from __future__ import annotations

import statistics
import threading
import time

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management.base import BaseCommand

from referee.hashing import LowPriorityPBKDF2PasswordHasher

HASHERS = {"none": None, "django": PBKDF2PasswordHasher(), "low-priority": LowPriorityPBKDF2PasswordHasher()}


def page(work_ms: float) -> None:
    """About ``work_ms`` of one core in Python (the interpreter's lock held, as a template's render holds it)."""
    end = time.thread_time() + work_ms / 1000
    n = 0
    while time.thread_time() < end:
        n += 1


def run(hasher, signins: int, seconds: float, every: float, work_ms: float) -> tuple[list[float], int]:
    """The page's waits (ms) over ``seconds`` while ``signins`` threads hash with ``hasher``; and the hashes."""
    stop = threading.Event()
    hashes = [0]

    def sign_in() -> None:
        while not stop.is_set():
            hasher.encode("a judge's password", hasher.salt())
            hashes[0] += 1

    threads = [threading.Thread(target=sign_in) for _ in range(signins if hasher else 0)]
    for t in threads:
        t.start()
    waits: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        began = time.perf_counter()
        page(work_ms)
        waits.append((time.perf_counter() - began) * 1000)
        time.sleep(every)
    stop.set()
    for t in threads:
        t.join()
    return waits, hashes[0]


class Command(BaseCommand):
    help = "A page's wait while passwords are hashed beside it, with Django's hasher and the site's."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--signins", type=int, default=8, help="threads hashing at once (default 8)")
        parser.add_argument("--seconds", type=float, default=6.0)
        parser.add_argument("--every", type=float, default=0.05, help="seconds between pages")
        parser.add_argument("--page-ms", type=float, default=20.0, help="a page's work, ms of one core")

    def handle(self, *args, signins, seconds, every, page_ms, **options) -> None:
        for name, hasher in HASHERS.items():
            waits, hashes = run(hasher, signins, seconds, every, page_ms)
            p95 = statistics.quantiles(waits, n=20, method="inclusive")[-1]
            self.stdout.write(
                f"sign-in hashing {name:>12}: page p50 {statistics.median(waits):6.1f} ms, "
                f"p95 {p95:6.1f} ms, worst {max(waits):6.1f} ms ({len(waits)} pages, {hashes} hashes)"
            )
