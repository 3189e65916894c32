"""Building finished matches and confirmed deals straight through the models (as the recording service would),
the files a director uploads, the setup forms as posted, and a client that reads English."""

from __future__ import annotations

import io
import random
import zipfile
from xml.sax.saxutils import escape

import openpyxl
from django.urls import reverse

from tournaments.checkin.forfeits import publish_round
from tournaments.models import Deal, Match, Pair, Player, Round, Tournament
from tournaments.pairing.services import pair_round
from tournaments.setup.forms import RulesetForm, TournamentForm


def xlsx_bytes(rows) -> bytes:
    """A workbook whose first sheet holds ``rows``."""
    wb = openpyxl.Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
SPREADSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def shared_strings_workbook(sheets: list[list[list[str]]]) -> bytes:
    """A workbook as Excel writes one: every text once in the shared strings table, cells refer to it by index
    (openpyxl writes each text into its cell instead)."""
    strings: dict[str, int] = {}
    parts = {}
    for number, rows in enumerate(sheets, start=1):
        lines = []
        for r, row in enumerate(rows, start=1):
            cells = "".join(
                f'<c r="{chr(65 + c)}{r}" t="s"><v>{strings.setdefault(text, len(strings))}</v></c>'
                for c, text in enumerate(row)
            )
            lines.append(f'<row r="{r}">{cells}</row>')
        parts[f"xl/worksheets/sheet{number}.xml"] = (
            f'<worksheet xmlns="{MAIN}"><sheetData>{"".join(lines)}</sheetData></worksheet>'
        )
    table = "".join(f"<si><t>{escape(text)}</t></si>" for text in strings)
    parts["xl/sharedStrings.xml"] = (
        f'<sst xmlns="{MAIN}" count="{len(strings)}" uniqueCount="{len(strings)}">{table}</sst>'
    )
    names = range(1, len(sheets) + 1)
    parts["xl/workbook.xml"] = (
        f'<workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><sheets>'
        + "".join(f'<sheet name="Sheet{n}" sheetId="{n}" r:id="rId{n}"/>' for n in names)
        + "</sheets></workbook>"
    )
    parts["xl/_rels/workbook.xml.rels"] = (
        f'<Relationships xmlns="{RELS}">'
        + "".join(
            f'<Relationship Id="rId{n}" Type="{DOC_RELS}/worksheet" Target="worksheets/sheet{n}.xml"/>'
            for n in names
        )
        + f'<Relationship Id="rIdS" Type="{DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'
    )
    parts["_rels/.rels"] = (
        f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    )
    parts["[Content_Types].xml"] = (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{SPREADSHEET}.sheet.main+xml"/>'
        f'<Override PartName="/xl/sharedStrings.xml" ContentType="{SPREADSHEET}.sharedStrings+xml"/>'
        + "".join(
            f'<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="{SPREADSHEET}.worksheet+xml"/>'
            for n in names
        )
        + "</Types>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts.items():
            zf.writestr(name, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text)
    return out.getvalue()


def largest_workbook() -> bytes:
    """The largest workbook the import accepts: 2,000 pairs on the first sheet and, on a second, as many more
    cells of different texts as the caps allow (``limits.MAX_CELLS`` and ``MAX_STRINGS``)."""
    from tournaments.workbook.importing import MAX_ROWS
    from tournaments.workbook.limits import MAX_CELLS, MAX_STRINGS

    pairs = [["pair", "player1", "player2", "club"]]
    pairs += [
        [f"第{n:04d}队", f"甲选手{n:04d}", f"乙选手{n:04d}", f"第{n:04d}俱乐部"]
        for n in range(1, MAX_ROWS + 1)
    ]
    more = min(MAX_CELLS, MAX_STRINGS) - 4 * len(pairs)
    notes = [[f"备注{n:05d}" for n in range(start, min(start + 10, more))] for start in range(0, more, 10)]
    return shared_strings_workbook([pairs, notes])


def with_part(xlsx: bytes, name: str, data: bytes) -> bytes:
    """The same workbook with its part ``name`` replaced (or added)."""
    source = zipfile.ZipFile(io.BytesIO(xlsx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for item in source.infolist():
            if item.filename != name:
                zf.writestr(item, source.read(item.filename))
        zf.writestr(name, data)
    return out.getvalue()


def empty_strings_workbook(count: int = 3_900_000) -> bytes:
    """A small workbook whose shared strings table holds ``count`` empty ``<si/>`` (33 KB; 19.5 MB unpacked)."""
    table = (
        f'<sst xmlns="{MAIN}" count="{count}" uniqueCount="{count}">'.encode() + b"<si/>" * count + b"</sst>"
    )
    return with_part(
        xlsx_bytes([["pair", "player1", "player2", "club"], ["A", "p", "q", ""]]),
        "xl/sharedStrings.xml",
        table,
    )


def play(rnd: Round, table: int, ns, ew, winner=None, level_ns="2", level_ew="2", ended_by="target") -> Match:
    """A finished match: ``winner`` None is a draw."""
    return Match.objects.create(
        round=rnd,
        table=table,
        pair_ns=ns,
        pair_ew=ew,
        state=Match.State.FINISHED,
        winner=winner,
        level_ns=level_ns,
        level_ew=level_ew,
        ended_by=ended_by,
    )


def finish(match: Match, winner=None, level_ns="2", level_ew="2", ended_by="target") -> Match:
    match.state = Match.State.FINISHED
    match.winner = winner
    match.level_ns, match.level_ew, match.ended_by = level_ns, level_ew, ended_by
    match.save()
    return match


def finish_tables(
    rnd: Round, rng: random.Random, draws: bool = False, skip_tables: frozenset[int] = frozenset()
) -> None:
    """The round's results set straight in, table by table (but ``skip_tables``): a winner drawn by ``rng``, or a
    draw when ``draws``, the winner a level higher than the loser; then the round finished when every table is, as
    the match fold finishes it. For tests of what follows from results."""
    for m in rnd.matches.exclude(table__in=skip_tables).order_by("table"):
        winner = rng.choice([m.pair_ns, m.pair_ew] + ([None] if draws else []))
        high, low = sorted(rng.sample("3456789", 2), key="3456789".index, reverse=True)
        if winner is None:
            finish(m, None, low, low)
        else:
            finish(m, winner, *((high, low) if winner == m.pair_ns else (low, high)))
    rnd.refresh_from_db(fields=["state"])  # as published
    rnd.refresh_state()


def verdict(
    total: int, outcome: str, levels: int = 1, kitty: int = 0, multiplier: int = 0, penalties: int = 0
):
    bonus = kitty * multiplier
    return {
        "ok": True,
        "violations": [],
        "tricks": [],
        "attackers_points": {
            "tricks": total - bonus - penalties,
            "kitty": kitty,
            "multiplier": multiplier,
            "kitty_bonus": bonus,
            "penalties": penalties,
            "total": total,
        },
        "result": {
            "outcome": outcome,
            "side": "banker" if outcome != "takeover" else "attackers",
            "levels": levels,
            "next_banker": None if outcome == "match_won" else "N",
        },
    }


def deal(
    match: Match,
    number: int,
    banker: str,
    total: int,
    outcome: str,
    *,
    level="2",
    trump="S",
    state=Deal.State.CONFIRMED,
    **kw,
) -> Deal:
    return Deal.objects.create(
        match=match,
        number=number,
        banker=banker,
        level=level,
        trump=trump,
        state=state,
        verdict=verdict(total, outcome, **kw),
    )


def settings_data(tournament=None, *, preset: str | None = None, **changes) -> dict:
    """What the settings page posts when saved as shown (a new tournament's defaults, or ``tournament``'s
    settings; ``preset`` starts the ruleset from that preset), with ``changes`` by field name: the ruleset's
    settings are ``rules-<setting>``. A value None leaves the field out, as an unticked box."""

    tournament = tournament or Tournament()
    data: dict = {}
    forms = (TournamentForm(instance=tournament), RulesetForm(spec=tournament.ruleset, preset=preset))
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is True:
                value = "on"
            if value is False or value is None and bound.widget_type == "checkbox":
                continue
            data[bound.html_name] = "" if value is None else value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def en(client):
    client.cookies["django_language"] = "en"
    return client


def settings_url(t: Tournament) -> str:
    return reverse("desk-settings", args=[t.slug])


def delete_url(t: Tournament) -> str:
    return reverse("desk-delete-tournament", args=[t.slug])


def tournament_form(**changes) -> TournamentForm:
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    for key, value in settings_data(**({"name": "Spring Cup"} | changes)).items():
        if isinstance(value, list):
            data.setlist(key, value)
        elif not key.startswith("rules-"):
            data[key] = str(value)
    return TournamentForm(data, instance=Tournament())


def ruleset_form(preset: str = "standard", **changes) -> RulesetForm:
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    for key, value in settings_data(preset=preset, **changes).items():
        if not key.startswith("rules-"):
            continue
        if isinstance(value, list):
            data.setlist(key, value)
        else:
            data[key] = str(value)
    return RulesetForm(data)


SHORT_RULES = {"preset": "standard", "target_level": "4"}


def swiss_stage(make_pair, slug: str, pairs: int = 24, rounds: int = 6, size: int = 8) -> Tournament:
    """The first stage played with its results entered directly (the stronger pair is the one entered first)."""
    t = Tournament.objects.create(
        name="冬季杯", slug=slug, ruleset=SHORT_RULES, num_rounds=rounds, knockout_size=size
    )
    made = [make_pair(f"队{k + 1:02d}", t=t) for k in range(pairs)]
    strength = {p.pk: -k for k, p in enumerate(made)}
    for _ in range(rounds):
        rnd = pair_round(t)
        publish_round(rnd)
        for m in rnd.matches.all():
            better = max((m.pair_ns, m.pair_ew), key=lambda p: strength[p.pk])
            finish(m, better, "A" if better == m.pair_ns else "5", "5" if better == m.pair_ns else "A")
        rnd.refresh_from_db()
        rnd.refresh_state()
    return t


def enter_pairs(tournament, names: list[str]) -> list[Pair]:
    """A pair for each name, seeded in order, its players ``<name>甲`` and ``<name>乙``."""
    return [
        Pair.objects.create(
            tournament=tournament,
            name=name,
            player1=Player.objects.create(name=f"{name}甲"),
            player2=Player.objects.create(name=f"{name}乙"),
            seed=n,
        )
        for n, name in enumerate(names, start=1)
    ]
