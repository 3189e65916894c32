"""What the public may see of a featured table now: the current deal of the table's current match, trick by trick
as recorded, as far as the director's delay allows.

Two steps, so a poll that finds nothing new costs a few small reads and no engine: ``where`` reads the featured
table, its current match and deal and how many tricks are complete (one count), and says how many tricks may be
shown (``Where.shown``): the page's validator is made of these alone. ``picture`` then reads the shown tricks and
judges only them, so the banker side's and the attackers' points are counted from the tricks on the page, never
from one the delay still hides. The hands are shown only once the deal is confirmed.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, replace

from rules.cards import format_cards, parse_cards
from rules.seats import side_of
from tournaments.duplicate.visibility import visible_board_ids
from tournaments.models import Deal, FeaturedTable, Match, Play, Round, Tournament
from tournaments.public.charts import TrickCards
from tournaments.scoring.board_hands import start_hands
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.snapshot import judge_record, snapshot, start_levels


@dataclass(frozen=True)
class Where:
    """A featured table as a poll finds it: its match and current deal, and how many tricks the public sees."""

    featured: FeaturedTable
    match: Match | None
    deal: Deal | None
    complete: int  # tricks complete at the table
    shown: int  # tricks the public may see
    withheld: bool = False  # a duplicate board not every table has played: nothing of it is shown

    @property
    def confirmed(self) -> bool:
        """The deal is confirmed and may be shown whole, hands and all."""
        return not self.withheld and self.deal is not None and self.deal.state == Deal.State.CONFIRMED

    @property
    def as_totals(self) -> bool:
        """The deal was entered as totals (quick entry): it has no tricks to show, only its totals, and those
        once it is confirmed, as a recorded deal's hands."""
        return self.deal is not None and self.deal.mode == Deal.Mode.QUICK

    def validator(self, *parts: str) -> str:
        """The page's ETag: it changes when what the page may show changes, and only then (``parts``: the
        tournament's generation, the language)."""
        facts = [
            str(self.featured.pk),
            str(self.featured.delay),
            str(self.match.pk if self.match else ""),
            str(self.deal.pk if self.deal else ""),
            str(self.deal.state if self.deal else ""),
            str(self.shown),
            str(self.withheld),
            *parts,
        ]
        return '"live-' + hashlib.blake2b("\n".join(facts).encode(), digest_size=12).hexdigest() + '"'


def shown_tricks(delay: int | None, complete: int, tricks: int, confirmed: bool) -> int:
    """How many of a deal's tricks the public sees: all once it is confirmed; none before with whole deals only;
    else those with ``delay`` more complete tricks after them."""
    if confirmed:
        return tricks
    if delay is None:
        return 0
    return max(0, complete - delay)


def current_match(tournament: Tournament, table: int) -> Match | None:
    """The match at this hall table in the latest round that is not a draft (a draft's tables are no one's)."""
    return (
        Match.objects.filter(round__tournament=tournament, table=table)
        .exclude(round__state=Round.State.DRAFT)
        .select_related(
            "round", "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2"
        )
        .order_by("-round__number")
        .first()
    )


def where(tournament: Tournament, table: int, user=None) -> Where | None:
    """The featured table now, or None when the table is not featured (its page is a 404). A duplicate board's
    deal shows nothing until ``user`` may see the board's results (``duplicate.visibility``): its cards are the
    board's, still to be played at other tables."""
    featured = FeaturedTable.objects.filter(tournament=tournament, table=table).first()
    if featured is None:
        return None
    match = current_match(tournament, table)
    deal = match.deals.order_by("-number").first() if match else None
    if deal is None:
        return Where(featured, match, None, 0, 0)
    if deal.board_id is not None and deal.board_id not in visible_board_ids(tournament, user):
        return Where(featured, match, deal, 0, 0, withheld=True)
    plays = Play.objects.filter(trick__deal=deal).count()
    tricks = -(-plays // 4)  # every trick but the last has its four plays
    complete = plays // 4
    confirmed = deal.state == Deal.State.CONFIRMED
    return Where(featured, match, deal, complete, shown_tricks(featured.delay, complete, tricks, confirmed))


@dataclass(frozen=True)
class Picture:
    """What the page draws: the shown tricks, the attackers' points in them, and the hands once confirmed."""

    tricks: list[TrickCards]
    attackers_points: int
    hands: dict[str, str]  # canonical text by seat; empty until the deal is confirmed


def picture(at: Where) -> Picture:
    """The shown tricks judged by the engine on a record holding them alone (a hidden trick never counts)."""
    deal = at.deal
    if deal is not None and at.as_totals:  # no tricks: the totals the table entered, once confirmed
        return Picture([], (deal.quick_points or 0) if at.confirmed else 0, {})
    if deal is None or at.match is None or at.shown == 0:
        return Picture([], 0, {})
    deal.match = at.match  # already read, with its round
    snap = snapshot(deal, start_levels(deal))
    snap = replace(snap, tricks=snap.tricks[: at.shown], plays=snap.plays[: at.shown])
    try:
        summaries = judge_record(snap.rec).tricks
    except RecordingError:  # a record the engine cannot read: the cards alone, no points
        summaries = ()
    banker_side = side_of(deal.banker)
    tricks, points = [], 0
    for index, plays in enumerate(snap.plays):
        summary = summaries[index] if index < len(summaries) and len(plays) == 4 else None
        winner = summary.winner if summary else None
        if summary and winner and side_of(winner) != banker_side:
            points += summary.points
        tricks.append(
            TrickCards(
                number=index + 1,
                plays={p.seat: p.cards for p in plays},
                leader=plays[0].seat if plays else "",
                winner=winner,
                points=summary.points if summary else 0,
            )
        )
    return Picture(tricks, points, hands(deal, snap.plays, snap.rec.trump) if at.confirmed else {})


def hands(deal: Deal, plays, order) -> dict[str, str]:
    """Each seat's hand as play began: a board's holdings, else the cards each seat played."""
    held = start_hands(deal)
    if held is not None:
        return {seat: format_cards(cards, order) for seat, cards in held.items()}
    cards: dict[str, list] = defaultdict(list)
    for trick in plays:
        for p in trick:
            cards[p.seat].extend(parse_cards(p.cards))
    return {seat: format_cards(cards[seat], order) for seat in "NESW"}
