"""Tournament standings (RULES §12): match points, then the director's ordered tie-breaks, ranks with ties.

Pure maths over plain match results, so the site can recompute standings from stored matches at any time.
Linear in the number of matches plus a sort; 512 pairs × 9 rounds takes a few milliseconds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .ranks import RANKS
from .ruleset import Ruleset

TIEBREAKS: tuple[str, ...] = ("level_diff", "buchholz", "head_to_head", "banker_wins", "attackers_points")


class StandingsError(ValueError):
    """Bad settings or results: an unknown tie-break, a winner who did not play, a pair meeting itself."""


@dataclass(frozen=True, slots=True)
class StandingsSettings:
    """Match points and the ordered tie-breaks (any subset of ``TIEBREAKS``, in the director's order)."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2
    tiebreaks: tuple[str, ...] = TIEBREAKS

    def __post_init__(self) -> None:
        for tb in self.tiebreaks:
            if tb not in TIEBREAKS:
                raise StandingsError(f"unknown tie-break {tb!r} (known: {', '.join(TIEBREAKS)})")
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise StandingsError("a tie-break is listed twice")


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished match between pairs ``a`` and ``b`` (``b`` None: a bye for ``a``, worth ``bye_points``, or the
    settings' ``bye`` when None).

    ``winner`` is ``a``, ``b`` or None (a draw). ``level_*`` are final ladder positions (``ladder_position``);
    ``banker_wins_*`` deals won as banker side; ``attackers_points_*`` points scored as attackers.
    ``points_a``/``points_b``: match points the match's own rule fixed (an end by time under the ``points`` time
    rule, ``rules.match.time_points``), taken over the settings' win/draw/loss; None: the settings'.
    """

    a: str
    b: str | None
    winner: str | None
    level_a: int = 0
    level_b: int = 0
    banker_wins_a: int = 0
    banker_wins_b: int = 0
    attackers_points_a: int = 0
    attackers_points_b: int = 0
    bye_points: int | None = None
    both_lose: bool = False  # the director's adjusted result: both pairs take a loss (no winner, no draw)
    points_a: int | None = None
    points_b: int | None = None


def ladder_position(rs: Ruleset, level: str) -> int:
    """A final level's position for the level difference (§12): its rung on the ladder (0 = first rung). A level
    off the ladder (the 2 of permanent twos) counts the rungs below it, so it still sits where it ranks; a text
    that is no rank counts 0."""
    if level in rs.ladder:
        return rs.ladder_index(level)
    below = RANKS.index(level) if level in RANKS else 0
    return sum(1 for rung in rs.ladder if RANKS.index(rung) < below)


def ladder_positions(rs: Ruleset) -> dict[str, int]:
    """``ladder_position`` of every rank, for reading many stored levels."""
    return {level: ladder_position(rs, level) for level in RANKS}


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One pair's line: rank (equal keys share a rank: 1, 2, 2, 4), record and every tie-break value."""

    rank: int
    pair: str
    match_points: int
    played: int
    wins: int
    draws: int
    losses: int
    tiebreaks: Mapping[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "pair": self.pair,
            "match_points": self.match_points,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        } | dict(self.tiebreaks)


def standings(
    results: Iterable[MatchResult],
    settings: StandingsSettings | None = None,
    *,
    pairs: Iterable[str] = (),
) -> list[StandingsRow]:
    """Ordered standings rows. ``pairs`` (in seed order) adds pairs that have not played yet and orders ties.

    Head-to-head is the match points a pair took in matches among the pairs still tied on every earlier key
    (0 when not tied), so its value depends on the tie it breaks; a smaller tie left inside is settled again
    among its own members.
    """
    st = settings or StandingsSettings()
    pairs = tuple(pairs)
    mp: dict[str, int] = defaultdict(int)
    rec: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # wins, draws, losses
    opponents: dict[str, list[str]] = defaultdict(list)
    cols: dict[str, dict[str, int]] = {tb: defaultdict(int) for tb in TIEBREAKS}
    h2h: dict[tuple[str, str], int] = defaultdict(int)
    for p in pairs:
        mp[p] += 0
    for r in results:
        if r.b is None:
            mp[r.a] += st.bye if r.bye_points is None else r.bye_points
            rec[r.a][0] += 1
            continue
        if r.a == r.b:
            raise StandingsError(f"pair {r.a!r} cannot play itself")
        if r.winner not in (r.a, r.b, None):
            raise StandingsError(f"winner {r.winner!r} did not play in {r.a!r} v {r.b!r}")
        for me, opp, lv, olv, bw, ap, fixed in (
            (r.a, r.b, r.level_a, r.level_b, r.banker_wins_a, r.attackers_points_a, r.points_a),
            (r.b, r.a, r.level_b, r.level_a, r.banker_wins_b, r.attackers_points_b, r.points_b),
        ):
            if r.both_lose:
                pts, k = st.loss, 2
            elif r.winner is None:
                pts, k = st.draw, 1
            elif r.winner == me:
                pts, k = st.win, 0
            else:
                pts, k = st.loss, 2
            if fixed is not None and not r.both_lose:
                pts = fixed
            mp[me] += pts
            rec[me][k] += 1
            h2h[(me, opp)] += pts
            opponents[me].append(opp)
            cols["level_diff"][me] += lv - olv
            cols["banker_wins"][me] += bw
            cols["attackers_points"][me] += ap
    for p in mp:
        cols["buchholz"][p] = sum(mp[o] for o in opponents[p])

    keys: dict[str, tuple[int, ...]] = {p: (mp[p],) for p in mp}
    for tb in st.tiebreaks:
        if tb == "head_to_head":
            groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
            for p, key in keys.items():
                groups[key].append(p)
            for group in groups.values():
                for p, beaten in _head_to_head(group, h2h, opponents).items():
                    cols["head_to_head"][p] = beaten[0]
                    keys[p] += beaten
        else:
            for p in keys:
                keys[p] += (cols[tb][p],)

    # Pairs tied on every key keep the order ``pairs`` gave them (seed order), then their ids.
    given = {p: i for i, p in enumerate(dict.fromkeys(pairs))}
    order = sorted(keys, key=lambda p: (tuple(-v for v in keys[p]), given.get(p, len(given)), p))
    rows: list[StandingsRow] = []
    for i, p in enumerate(order):
        rank = rows[-1].rank if rows and keys[order[i - 1]] == keys[p] else i + 1
        w, d, lo = rec[p]
        rows.append(
            StandingsRow(rank, p, mp[p], w + d + lo, w, d, lo, {tb: cols[tb][p] for tb in st.tiebreaks})
        )
    return rows


def _head_to_head(
    group: list[str], h2h: Mapping[tuple[str, str], int], opponents: Mapping[str, list[str]]
) -> dict[str, tuple[int, ...]]:
    """Mini-league points among a tied group, re-applied to any smaller group still tied (so a two-way tie left
    inside a three-way one is settled by the game between those two). A lone pair scores 0."""
    if len(group) == 1:
        return {group[0]: (0,)}
    members = set(group)
    vals = {p: sum(h2h[(p, o)] for o in set(opponents[p]) & members) for p in group}
    sub: dict[int, list[str]] = defaultdict(list)
    for p in group:
        sub[vals[p]].append(p)
    out: dict[str, tuple[int, ...]] = {}
    for v, ps in sub.items():
        if 1 < len(ps) < len(group):
            for p, beaten in _head_to_head(ps, h2h, opponents).items():
                out[p] = (v, *beaten)
        else:
            for p in ps:
                out[p] = (v,)
    return out
