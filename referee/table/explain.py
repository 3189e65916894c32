"""Why a deal's result is what it is, in words for the review: every penalty called and every failed throw, each
with its effect (all of them: two revokes are two lines, and a failed throw keeps its line beside them), and one
line when a side's levels stopped short of its gain (a must-play level, the target, the J rule), as the ruleset
has it (``rules.levels.LevelStop``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.table.consequences import consequence_text, failed_throws, penalty_label, seat_label
from rules.levels import JACK, MUST_PLAY, TARGET, LevelGain, LevelStop, level_changes
from rules.ranks import rank_text
from rules.ruleset import Ruleset
from rules.scoring import penalty_consequence
from rules.verdict import Verdict


def side_name(side: str) -> str:
    return _("North–South") if side == "NS" else _("East–West")


def penalty_line(rs: Ruleset, banker: str, p: Mapping[str, Any], players: Mapping[str, str]) -> str:
    """One penalty called, where and by whom, with what it does in this deal."""
    effect = consequence_text(penalty_consequence(rs, banker, p["seat"], p["code"]), rs)
    who = seat_label(p["seat"], players)
    if p.get("trick") is not None:
        return _("%(who)s's %(penalty)s in trick %(n)s: %(effect)s") % {
            "who": who,
            "penalty": penalty_label(p["code"]),
            "n": p["trick"] + 1,
            "effect": effect,
        }
    return _("%(who)s's %(penalty)s: %(effect)s") % {
        "who": who,
        "penalty": penalty_label(p["code"]),
        "effect": effect,
    }


def causes(
    rs: Ruleset, record: Mapping[str, Any], verdict: Verdict | None, players: Mapping[str, str]
) -> list[str]:
    """Every penalty called (in the order called) and every failed throw (in trick order), each with its effect."""
    banker = record["banker"]
    lines = [penalty_line(rs, banker, p, players) for p in record.get("penalties") or ()]
    for t in failed_throws(verdict, rs, banker, players) if verdict is not None else ():
        lines.append(
            ngettext(
                "%(who)s's failed throw in trick %(n)s, %(back)s card taken back: %(effect)s",
                "%(who)s's failed throw in trick %(n)s, %(back)s cards taken back: %(effect)s",
                t["cards_back"],
            )
            % {"who": t["seat_label"], "n": t["trick"] + 1, "back": t["cards_back"], "effect": t["text"]}
        )
    return lines


def stop_line(stop: LevelStop) -> str:
    """Why ``stop.side`` ended the deal where it did, in one line, as the ruleset words it."""
    words = {"side": side_name(stop.side), "level": rank_text(stop.level), "n": stop.gained}
    if stop.reason == JACK:
        return (
            _("J rule: the attackers won the last trick with a J, so %(side)s go back to %(level)s.") % words
        )
    if stop.reason == TARGET:
        return _("Level %(level)s is the target: %(side)s go no higher (%(n)s levels gained).") % words
    if stop.held:
        return (
            _(
                "Level %(level)s must be played: %(side)s gained %(n)s levels but stay at %(level)s until they "
                "win a deal there as the banker side."
            )
            % words
        )
    return _("Level %(level)s must be played: %(side)s stop there (%(n)s levels gained).") % words


def level_stops(verdict: Verdict | None, result: Mapping[str, Any] | None) -> tuple[LevelStop, ...]:
    """The engine's stops of a judged deal (none once the banker side won the match: the target is its win)."""
    if verdict is None or verdict.score is None or not result or result.get("outcome") == "match_won":
        return ()
    return verdict.score.result.stops


def quick_stops(
    rs: Ruleset, banker: str, levels: Mapping[str, str] | None, result: Mapping[str, Any] | None
) -> tuple[LevelStop, ...]:
    """The stops of a deal entered as totals (no tricks to judge): its gain climbed again from its start
    levels (no J rule without tricks)."""
    if not levels or not result or result.get("outcome") == "match_won" or "side" not in result:
        return ()
    gain = LevelGain(result["side"], result["levels"])
    won = gain.side == "banker"
    return level_changes(rs, levels, banker=banker, gain=gain, won=won)[1]


def stop_lines(stops: Sequence[LevelStop]) -> list[str]:
    return [stop_line(s) for s in stops if s.reason in (MUST_PLAY, TARGET, JACK)]
