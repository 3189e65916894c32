"""The serve checks themselves (issue 38's "Done when"), each over HTTP through the load test's clients
(``tools.loadtest.browser.Browser``, ``tools.loadtest.clients.Judge``) and each ending in one ``Figure``: what was
measured, its bound, PASS or FAIL. What the answers cannot show is read in the server's stores
(``tools.checks.observe``)."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from django.urls import reverse

from referee.table.recording.receipts import KEY_FIELD
from tools.checks import observe
from tools.checks.event import Event
from tools.loadtest.browser import CONNECTION_ERRORS, Browser
from tools.loadtest.budget import Budget
from tools.loadtest.clients import Judge
from tournaments.competition.throttle import PINS
from tournaments.public.caching import VARIANTS

Address = tuple[str, int]
LIVE_VALUES = 3000  # distinct X-Live values sent to one page
PIN_BURST = 64  # wrong PINs for one pair at once, at the tablet
ADJUSTMENT_POSTS = 6  # identical assigned levels posted at once
FLOOD_THREADS = 8  # visitors sending the X-Live values: enough to keep the server's two processes busy
RETRY_FOR = 30.0  # seconds a signed-in client retries after a connection error or a 5xx (``Judge.send``)


@dataclass(frozen=True)
class Figure:
    """One check's outcome (``key``: its short name): the figure measured, its bound, and what else was seen."""

    key: str
    check: str
    value: int
    bound: str
    passed: bool
    seen: str = ""

    def line(self) -> str:
        verdict = "PASS" if self.passed else "FAIL"
        return f"{verdict}  {self.check}: {self.value} ({self.bound}){'; ' + self.seen if self.seen else ''}"


def statuses_text(statuses: Counter) -> str:
    """``200×3000`` or ``403×5 429×59``: every answer's status, by status."""
    return " ".join(f"{status}×{n}" for status, n in sorted(statuses.items(), key=lambda kv: str(kv[0])))


def answer(
    browser: Browser,
    method: str,
    path: str,
    fields: dict | None = None,
    headers: dict | None = None,
    accept_json: bool = False,
) -> int | str:
    """The status of one request, or ``connection error``."""
    try:
        return browser.request(method, path, fields, headers=headers, accept_json=accept_json).status
    except CONNECTION_ERRORS:
        return "connection error"


def at_once(calls: Sequence[Callable[[], int | str]]) -> Counter:
    """Run the calls in threads of their own, released together by a barrier; their answers, by status."""
    barrier = threading.Barrier(len(calls))

    def released(call: Callable[[], int | str]) -> int | str:
        barrier.wait(timeout=120)
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return Counter(pool.map(released, calls))


def signed_in(address: Address, username: str, password: str) -> Judge:
    """A browser signed in through the log-in form (the load test's judge's phone: any account's)."""
    person = Judge(address, username, password, Budget(float("inf"), 10_000), RETRY_FOR)
    person.login()
    return person


def other_pin(pin: str) -> str:
    """A six-digit PIN that is not ``pin``."""
    return f"{(int(pin) + 1) % 10**6:06d}"


# ---------------------------------------------------------------- (a) no visitor grows the cache

Request = tuple[str, dict | None]  # a path and its headers


def flood(address: Address, requests: Sequence[Request], count: Callable[[], int]) -> tuple[int, Counter]:
    """The requests sent by ``FLOOD_THREADS`` visitors at once (none signed in): the cache entries they added,
    and their answers by status."""
    before = count()

    def visitor(mine: Sequence[Request]) -> Counter:
        browser, seen = Browser(*address), Counter[int | str]()
        for path, headers in mine:
            seen[answer(browser, "GET", path, headers=headers)] += 1
        browser.close()
        return seen

    with ThreadPoolExecutor(FLOOD_THREADS) as pool:
        statuses = sum(
            pool.map(visitor, [requests[i::FLOOD_THREADS] for i in range(FLOOD_THREADS)]), Counter()
        )
    return count() - before, statuses


def live_flood(
    address: Address,
    event: Event,
    values: int = LIVE_VALUES,
    count: Callable[[], int] = observe.cache_entries,
) -> Figure:
    """A visitor's page asked with ``values`` distinct ``X-Live`` headers (``1``, the one the pages send, among
    them): the cache entries added, at most ``VARIANTS`` (the page's variants, every part of the key counted)."""
    first = answer(Browser(*address), "GET", event.standings)
    added, statuses = flood(address, [(event.standings, {"X-Live": str(v)}) for v in range(values)], count)
    passed = first == 200 and added <= VARIANTS and set(statuses) == {200}
    seen = f"{values} values, answers {statuses_text(statuses)}, first GET {first}"
    return Figure(
        "live", f"cache entries added by {values} X-Live values", added, f"at most {VARIANTS}", passed, seen
    )


def query_flood(
    address: Address,
    event: Event,
    values: int = LIVE_VALUES,
    count: Callable[[], int] = observe.cache_entries,
) -> Figure:
    """The same page asked with ``values`` distinct orders (``?sort=``, a parameter it reads: each a key of its
    own) all at once: ``VARIANTS`` copies kept at most, each an entry and its newest-copy pointer."""
    bound = 2 * VARIANTS
    added, statuses = flood(
        address, [(f"{event.standings}?sort=column{v}", None) for v in range(values)], count
    )
    passed = added <= bound and set(statuses) == {200}
    seen = f"{values} orders, answers {statuses_text(statuses)}"
    return Figure(
        "query", f"cache entries added by {values} ?sort= values", added, f"at most {bound}", passed, seen
    )


def language_flood(
    address: Address,
    event: Event,
    values: int = LIVE_VALUES,
    count: Callable[[], int] = observe.cache_entries,
) -> Figure:
    """The same page asked with ``values`` distinct ``Accept-Language`` headers (``en`` and ``zh-hant``, the
    site's others, among them): a language the site does not have is its own, so at most ``VARIANTS`` entries."""
    languages = ["en", "zh-hant", *(f"x-{v}" for v in range(values - 2))]
    added, statuses = flood(
        address, [(event.standings, {"Accept-Language": lang}) for lang in languages], count
    )
    passed = added <= VARIANTS and set(statuses) == {200}
    seen = f"{len(languages)} languages, answers {statuses_text(statuses)}"
    return Figure(
        "language",
        f"cache entries added by {len(languages)} Accept-Language values",
        added,
        f"at most {VARIANTS}",
        passed,
        seen,
    )


# ---------------------------------------------------------------- (b) one PIN budget, atomic, everywhere


def kiosk_tablets(address: Address, event: Event, how_many: int) -> list[Browser]:
    """Tablets that opened the check-in link (each with its CSRF cookie), no account signed in."""
    tablets = [Browser(*address) for _ in range(how_many)]
    with ThreadPoolExecutor(min(how_many, 16)) as pool:
        opened = list(pool.map(lambda t: answer(t, "GET", event.kiosk), tablets))
    if set(opened) != {200}:
        raise RuntimeError(f"the tablet link answered {statuses_text(Counter(opened))}")
    return tablets


def pin_burst(address: Address, event: Event, tries: int = PIN_BURST) -> Figure:
    """``tries`` wrong PINs for one pair posted at once on the tablet: checked (answered 403, "not this pair's
    PIN") at most ``PINS.limit`` times, the others refused unchecked (429)."""
    tablets = kiosk_tablets(address, event, tries)
    fields = {"pair": event.flood_pair, "pin": other_pin(event.flood_pin)}
    statuses = at_once([partial(answer, t, "POST", event.kiosk, fields) for t in tablets])
    checked = statuses[403]
    counted = observe.wrong_pins_counted(event.flood_pair)
    passed = checked <= PINS.limit and checked + statuses[429] == tries and counted == checked
    seen = f"answers {statuses_text(statuses)}, wrong PINs in the throttle store {counted}"
    return Figure(
        "pins", f"{tries} wrong PINs at once: checked", checked, f"at most {PINS.limit}", passed, seen
    )


def as_tabs(person: Judge, how_many: int) -> list[Browser]:
    """Browsers sharing ``person``'s session (a double tap, several tabs of one device)."""
    tabs = []
    for _ in range(how_many):
        tab = Browser(person.browser.host, person.browser.port)
        tab.cookies = dict(person.browser.cookies)
        tabs.append(tab)
    return tabs


def table_burst(address: Address, event: Event, tries: int = PIN_BURST) -> Figure:
    """``tries`` wrong PINs for one pair posted at once on its table's screen (the deal's confirmation, each post
    its own idempotency key): checked (400, "not that pair's PIN") at most ``PINS.limit`` times, the others
    refused unchecked (429)."""
    judge = signed_in(address, event.judge, event.password)
    state = judge.send("GET", event.deal_state)
    version = state.json()["deal"]["version"] if state is not None and state.status == 200 else 0
    wrong = {"pin_NS": other_pin(event.table_pin), "pin_EW": "000000", "version": version}
    posts = [
        partial(
            answer, tab, "POST", event.pin_confirm, {**wrong, KEY_FIELD: uuid.uuid4().hex}, accept_json=True
        )
        for tab in as_tabs(judge, tries)
    ]
    statuses = at_once(posts)
    checked = statuses[400]
    counted = observe.wrong_pins_counted(event.table_pair)
    passed = checked <= PINS.limit and checked + statuses[429] == tries and counted == checked
    seen = f"answers {statuses_text(statuses)}, wrong PINs in the throttle store {counted}"
    return Figure(
        "table-pins",
        f"{tries} wrong PINs at once at the table: checked",
        checked,
        f"at most {PINS.limit}",
        passed,
        seen,
    )


def table_lock(address: Address, event: Event) -> Figure:
    """The pair locked out at its table (wrong PINs typed there until a 429, none when the burst did it), then
    its right PIN on the tablet: refused (429), and the pair not checked in."""
    judge = signed_in(address, event.judge, event.password)
    wrong = {"pin_NS": other_pin(event.table_pin), "pin_EW": "000000", "version": 0}
    at_table: list[int | str] = []
    while 429 not in at_table and len(at_table) <= PINS.limit:
        reply = judge.send("POST", event.pin_confirm, wrong)
        at_table.append(reply.status if reply is not None else "no answer")
    tablet = kiosk_tablets(address, event, 1)[0]
    refused = answer(tablet, "POST", event.kiosk, {"pair": event.table_pair, "pin": event.table_pin})
    checked_in = observe.checked_in(event.table_pair)
    passed = at_table[-1] == 429 and refused == 429 and not checked_in
    seen = f"at the table {' '.join(map(str, at_table))}; the tablet checked the pair in: {checked_in}"
    return Figure(
        "lock-out",
        "the right PIN at the tablet after a lock-out at the table",
        _int(refused),
        "429",
        passed,
        seen,
    )


def _int(status: int | str) -> int:
    return status if isinstance(status, int) else 0


# ---------------------------------------------------------------- (c) one ruling, whatever the timing


def adjustments_at_once(address: Address, event: Event, posts: int = ADJUSTMENT_POSTS) -> Figure:
    """The director's same assigned levels posted ``posts`` times at once (a double tap on several tabs): one
    adjustment in force."""
    director = signed_in(address, event.director, event.password)
    opened = answer(director.browser, "GET", event.adjust)
    fields = {"kind": "levels", "level_ns": "3", "level_ew": "3", "reason": "serve checks: assigned levels"}
    statuses = at_once([partial(answer, t, "POST", event.adjust, fields) for t in as_tabs(director, posts)])
    standing = len(observe.standing_adjustments(event.adjusted_match))
    passed = opened == 200 and standing == 1 and set(statuses) == {302}
    seen = f"answers {statuses_text(statuses)}"
    return Figure(
        "adjustments", f"{posts} identical adjustments at once: in force", standing, "exactly 1", passed, seen
    )


def forfeit_twins(address: Address, event: Event, posts: int = 2) -> Figure:
    """The same forfeit posted ``posts`` times at once: one in force; withdrawn, none is left in force and the
    match is no longer forfeited (no twin takes its place)."""
    director = signed_in(address, event.director, event.password)
    opened = answer(director.browser, "GET", event.forfeit_adjust)
    fields = {"kind": "forfeit", "side": "NS", "reason": "serve checks: a forfeit"}
    tabs = as_tabs(director, posts)
    statuses = at_once([partial(answer, t, "POST", event.forfeit_adjust, fields) for t in tabs])
    standing = observe.standing_adjustments(event.forfeit_match)
    withdrawn = [
        answer(director.browser, "POST", reverse("desk-adjustment-withdraw", args=[event.slug, pk]))
        for pk in standing[:1]
    ]
    left, forfeit = (
        observe.standing_adjustments(event.forfeit_match),
        observe.forfeited_by(event.forfeit_match),
    )
    passed = opened == 200 and len(standing) == 1 and not left and not forfeit and set(statuses) == {302}
    seen = (
        f"answers {statuses_text(statuses)}; withdrawn ({' '.join(map(str, withdrawn))}): "
        f"{len(left)} in force, forfeit against {forfeit or 'nobody'}"
    )
    return Figure(
        "forfeits", f"{posts} identical forfeits at once: in force", len(standing), "exactly 1", passed, seen
    )


def series_twins(address: Address, event: Event, posts: int = ADJUSTMENT_POSTS) -> Figure:
    """The same new series posted ``posts`` times at once: one series of that name, and no 5xx."""
    director = signed_in(address, event.director, event.password)
    opened = answer(director.browser, "GET", event.series_new)
    name = f"{event.slug} series"
    fields = {"name": name, "points": "10 6 4"}
    tabs = as_tabs(director, posts)
    statuses = at_once([partial(answer, t, "POST", event.series_new, fields) for t in tabs])
    made = observe.series_named(name)
    passed = opened == 200 and made == 1 and all(isinstance(s, int) and s < 500 for s in statuses)
    seen = f"answers {statuses_text(statuses)}"
    return Figure("series", f"{posts} identical new series at once: made", made, "exactly 1", passed, seen)
