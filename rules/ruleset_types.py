"""The ruleset's vocabulary: its typed choices (enums), a level band, the limits the engine covers, and the error
every refused setting raises. Plain data, below ``rules.ruleset`` and its readers."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .messages import ruleset_message


class RulesetError(ValueError):
    """An unknown preset or an unknown or invalid setting: ``code`` says which refusal (one of
    ``rules.messages.RULESET_CODES``), ``setting`` the setting it names (None: the ruleset as a whole) and
    ``values`` what its wording needs. ``str()`` is the engine's English (``rules.messages.ruleset_message``); the
    site words each code from its own catalogue, in the director's language."""

    def __init__(self, code: str, setting: str | None = None, **values: Any) -> None:
        super().__init__(code, setting, values)
        self.code = code
        self.setting = setting
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ruleset_error, (self.code, self.setting, self.values))

    def __str__(self) -> str:
        return ruleset_message(self.code, setting=self.setting, **self.values)[0]


def _ruleset_error(code: str, setting: str | None, values: dict[str, Any]) -> RulesetError:
    return RulesetError(code, setting, **values)


MAX_DECKS = 4  # RULES §1 and §13: games of one to four decks
MAX_NUMBER = 99_999  # no setting needs a larger number (points, minutes, strikes, multipliers, bands)


# The choices of a setting. Each is a ``str`` (``KittyScheme.TABLE == "table"``), so the JSON is the value.


class KittyScheme(StrEnum):
    """How the kitty multiplier is found (RULES §9)."""

    UNIT_POWER = "unit_power"
    CARD_POWER = "card_power"
    TABLE = "table"


class FailedThrow(StrEnum):
    """What a failed throw costs: per card taken back, per attempt, or as a misplay."""

    PER_CARD = "per_card"
    PER_ATTEMPT = "per_attempt"
    MISPLAY = "misplay"


class FaultEffect(StrEnum):
    """What a revoke or a renege costs the side at fault: the deal, or a level (and a strike)."""

    LOSE_DEAL = "lose_deal"
    LEVEL = "level"


class WrongCardCount(StrEnum):
    """How a wrong card count ends the deal: the standard way or seed 002's JJ比赛 way."""

    STANDARD = "standard"
    JJ = "jj"


class TimeRule(StrEnum):
    """What happens when a match's time limit passes (issue 31: the three ways clubs write it)."""

    HIGHER_LEVEL = "higher_level"  # the higher level wins; equal levels per ``TimeTie``
    POINTS = (
        "points"  # the side ahead scores 2 match points, equal levels 1 each, whatever the event's points
    )
    SUDDEN_DEATH = "sudden_death"  # both sides are put at the target, the side ahead banks, play on to a win


class TimeTie(StrEnum):
    """Who wins equal levels when time is called."""

    BANKER_SIDE = "banker_side"
    DRAW = "draw"


class BandSide(StrEnum):
    """The side a level-table band gives levels to."""

    BANKER = "banker"
    ATTACKERS = "attackers"


@dataclass(frozen=True, slots=True)
class Band:
    """One row of an explicit level table: from ``low ≤ P`` (None: no lower bound) up to the next band.

    ``side`` gains ``levels``; attackers always take over (with 0 or more levels). ``every`` (last band only)
    adds one more level per ``every`` points above ``low`` — seed 002 JJ比赛: "120－135台下升2级，依次类推".
    """

    low: int | None
    side: BandSide
    levels: int
    every: int | None = None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"from": self.low, "side": str(self.side), "levels": self.levels}
        if self.every is not None:
            d["every"] = self.every
        return d
