"""Issuing, opening and revoking a table's link, the devices that hold it, and the pairs' PINs.

A link's token (256 bits, ``secrets.token_urlsafe(32)``) and a PIN (six digits) are returned once, to be printed
on the table's card; the database keeps only their hashes. Issuing a table's card anew revokes its old link,
so the director reprints a card to take a table back from every device that held it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition.access import TABLE_ACCOUNT_PREFIX, is_table_account
from tournaments.competition.finishing import lock_open
from tournaments.competition.throttle import PINS
from tournaments.models import Match, Pair, PairPin, Round, TableDevice, TableLink

TOKEN_BYTES = 32  # 256 bits; the address's token is its URL-safe base64 (43 characters)
PIN_DIGITS = 6
DEVICE_KEY = "table_device"  # the device's id in its session, as the desk lists it
# How long a device's last visit may be old before it is written again (one write a minute, not one a page).
SEEN_EVERY_SECONDS = 60
# Devices listed per link: a browser that keeps no cookie (a scanner app) is a new device at every scan, so past
# this many the one seen longest ago gives its row to the newcomer.
MAX_DEVICES = 8


class TableLinkError(Exception):
    """A link the desk may not issue or revoke now; ``message`` is for the director (translated)."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class PinHasher(PBKDF2PasswordHasher):
    """A PIN's hash: PBKDF2 as for passwords, with fewer rounds, so a round's cards (two PINs a table) are
    issued in a moment while a read of the database still costs a guesser time for every PIN."""

    algorithm = "pin_pbkdf2_sha256"
    iterations = 60_000


PIN_HASHER = PinHasher()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class IssuedCard:
    """What a table's card prints once: its link's token and both pairs' PINs (North–South first)."""

    match: Match
    token: str
    pins: tuple[str, str]


def _table_account(match: Match):
    """A new account for the link: active, no password, no group, no right but the one its link gives."""
    name = f"{TABLE_ACCOUNT_PREFIX}{match.round.number}:{match.table}:{secrets.token_hex(6)}"
    return get_user_model().objects.create_user(username=name, password=None)


def _revoke_live(match: Match) -> None:
    match.links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def make_pin(pair: Pair, by) -> str:
    """A new PIN for the pair (the old one stops working); returned once, to be printed."""
    pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    PairPin.objects.update_or_create(
        pair=pair, defaults={"pin_hash": PIN_HASHER.encode(pin, PIN_HASHER.salt()), "made_by": by}
    )
    return pin


def pin_matches(pair: Pair, pin: str) -> bool:
    """Whether ``pin`` is the pair's PIN (False when the pair has none)."""
    stored = PairPin.objects.filter(pair=pair).values_list("pin_hash", flat=True).first()
    return stored is not None and bool(stored) and PIN_HASHER.verify(pin, stored)


def try_pin(pair: Pair, pin: str) -> bool | None:
    """Whether ``pin`` is the pair's, counted on the pair's one budget of wrong PINs wherever a PIN is typed (the
    table's confirmation, the check-in tablet: ``PINS``). None: too many wrong PINs lately, so it is not even
    checked. A try is taken atomically before the slow hash (sixty-four at once check five) and given back
    when the PIN is right, so only wrong ones count."""
    who = str(pair.pk)
    if not PINS.take(who):
        return None
    if len(pin) == PIN_DIGITS and pin.isascii() and pin.isdigit() and pin_matches(pair, pin):
        PINS.give_back(who)
        return True
    return False


def _require_issuable(match: Match) -> None:
    if match.round.state != Round.State.PUBLISHED:
        raise TableLinkError(_("Links are issued for the tables of a published round that is not finished."))


@transaction.atomic
def issue_card(match: Match, by) -> IssuedCard:
    """A new link for the table and new PINs for its pairs; the table's old link stops working."""
    lock_open(match.round.tournament_id)
    _require_issuable(match)
    _revoke_live(match)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    TableLink.objects.create(
        match=match, token_hash=token_hash(token), account=_table_account(match), created_by=by
    )
    return IssuedCard(match, token, (make_pin(match.pair_ns, by), make_pin(match.pair_ew, by)))


@transaction.atomic
def issue_round(rnd: Round, by) -> list[IssuedCard]:
    """Every table's card of the round issued anew, by table."""
    matches = rnd.matches.select_related("round__tournament", "pair_ns", "pair_ew").order_by("table")
    return [issue_card(match, by) for match in matches]


@transaction.atomic
def revoke(match: Match) -> int:
    """The table's live link stops working on every device that holds it; how many links were live."""
    lock_open(match.round.tournament_id)
    return match.links.revoke()


def live_link(token: str) -> TableLink | None:
    """The live link this token opens, or None (unknown, revoked, its round or tournament finished)."""
    if not token or len(token) > 100:
        return None
    return (
        TableLink.objects.live()
        .select_related("account", "match")
        .filter(token_hash=token_hash(token))
        .first()
    )


# Browsers by the mark their user agent carries, most specific first (the Chinese ones say Chrome and Safari too).
BROWSERS = (
    ("MicroMessenger", "WeChat"),
    ("MQQBrowser", "QQ Browser"),
    ("UCBrowser", "UC Browser"),
    ("HuaweiBrowser", "Huawei Browser"),
    ("SamsungBrowser", "Samsung Internet"),
    ("MiuiBrowser", "Mi Browser"),
    ("EdgA", "Edge"),
    ("Edg", "Edge"),
    ("FxiOS", "Firefox"),
    ("Firefox", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome", "Chrome"),
    ("Safari", "Safari"),
)
SYSTEMS = (
    ("HarmonyOS", "HarmonyOS"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)
# An Android phone's model: "Android 14; SM-S9180 Build/…" or "Android 13; 22081212C)"; "K" is Chrome's mask.
ANDROID_MODEL = re.compile(r"Android [\d.]+; (?:[a-z]{2}[-_][A-Za-z]{2}; )?([^;)]+?)(?: Build/[^;)]*)?[;)]")


def user_agent_summary(user_agent: str) -> str:
    """The browser, system and (Android) phone model a device named, short enough for the desk's list, so two
    tablets at one table can be told apart where their user agents allow."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    model = ANDROID_MODEL.search(user_agent)
    if system == "Android" and model and model.group(1).strip() not in ("K", "Mobile", "wv"):
        system = f"{system} {model.group(1).strip()}"
    return " · ".join(part for part in (browser, system) if part)[:120] or user_agent[:120]


def device_opened(link: TableLink, device: str, user_agent: str) -> TableDevice:
    """The device that opened the link, listed for the director (its first and last visit); at most
    ``MAX_DEVICES`` a link."""
    now = timezone.now()
    known = TableDevice.objects.filter(link=link, device=device).first()
    if known is not None:
        TableDevice.objects.filter(pk=known.pk).update(last_seen=now)
        return known
    if TableDevice.objects.filter(link=link).count() >= MAX_DEVICES:
        oldest = TableDevice.objects.filter(link=link).order_by("last_seen", "pk")[0]  # MAX_DEVICES of them
        TableDevice.objects.filter(pk=oldest.pk).update(
            device=device, user_agent=user_agent_summary(user_agent), first_seen=now, last_seen=now
        )
        return TableDevice.objects.get(pk=oldest.pk)
    row, _created = TableDevice.objects.get_or_create(
        link=link, device=device, defaults={"user_agent": user_agent_summary(user_agent), "last_seen": now}
    )
    return row


def device_seen(account, device: str) -> None:
    """A visit of a table's device: its last visit kept, written at most once a minute."""
    now = timezone.now()
    recent = now - timedelta(seconds=SEEN_EVERY_SECONDS)
    TableDevice.objects.filter(link__account=account, device=device, last_seen__lt=recent).update(
        last_seen=now
    )


def note_visit(user, session) -> None:
    """A table device's visit to its match page (``session`` is the request's), for the desk's list of devices."""
    device = session.get(DEVICE_KEY) if session is not None else None
    if device and is_table_account(user):
        device_seen(user, device)


def round_links(rnd: Round) -> list[dict]:
    """Each table of the round with its live link (when it was issued) and the devices that opened it."""
    matches = rnd.matches.select_related("pair_ns", "pair_ew").order_by("table")
    links = {
        link.match_id: link
        for link in TableLink.objects.filter(match__round=rnd, revoked_at__isnull=True).prefetch_related(
            "devices"
        )
    }
    return [{"match": m, "link": links.get(m.pk), "devices": list(links[m.pk].devices.all()) if m.pk in links else []}
            for m in matches]  # fmt: skip
