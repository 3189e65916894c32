"""axe-core over every page family of the site (axe-playwright-python, its axe.min.js shipped in the package: no
network): no serious or critical violation. A page family is a page template; the pages are every GET address of
the URL tree that answers HTML (sorted out by Django's test client, not the browser), with the URL sweep's
tournament (``tests/hostile_world.py``) and its arguments, seen by the director (who may open every page; the
log-in page by a visitor). A desktop's size in English checks every family, all of each page shown; a phone's
size in Chinese checks the log-in page and the families a phone-width rule of the style sheets lays out anew
(``PHONE_RESTYLED``: the deal and match pages, the people tables, rounds, table cards, settings),
each of which also has the site's frame (header, navigation, language) in Chinese at that size. axe costs most
of a second a page, so each family is checked once a size, not each address. And the picker and the journal
driven by the keyboard alone."""

from __future__ import annotations

import json
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from django.test import Client

from tests.browser.helpers import expect, sign_in
from tests.browser.journal_steps import BACK_ONLINE_MS, begun_deal, enter, phone_page, waiting
from tests.browser.journal_steps import open_deal as open_journal_deal
from tests.browser.shots import OUTPUT
from tests.browser.test_entry_screen import begun, open_deal  # noqa: F401 - the begun deal's fixture
from tests.hostile_world import build_world
from tests.test_hostile_urls import BUILDERS, ROUTES
from tournaments.models import Deal
from tournaments.scoring import corrections

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": ({"width": 390, "height": 844}, "zh-CN", "zh-hans"), "desktop": ({"width": 1280, "height": 900}, "en-GB", "en")}  # fmt: skip
SKIPPED = (
    "admin/",
    "i18n/",
    "api/",
    "logout/",
    "sw.js",
    "k/",
)  # Django's admin, redirects, JSON, a table's link
SERIOUS = ("serious", "critical")
AXE = Axe()


def addresses(world) -> list[str]:
    """The first real address of every route (its parameters the world's first values)."""
    out = []
    for route in ROUTES:
        if route.route.startswith(SKIPPED):
            continue
        values = {name: BUILDERS[name](world, route)[0][0] for name in route.params}
        out.append(route.path(values))
    return sorted(set(out))


OPTIONS = {"resultTypes": ["violations"], "runOnly": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}  # fmt: skip


# axe-core's rules that report a fixed impact below serious (a rule's own ``impact`` is every one of its
# results' impact: axe's ``finalizeRuleResult``), of the rules ``OPTIONS`` runs: they cannot find what this
# sweep fails on, and ``region`` and the landmark rules walk the whole page, so they are switched off. A rule
# without an impact of its own (none in axe 4.12) is kept. Read from the axe the page has, so a new axe's rules
# are sorted the same way.
BELOW_SERIOUS = """([tags, serious]) => axe._audit.rules
    .filter(r => r.tags.some(t => tags.includes(t)) && r.impact && !serious.includes(r.impact))
    .map(r => r.id)"""


def violations(page, quiet: dict[str, dict] | None = None) -> list[dict]:
    """axe-core's violations on the page: the package's axe.min.js (the context's init script in the sweep, or
    evaluated here) and the call its ``Axe.run`` makes, but only the violations come back, as one JSON text (the
    whole result, passes and all, through Playwright's own encoding took most of the sweep's time). ``quiet``:
    rules switched off (``BELOW_SERIOUS``)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.axe_script)
    found = page.evaluate(
        "options => axe.run(options).then(results => JSON.stringify(results.violations))",
        OPTIONS | {"rules": quiet or {}},
    )
    return json.loads(found)


def problems(page, quiet: dict[str, dict] | None = None) -> list[str]:
    found = []
    for violation in violations(page, quiet):
        if violation["impact"] in SERIOUS:
            targets = ", ".join(str(n["target"]) for n in violation["nodes"][:4])
            why = next(
                (c["message"] for c in violation["nodes"][0]["any"] + violation["nodes"][0]["all"]), ""
            )
            found.append(f"{violation['id']} ({violation['impact']}): {targets} — {why}")
    return found


# The classes a phone-width rule of the site's style sheets (static/css/*.css, ``max-width`` and portrait rules)
# hides, stacks or lays out anew: a column hidden, a table's head hidden and its rows made blocks, a grid made one
# column. Any other page is the same markup at a phone's width as at a desktop's, only narrower (a name cut a
# little shorter), and what axe reads (roles, names, labels, contrast) is the same.
PHONE_RESTYLED = {"standings", "people", "wide-only", "match-head", "table-card", "settings-list", "seats", "picker", "entry-bar"}  # fmt: skip
CLASSES = re.compile(rb'class="([^"]*)"')


def families(world) -> dict[str, tuple[str, set[str]]]:
    """One address for each page family, by the page's own template, with the classes its markup uses: every
    address of the URL tree the director opens by Django's test client, kept when it answers a page of its own
    (200, HTML, no redirect: downloads, fragments, redirects and refusals are not pages), the first of each
    template's addresses kept. Two addresses of one template (the add and the edit form of a pair, say) are the
    same markup around other values; axe checks markup, not values. The client's GET costs a server render; a
    browser's costs a render, a load and, for a non-page, an error or another page's load."""
    client = Client()
    client.force_login(world.director)
    found: dict[str, tuple[str, set[str]]] = {}
    for path in addresses(world):
        answer = client.get(path)
        if answer.status_code != 200 or answer.streaming or b"<html" not in answer.content[:300]:
            continue
        classes = {name.decode() for found_ in CLASSES.findall(answer.content) for name in found_.split()}
        found.setdefault(answer.templates[0].name, (path, classes))
    return found


def sweep(page, paths: list[str]) -> dict[str, list[str]]:
    """The serious and critical problems of each page. axe comes with each page's load (the context's init
    script: sent to the browser once, not with every page), and the rules that cannot report them are off."""
    report: dict[str, list[str]] = {}
    quiet: dict[str, dict] | None = None
    for path in paths:
        answer = page.goto_path(path)
        assert answer is not None and answer.status == 200, f"{path}: {answer and answer.status}"
        if quiet is None:
            quiet = {
                rule: {"enabled": False}
                for rule in page.evaluate(BELOW_SERIOUS, [OPTIONS["runOnly"], list(SERIOUS)])
            }
            assert "color-contrast" not in quiet and "region" in quiet, sorted(quiet)
        found = problems(page, quiet)
        if found:
            report[path] = found
    return report


def sweep_at(
    browser, live_server, size: str, login_path: str, pages: dict[str, tuple[str, set[str]]]
) -> list[str]:
    """The sweep at one of ``SIZES``: the visitor's log-in page, then the families the size checks, as the director;
    the problems found, one line each (also written to test-output/screenshots/accessibility-<size>.txt)."""
    viewport, locale, language = SIZES[size]
    context = browser.new_context(viewport=viewport, locale=locale, bypass_csp=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.set_default_timeout(15_000)
    context.add_init_script(script=AXE.axe_script)
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    try:
        report = sweep(page, [login_path])  # the visitor's; the rest the director's
        paths = sorted(
            path for path, classes in pages.values() if size == "desktop" or classes & PHONE_RESTYLED
        )
        assert size == "desktop" or len(paths) > 10, (
            paths
        )  # the deal, match, people and standings pages at least
        sign_in(context, live_server, "td")
        report |= {f"{k} (director)": v for k, v in sweep(page, paths).items()}
    finally:
        context.close()
    lines = [f"{path}: {problem}" for path, found in report.items() for problem in found]
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / f"accessibility-{size}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines


def test_no_page_has_a_serious_or_critical_accessibility_violation(browser, live_server):
    """Both sizes in one test over one world: the families are sorted out once (every address of the URL tree
    rendered by Django's client), not once a size."""
    world = build_world()
    pages = families(world)
    assert len(pages) > 50, sorted(pages)  # the sweep still reaches the site's pages
    login_path = pages.pop("registration/login.html")[0]
    found = {size: sweep_at(browser, live_server, size, login_path, pages) for size in sorted(SIZES)}
    lines = [f"{size}: {line}" for size, size_lines in found.items() for line in size_lines]
    assert not lines, f"{len(lines)} violations:\n" + "\n".join(lines)


def test_the_picker_is_used_by_keyboard_and_names_each_card_with_its_copies_left(browser, live_server, begun):  # noqa: F811
    page = open_deal(browser, live_server, begun, (390, 844), "en")
    try:
        for _press in range(
            80
        ):  # Tab from the top of the page to the picker's first card, as a keyboard does
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('button.pick')"):
                break
        code = page.evaluate("document.activeElement.dataset.code")
        card = page.locator(f"button.pick[data-code='{code}']")
        assert card.get_attribute("aria-pressed") == "false"
        assert card.get_attribute("aria-label").endswith("2 left in the hands")
        page.keyboard.press("Enter")
        card = page.locator(f"button.pick[data-code='{code}']")
        assert card.get_attribute("aria-pressed") == "true"
        assert (
            page.evaluate("document.activeElement.dataset.code") == code
        )  # the picker drawn anew keeps the key
        page.keyboard.press("Tab")
        following = page.evaluate("document.activeElement.dataset.code")
        assert following and following != code
        group = page.locator(".picker-row").first
        assert group.get_attribute("role") == "group" and group.get_attribute("aria-label")
    finally:
        page.context.close()


def test_the_journal_is_used_by_keyboard_and_keeps_the_key_in_its_box_when_drawn_anew(browser, live_server):
    deal, record = begun_deal()
    context, page = phone_page(browser, live_server, "en")
    try:
        open_journal_deal(page, deal)
        context.set_offline(True)
        for _seat, cards in record["tricks"][0]["plays"][:2]:
            enter(page, cards)  # typed, and sent with the Enter key
        director = User.objects.get(username="director")
        corrections.add_penalty(Deal.objects.get(pk=deal.pk), director, seat="E", code="misplay", version=0)
        context.set_offline(False)
        refused = page.locator(".journal-entry.status-refused")
        expect(refused).to_be_visible(timeout=BACK_ONLINE_MS)
        again = refused.get_by_role("button", name="Send again")
        again.focus()
        page.keyboard.press("Enter")
        waiting(page, 0)
        where = page.evaluate(
            "(() => { const a = document.activeElement; return a.closest('#journal-box') ? 'box' : a.id || a.tagName; })()"
        )
        assert where in ("box", "cards-input"), where  # not lost to the top of the page
    finally:
        context.close()
