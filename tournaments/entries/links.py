"""An entry's private link and a pair's: the address of a player's own page, with no account.

The token is the row's id and a keyed hash of it (HMAC-SHA256 under the site's ``SECRET_KEY``, 128 bits kept):
nothing is stored, so the database gives no way in (as a table link's kept hash does not), the desk can print a
pair's link on its card at any time, and a double-tapped entry form finds the same link again. A guessed or
altered token matches no row; another row's id with this token's hash matches none either.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from tournaments.models import Entry, Pair, Tournament

KINDS = {"e": "entry", "p": "pair"}
HASH_CHARACTERS = 32  # hex digits kept: 128 bits
MAX_TOKEN = 60


def _mac(kind: str, pk: int) -> str:
    return salted_hmac(f"tournaments.entries.{KINDS[kind]}", str(pk), algorithm="sha256").hexdigest()[
        :HASH_CHARACTERS
    ]


def token_for(row: Entry | Pair) -> str:
    kind = "e" if isinstance(row, Entry) else "p"
    return f"{kind}{row.pk}-{_mac(kind, row.pk)}"


def own_page_path(row: Entry | Pair) -> str:
    """The player's own page of an entry or a pair (a pair that came from an entry has the entry's page)."""
    if isinstance(row, Pair):
        entry = Entry.objects.filter(pair=row).first()
        row = entry or row
    return reverse("own-page", args=[row.tournament.slug, token_for(row)])


def read_token(tournament: Tournament, token: str) -> tuple[Entry | None, Pair | None]:
    """The entry (with its pair, once entries closed) or the pair a token opens in this tournament, or nothing."""
    if not token or len(token) > MAX_TOKEN or token[0] not in KINDS or "-" not in token:
        return None, None
    kind = token[0]
    number, _sep, mac = token[1:].partition("-")
    if not (number.isascii() and number.isdigit() and len(number) < 19):
        return None, None
    if not constant_time_compare(mac, _mac(kind, int(number))):
        return None, None
    if kind == "e":
        entry = Entry.objects.filter(pk=int(number), tournament=tournament).select_related("pair").first()
        return entry, entry.pair if entry else None
    pair = tournament.pairs.filter(pk=int(number)).first()
    return (Entry.objects.filter(pair=pair).first() if pair else None), pair
