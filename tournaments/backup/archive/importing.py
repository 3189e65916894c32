"""The import: an archive read into this site in one transaction, its people named and matched, every deal judged
again by the rules engine; refused whole (nothing kept) when a slug is taken or a verdict differs.

One service for the command (``manage.py import_tournament``) and anything else that imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from rules.match import MatchError
from rules.ruleset import RulesetError
from tournaments.backup.archive.files import ArchiveError
from tournaments.backup.archive.reading import Remap, broken, insert_tables
from tournaments.models import Match, Organisation, Player, Series, Tournament
from tournaments.people.registry import clean_name, known_player
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import PLAYED
from tournaments.scoring.rescoring import judged_verdicts


@dataclass
class ImportReport:
    """What an import did, for the director: the tournaments made, the people it found on this site (matched,
    never merged unseen) and those it made, and the deals judged again."""

    slugs: list[str] = field(default_factory=list)
    matched_players: list[str] = field(default_factory=list)
    new_players: list[str] = field(default_factory=list)
    matched_accounts: list[str] = field(default_factory=list)
    new_accounts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    deals_judged: int = 0

    def lines(self) -> list[str]:
        out = [_("Imported: %(slugs)s.") % {"slugs": ", ".join(self.slugs)}]
        if self.matched_players:
            out.append(
                _("Players matched to this site's registry by name: %(names)s.")
                % {"names": "、".join(self.matched_players)}
            )
        out.append(_("New players: %(n)s.") % {"n": len(self.new_players)})
        if self.matched_accounts:
            out.append(
                _("Accounts found by username: %(names)s.") % {"names": ", ".join(self.matched_accounts)}
            )
        if self.new_accounts:
            out.append(
                _("Accounts made without a password (inactive): %(names)s.")
                % {"names": ", ".join(self.new_accounts)}
            )
        out.extend(self.notes)
        out.append(
            _("Deals judged again by the rules engine, every verdict equal: %(n)s.")
            % {"n": self.deals_judged}
        )
        return out


def text(value: Any, limit: int = 150) -> str:
    """A name from the file, as this site would store it (the file may be hostile)."""
    if not isinstance(value, str):
        raise broken()
    return value[:limit]


def people(payload: dict[str, Any], report: ImportReport) -> dict[int, Player]:
    """The archive's players as this site's: one of the same name (the registry's identity) is matched and
    named in the report; anyone else is added to the registry."""
    found: dict[int, Player] = {}
    rows = payload.get("people")
    if not isinstance(rows, list):
        raise broken()
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("id"), int):
            raise broken()
        name = clean_name(text(row.get("name"), 100))
        player = known_player(name)
        if player is not None:
            report.matched_players.append(name)
        else:
            player = Player.objects.create(
                name=name,
                club=text(row.get("club", ""), 100),
                contact=text(row.get("contact", ""), 200),
                notes=text(row.get("notes", "")),
            )
            report.new_players.append(name)
        found[row["id"]] = player
    return found


def accounts(payload: dict[str, Any], report: ImportReport) -> dict[str, Any]:
    """The accounts the archive names, by username: this site's of that name, or one made inactive and with no
    password (it names who did what; it signs no one in until the site's admin gives it a password)."""
    user_model = get_user_model()
    names = payload.get("accounts")
    if not isinstance(names, list):
        raise broken()
    out: dict[str, Any] = {}
    for name in names:
        name = text(name)
        user = user_model.objects.filter(username=name).first()
        if user is not None:
            report.matched_accounts.append(name)
        else:
            user = user_model.objects.create_user(username=name, password=None, is_active=False)
            report.new_accounts.append(name)
        out[name] = user
    return out


def free_slug(slug: Any) -> str:
    """The address the tournament is imported under; refused when it is not a slug or is taken on this site."""
    if not isinstance(slug, str):
        raise broken()
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise broken() from exc
    if len(slug) > 80:
        raise broken()
    if Tournament.objects.filter(slug=slug).exists():
        raise ArchiveError(
            _(
                "A tournament with the address %(slug)s already exists on this site: import under another (--slug)."
            )
            % {"slug": slug},
            status=409,
        )
    return slug


def organisation_of(payload: dict[str, Any], report: ImportReport) -> Organisation | None:
    slug = payload.get("organisation")
    if slug is None:
        return None
    found = Organisation.objects.filter(slug=text(slug)).first()
    if found is None:
        report.notes.append(
            _("The organisation %(slug)s is not on this site: the tournament is the site admin's.")
            % {"slug": text(slug)}
        )
    return found


def join_series(payload: dict[str, Any], tournament: Tournament, report: ImportReport) -> None:
    """The tournament counts in the series of the same slug and organisation on this site, if there is one."""
    for slug in payload.get("series") or []:
        series = Series.objects.filter(slug=text(slug), organisation=tournament.organisation).first()
        if series is None:
            report.notes.append(_("The series %(slug)s is not on this site.") % {"slug": text(slug)})
        else:
            series.tournaments.add(tournament)
            report.notes.append(_("Counted in the series %(name)s.") % {"name": series.name})


def judge_again(tournament: Tournament) -> int:
    """Judge every played deal again through the site's own rescoring loop; refuse the file at the first verdict
    that differs from the archive's (naming the deal). The number of deals judged."""
    judged = 0
    matches = Match.objects.of(tournament).select_related("round__tournament")
    for match in matches.order_by("round__number", "table"):
        last = 0
        try:
            for deal, verdict in judged_verdicts(match):
                if verdict != deal.verdict:
                    raise differs(match, deal.number)
                last = deal.number
                judged += 1
        except (RecordingError, RulesetError, MatchError) as exc:  # the next played deal cannot be scored
            unscored = match.deals.filter(state__in=PLAYED, number__gt=last).order_by("number").first()
            raise differs(match, unscored.number if unscored else last + 1) from exc
    return judged


def differs(match: Match, number: int) -> ArchiveError:
    return ArchiveError(
        _(
            "Deal %(deal)s of table %(table)s in round %(round)s: the rules engine's verdict differs from the "
            "archive's, so nothing was imported."
        )
        % {"deal": number, "table": match.table, "round": match.round.number},
        status=422,
    )


def import_archive(archive: dict[str, Any], *, slug: str | None = None) -> ImportReport:
    """Read every tournament of the archive into this site, all or nothing."""
    payloads = archive["tournaments"]
    if slug is not None and len(payloads) != 1:
        raise ArchiveError(_("This archive holds several tournaments: import it without a new address."))
    report = ImportReport()
    with transaction.atomic():
        for payload in payloads:
            if not isinstance(payload, dict):
                raise broken()
            new_slug = free_slug(slug or payload.get("slug"))
            remap = Remap(
                accounts(payload, report), people(payload, report), organisation_of(payload, report)
            )
            try:
                tournament = insert_tables(payload, remap, new_slug)
            except (IntegrityError, ValidationError, ValueError, TypeError, KeyError) as exc:
                raise broken() from exc  # rows the database refuses (a number twice, a value out of range)
            join_series(payload, tournament, report)
            report.deals_judged += judge_again(tournament)
            report.slugs.append(new_slug)
    return report
