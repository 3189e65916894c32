"""A board as people read it: outcomes in words, hands split by suit in card faces (♠A, 小王)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from django.utils.translation import gettext as _

from tournaments.competition.display import card_faces
from tournaments.duplicate.results import TravellerRow
from tournaments.duplicate.team_travellers import TeamTravellerRow

SUIT_ORDER = ("S", "H", "C", "D")


def outcome_words(outcome: str | None) -> str:
    """``banker+2`` → "banker holds +2", ``attackers+0`` → "takeover" (the deal log's words); '' for none."""
    if not outcome:
        return ""
    side, _sep, levels = outcome.partition("+")
    n = int(levels or 0)
    if side == "attackers":
        return _("takeover +%(n)s") % {"n": n} if n else _("takeover")
    return _("banker holds +%(n)s") % {"n": n} if n else _("banker holds")


def hand_lines(cards: str) -> list[str]:
    """A hand in deck order as one line a suit (jokers last), each in card faces."""
    tokens = cards.split()
    lines = [" ".join(t for t in tokens if t[0] == suit and t not in ("LJ", "BJ")) for suit in SUIT_ORDER]
    lines.append(" ".join(t for t in tokens if t in ("LJ", "BJ")))
    return [card_faces(line) for line in lines if line]


def figure(value: Fraction) -> str:
    """Matchpoints as shown: whole, or to two decimals."""
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}"


def frequencies(rows: Sequence[TravellerRow | TeamTravellerRow]) -> list[tuple[str, int]]:
    """How often each outcome happened on the board, in words, the best for North–South first (every table
    holds the same seats, so the outcome follows the NS score); artificial scores apart."""
    played = [r for r in rows if r.outcome is not None and r.ns_score is not None]
    counts = Counter(r.outcome for r in played)
    best = {r.outcome: max(x.ns_score or 0 for x in played if x.outcome == r.outcome) for r in played}
    return [(outcome_words(o), counts[o]) for o in sorted(counts, key=lambda o: -best[o])]
