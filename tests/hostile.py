"""Hostile requests and what every answer to one must be, for the URL sweep (``tests/test_hostile_urls.py``) and
the first-run page's test: the site's own forms read off its pages, bodies made from them, hostile query strings
and headers, and the check that an answer is no 500 and a refusal is in the visitor's language, saving nothing.
"""

from __future__ import annotations

import copy
import gzip
import html
import io
import os
import re
import traceback
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.template import Template
from django.test import Client
from django.test.utils import instrumented_test_render

from tests.desk.helpers import xlsx_bytes

HAN = re.compile(r"[\u4e00-\u9fff]")
JSON = {"HTTP_ACCEPT": "application/json"}


def fuzz_examples(default: int) -> int:
    """A fuzz test's example count: ``default``, times ``FUZZ_SCALE`` from the environment for a long run (say
    ``FUZZ_SCALE=20`` before a release; the suite keeps the default)."""
    return default * max(int(os.environ.get("FUZZ_SCALE", "1") or 1), 1)


# ------------------------------------------------------------------ the site's forms, read off its pages


@dataclass
class Form:
    """A form as its page sends it: each field's values (``[None]`` for a file), and each choice field's choices."""

    fields: dict[str, list] = field(default_factory=dict)
    choices: dict[str, list[str]] = field(default_factory=dict)


class FormReader(HTMLParser):
    """The forms of a page that post, each with the address it posts to."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page = page
        self.found: list[tuple[str, Form]] = []
        self.form: Form | None = None
        self.textarea = self.select = None
        self.chosen: set[str] = set()  # selects with an option marked selected

    def handle_starttag(self, tag, attrs) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "form" and a.get("method", "").lower() == "post":
            self.form = Form()
            self.found.append((urlsplit(html.unescape(a.get("action", ""))).path or self.page, self.form))
        if self.form is None:
            return
        if tag == "option" and self.select:
            self.option(a)
        elif a.get("name"):
            self.named(tag, a["name"], a)

    def named(self, tag: str, name: str, a: dict) -> None:
        fields, choices = self.form.fields, self.form.choices
        kind = a.get("type", "text").lower()
        if tag == "input" and kind in ("checkbox", "radio"):
            choices.setdefault(name, []).append(a.get("value") or "on")
            if "checked" in a or (kind == "radio" and name not in fields):
                values = fields.setdefault(name, [])
                values[:] = [a.get("value") or "on"] if kind == "radio" else [*values, a.get("value") or "on"]
        elif tag == "input" and kind == "file":
            fields[name] = [None]
        elif tag == "input" and kind not in ("submit", "button", "image", "reset"):
            fields.setdefault(name, []).append(a.get("value", ""))
        elif tag == "textarea":
            self.textarea = name
            fields.setdefault(name, []).append("")
        elif tag == "select":
            self.select = name
            fields[name], choices[name] = [], []
        elif tag == "button" and "value" in a:  # pressed, not sent: a choice for the fuzz
            choices.setdefault(name, []).append(a["value"])

    def option(self, a: dict) -> None:
        values, choices = self.form.fields[self.select], self.form.choices[self.select]
        choices.append(a.get("value", ""))
        if "selected" in a:
            values[:] = [*values, a.get("value", "")] if self.select in self.chosen else [a.get("value", "")]
            self.chosen.add(self.select)
        elif not values:
            values.append(a.get("value", ""))

    def handle_data(self, data) -> None:
        if self.form is not None and self.textarea:
            self.form.fields[self.textarea][-1] += data

    def handle_endtag(self, tag) -> None:
        if tag == "form":
            self.form = None
        elif tag in ("textarea", "select"):
            self.textarea = self.select = None


def forms_of(page: str, content: str) -> list[tuple[str, Form]]:
    """The posting forms of ``content`` (the page at ``page``) by the address each posts to."""
    reader = FormReader(page)
    reader.feed(content)
    return reader.found


# ------------------------------------------------------------------ hostile values, bodies, queries and headers

HUGE = "x" * 100_000
# "²" is a digit to str.isdigit() that int() refuses: ?table=² and match=² were 500s.
NUMBERS = ["9223372036854775808", "-9223372036854775809", "-1", "nan", "1e999", "-0x1", "١٢", "0", "²"]
UNREADABLE = "%FF%FE%80"  # bytes that are not UTF-8, as a browser would percent-encode them
FALLBACK_NAMES = ["version", "name", "next", "seat", "side"]  # for an address no page shows a form for


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


HEADER_ROW = ["pair", "player1", "player2", "club"]


def uploads() -> list[SimpleUploadedFile]:
    """Files for a file field: fair ones, and every kind of broken, hostile or mislabelled one."""
    return [
        upload("pairs.csv", "pair,player1,player2,club\n东风,王,李,\n".encode()),
        upload("pairs.csv", b"pair,player1,player2,club\n\xff\xfe\x80,\x81\x82,\x00,\n"),
        upload("pairs.csv", b"pair,player1,player2,club\na\x00,b,c,\n"),
        upload("pairs.csv", b'pair,player1,player2,club\n"' + b"x" * 200_000 + b"\n"),
        upload("pairs.csv", b""),
        upload("pairs.csv", b"\x00" * 1000),
        upload("pairs.xlsx", xlsx_bytes([HEADER_ROW, ["东风", "王", "李", None]])),
        upload("pairs.xlsx", xlsx_bytes([HEADER_ROW, ["=1+1", 1e300, float("nan"), -1]])),
        upload("pairs.xlsx", b"PK\x03\x04 not a workbook"),
        upload("pairs.xlsx", b""),
        upload("pairs.exe", b"MZ"),
        upload("x" * 300 + ".csv", b"pair,player1,player2,club\n"),
    ]


def multipart(parts: list[tuple[bytes, bytes]], filename: bytes | None = None) -> dict:
    """A raw multipart body (what the test client will not build: a file name or a value that is not UTF-8)."""
    body = b""
    for name, value in parts:
        named = b'; filename="' + filename + b'"' if filename is not None else b""
        body += (
            b'--B\r\nContent-Disposition: form-data; name="'
            + name
            + b'"'
            + named
            + b"\r\n\r\n"
            + value
            + b"\r\n"
        )
    return {"data": body + b"--B--\r\n", "content_type": "multipart/form-data; boundary=B"}


def named_uploads(name: str) -> Iterator[tuple[str, dict]]:
    """A file under a name no browser sends (empty, a NUL, bytes that are not UTF-8, a path)."""
    for filename in (b"", b"a\x00.csv", b"\xff\xfe.csv", b"../../etc/passwd.csv", b'a".csv'):
        yield f"file named {filename!r}", multipart([(name.encode(), b"pair,player1,player2,club")], filename)


def bodies(form: Form | None) -> Iterator[tuple[str, dict]]:
    """The hostile bodies of a form (or of an address no page shows a form for), the commonest first: each a label
    and the test client's ``post`` arguments."""
    fields = dict(form.fields) if form else {}
    files = [name for name, values in fields.items() if values == [None]]
    plain = [name for name in fields if name not in files] or FALLBACK_NAMES
    baseline = {name: values for name, values in fields.items() if name not in files}

    def post(values: dict, label: str) -> tuple[str, dict]:
        return label, {"data": {**baseline, **values, **{name: uploads()[0] for name in files}}}

    yield post({}, "the page's own fields")
    yield post(dict.fromkeys(plain, "a\x00b"), "NUL characters")
    yield post(dict.fromkeys(plain, "__nope__"), "unknown choices")
    yield post(dict.fromkeys(plain, NUMBERS[0]), f"numbers {NUMBERS[0]}")
    yield post(
        {name: [*(baseline.get(name) or ["1"]), "__nope__", "2"] for name in plain}, "lists for scalars"
    )
    raw = "&".join(f"{name}={UNREADABLE}" for name in plain)
    yield "bytes that are not UTF-8", {"data": raw, "content_type": "application/x-www-form-urlencoded"}
    yield "multipart not UTF-8", multipart([(name.encode(), b"\xff\xfe\x80") for name in plain])
    yield (
        "JSON for a form",
        {"data": '{"version": [1], "cards": {"a": null}}', "content_type": "application/json"},
    )
    for turn in range(2):  # the other eight numbers: two to each field, all eight to a form of four fields
        yield post(
            {name: NUMBERS[1 + (2 * i + turn) % 8] for i, name in enumerate(plain)}, f"numbers {turn + 1}"
        )
    step = max(1, len(plain) // 8)  # two huge fields at a time (under Django's limit), eight fields at most
    for i in range(0, min(len(plain), 8 * step), 2 * step):
        names = plain[i : i + 2 * step : step]
        yield post(dict.fromkeys(names, HUGE), f"huge {names}")
    for name in files:
        for f in uploads():
            yield f"upload {f.name[:20]!r}", {"data": {**baseline, name: f}}
        yield from named_uploads(name)
        yield "no file", {"data": baseline}


QUERY_NAMES = [
    "round", "state", "table", "match", "sort", "p-sort", "m-sort", "r-sort", "page", "next", "q", "o", "p", "e",
    "all", "language", "_changelist_filters", "_popup", "_to_field", "term", "app_label", "model_name",
    "field_name",
]  # fmt: skip


def hostile_queries(few: bool = False) -> list[str]:
    """Query strings naming every parameter a page reads (and the admin's), each set to one hostile value; the
    ``few`` that found the admin's faults, for its hundred pages."""
    values = [""] if few else ["", "%00", UNREADABLE, "x" * 20_000, NUMBERS[0], "nan", "//x.example/", "²"]
    queries = ["&".join(f"{name}={value}" for name in QUERY_NAMES) for value in values]
    return [*queries, "&".join(f"{name}=1&{name}=__nope__" for name in QUERY_NAMES)]


# Headers no browser sends: NUL characters (HTTP forbids them), then ones that are only odd or huge.
HEADERS = [
    {"HTTP_USER_AGENT": "a\x00b", "HTTP_ACCEPT": "text/html\x00", "HTTP_REFERER": "\x00"},
    {
        "HTTP_USER_AGENT": "x" * 100_000,
        "HTTP_REFERER": "javascript:alert(1)//\xff",
        "HTTP_X_LIVE": "1",
        "HTTP_X_IDEMPOTENCY_KEY": "k" * 10_000,
        "HTTP_ACCEPT_LANGUAGE": "en;q=nan",
        "HTTP_X_FORWARDED_FOR": "not-an-address",
    },
    {
        "HTTP_ACCEPT": "application/json\xff",
        "HTTP_COOKIE": "django_language=xx-bogus; sessionid=%FF; csrftoken=\xff",
    },
]


# ------------------------------------------------------------------ sending, and what every answer must be


def plain_render(self, context):
    """``Template._render`` as Django has it outside the tests."""
    return self.nodelist.render(context)


@contextmanager
def templates_unrecorded() -> Iterator[None]:
    """The pages drawn without the test client's record of each template and a copy of its context
    (``response.templates``, ``response.context``), which no sweep reads: a signal and a context copy for every
    template and include, a fortieth of a sweep's CPU. Restored afterwards for the tests that do read them."""
    recorded = Template._render
    assert recorded is instrumented_test_render, (
        recorded
    )  # the test environment's, as set up by Django's runner
    Template._render = plain_render
    try:
        yield
    finally:
        Template._render = recorded


class Rollback(Exception):
    """Raised to undo a request's writes: every request starts from the same saved state."""


def send(c: Client, method: str, path: str, unchanged: Callable[[], bool] | None = None, **kwargs):
    """One request in a savepoint rolled back afterwards, the visitor's cookies kept as they were. A refused one
    is marked ``changed`` when ``unchanged()`` says what is saved is no longer as it was."""
    cookies = copy.deepcopy(c.cookies)
    response = None
    try:
        with transaction.atomic():
            response = getattr(c, method)(path, **kwargs)
            response.refused = refused(response)
            response.changed = (
                unchanged is not None and response.status_code < 500 and response.refused and not unchanged()
            )
            raise Rollback
    except Rollback:
        pass
    c.cookies = cookies
    return response


def error_messages(response) -> list[str]:
    """The messages the request left with level error (the next page shows them)."""
    storage = getattr(response.wsgi_request, "_messages", None)
    return [str(m) for m in getattr(storage, "_queued_messages", []) if "error" in m.tags]


def refused(response) -> bool:
    if response.status_code >= 400 or error_messages(response):
        return True
    return response.status_code == 200 and b'class="errorlist' in response.content


TEXTS = re.compile(r'<p class="entry-message">(.*?)</p>|<li class="error"[^>]*>(.*?)</li>', re.S)
ERRORLIST = re.compile(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', re.S)
ITEM = re.compile(r"<li>(.*?)</li>", re.S)
ENGLISH_ONLY = (
    "Traceback",
    "Bad Request",
    "Forbidden",
    "Not Found",
    "Server Error",
    "CSRF",
    "Method Not Allowed",
)


def refusal_texts(response) -> list[str]:
    """The sentences a refused page shows the visitor: its message, its form errors, its messages."""
    kind = response.get("Content-Type", "")
    if "json" in kind:
        try:
            return [str(response.json().get("message", ""))]
        except ValueError:
            return ["(not JSON)"]
    if "html" not in kind:
        return []
    content = response.content.decode()
    found = [next(g for g in m.groups() if g is not None) for m in TEXTS.finditer(content)]
    found += [item for errors in ERRORLIST.findall(content) for item in ITEM.findall(errors)]
    texts = [html.unescape(re.sub(r"<[^>]+>", " ", t)).strip() for t in found]
    return [t for t in texts if t] + error_messages(response)


def problem(response, language: str) -> str | None:
    """What is wrong with an answer, or None: a 500; a refusal that changed what was saved, shows a traceback
    or is not in the visitor's language."""
    if response.status_code >= 500:
        exc = getattr(response, "exc_info", None)
        where = "".join(traceback.format_exception(*exc)[-4:]) if exc else response.content[:300]
        return f"{response.status_code}: {where}"
    if not response.refused:
        return None
    if response.changed:
        return "a refused request changed what was saved"
    content = "" if getattr(response, "streaming", False) else response.content.decode(errors="replace")
    if "Traceback" in content:
        return "a traceback on the page"
    for text in refusal_texts(response):
        if language == "zh-hans" and not HAN.search(text):
            return f"not in Chinese: {text[:200]!r}"
        if language == "en" and not re.search(r"[A-Za-z]", text):
            return f"not in English: {text[:200]!r}"
    if language == "zh-hans" and response.status_code >= 400 and "html" in response.get("Content-Type", ""):
        if any(fragment in re.sub(r"<[^>]+>", " ", content) for fragment in ENGLISH_ONLY):
            return "English on a Chinese refusal page"
    return None


@dataclass
class Sweep:
    """Requests sent and the problems found, reported together at the end; ``unchanged`` checks what is saved."""

    unchanged: Callable[[], bool] | None = None
    problems: list[str] = field(default_factory=list)
    sent: int = 0

    def request(self, c: Client, role: str, method: str, path: str, label: str = "", **kwargs):
        response = send(c, method, path, self.unchanged, **kwargs)
        self.sent += 1
        found = problem(response, "en" if role.endswith("-en") else "zh-hans")
        if found:
            self.problems.append(f"{role} {method.upper()} {path[:120]} [{label}]: {found}")
        return response

    def check(self) -> None:
        assert not self.problems, f"{len(self.problems)} of {self.sent} requests:\n" + "\n".join(
            self.problems[:15]
        )


def answer(response) -> tuple:
    """What an answer says, the ids in it aside: two states of an object answered alike take one path through the
    view, so hostile bodies sent to one reach nothing new in the other."""
    where = response.get("Location", "")
    return (response.status_code, response.refused, re.sub(r"\d+", "#", f"{refusal_texts(response)} {where}"))


TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def one_page(*answers) -> bool:
    """The answers are all the same page or download (``made``), or all the same redirect saying nothing and setting
    no cookie: a POST answered as the GET is, whatever its body, reads none."""
    if all(300 <= a.status_code < 400 and not (a.refused or a.cookies or queued(a)) for a in answers):
        return len({(a.status_code, a.get("Location")) for a in answers}) == 1
    pages = {made(a) for a in answers}
    return len(pages) == 1 and isinstance(next(iter(pages)), tuple)


# When a page or a download was made: a date and time (a workbook's, an archive's), a clock's time (the screen's).
STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?|\b\d\d:\d\d(?::\d\d)?\b")


def made(response):
    """What a 200 that refuses nothing gives the visitor, to compare: its type, its file name and its content (a
    workbook's files or an archive unpacked), the form's token (masked afresh for each answer) and the time it was
    made left out; any other answer as itself, equal to no other."""
    if response.status_code != 200 or response.refused or response.streaming:
        return response
    content = response.content
    if content.startswith(b"\x1f\x8b"):
        content = gzip.decompress(content)
    elif content.startswith(b"PK\x03\x04"):
        with zipfile.ZipFile(io.BytesIO(content)) as files:
            content = b"".join(info.filename.encode() + files.read(info) for info in files.infolist())
    kind = (response.get("Content-Type"), response.get("Content-Disposition"))
    return (*kind, STAMP.sub(b"#", TOKEN.sub(b"", content)))


def queued(response) -> list:
    """The messages of any level the request left for the next page."""
    return list(getattr(getattr(response.wsgi_request, "_messages", None), "_queued_messages", []))
