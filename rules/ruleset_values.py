"""One ruleset setting's JSON value read into its type (naming the setting and the bad value when refused) and
written back: what ``Ruleset.from_spec`` and ``to_spec`` do to each setting."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from .ranks import parse_rank
from .ruleset_types import (
    Band,
    BandSide,
    FailedThrow,
    FaultEffect,
    KittyScheme,
    RulesetError,
    TimeRule,
    TimeTie,
    WrongCardCount,
)

_INT_OPTIONAL = {
    "kitty_cards",
    "level_step",
    "level_cap",
    "strikes_to_forfeit",
    "time_limit_minutes",
    "mercy_levels",
    "signal_points",
}
_INT = {"decks", "kitty_cap", "failed_throw_points", "misplay_points"}
_BOOL = {
    "clockwise",
    "permanent_twos",
    "trump_throws",
    "throws_as_single",
    "j_rule",
    "chain_skips_level",
    "bombs",
}
_TABLE_KEY = re.compile(r"[234]x(?:[1-9]|\*)")
_TABLE_ITEM = re.compile(r"[234]x(?:[1-9]|\*|\+)|[234][+*]")
_ENUMS: dict[str, type[StrEnum]] = {
    "kitty_scheme": KittyScheme,
    "failed_throw": FailedThrow,
    "revoke": FaultEffect,
    "renege": FaultEffect,
    "wrong_card_count": WrongCardCount,
    "time_rule": TimeRule,
    "time_tie": TimeTie,
}
_TABLE_KINDS = ("single", "pair", "tractor")


def _rank(key: str, value: Any) -> str:
    try:
        return parse_rank(value)
    except ValueError:
        raise RulesetError("unknown_rank", key, value=value) from None


def _int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError("not_integer", key, value=value)
    return value


def coerce(key: str, value: Any) -> Any:
    """Turn one JSON setting value into the field's type; RulesetError names the setting on a bad value."""
    if key in _BOOL:
        if not isinstance(value, bool):
            raise RulesetError("not_boolean", key, value=value)
        return value
    if key in _INT:
        return _int(key, value)
    if key in _INT_OPTIONAL:
        return None if value is None else _int(key, value)
    if key in _ENUMS:
        member = _choice(_ENUMS[key], value)
        if member is None:
            raise RulesetError("unknown_choice", key, value=value, known=_known(key))
        return member
    if key in ("start_level", "target_level"):
        return _rank(key, value)
    if key in ("ladder", "must_play"):
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise RulesetError("not_rank_list", key, value=value)
        return tuple(_rank(key, v) for v in value)
    if key == "kitty_table":
        if not isinstance(value, Mapping):
            raise RulesetError("kitty_table_not_object", "kitty_table", value=value)
        out = []
        for kind, mult in value.items():
            if kind not in _TABLE_KINDS and not _is_tractor_key(kind):
                raise RulesetError("kitty_table_kind", "kitty_table", kind=kind)
            out.append((kind, _int("kitty_table", mult)))
        return tuple(out)
    if key == "follow_tables":
        return follow_tables(value)
    if key == "level_bands":
        if value is None:
            return None
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise RulesetError("bands_not_list", "level_bands", value=value)
        return tuple(_band(v) for v in value)
    raise RulesetError(
        "unknown_setting", key if isinstance(key, str) else None, key=key
    )  # pragma: no cover - _SETTINGS guards


def follow_tables(value: Any) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """``{"3x1": [["3x1"], ["2x1"], []], …}`` → the ruleset's tuples; names the bad key, line or item."""
    if not isinstance(value, Mapping):
        raise RulesetError("follow_not_object", "follow_tables", value=value)
    out = []
    for kind, lines in value.items():
        if not isinstance(kind, str) or not _TABLE_KEY.fullmatch(kind):
            raise RulesetError("follow_lead_kind", "follow_tables", kind=kind)
        if isinstance(lines, str) or not isinstance(lines, list | tuple) or not lines:
            raise RulesetError("follow_no_lines", "follow_tables", kind=kind)
        parsed = []
        for line in lines:
            if isinstance(line, str) or not isinstance(line, list | tuple):
                raise RulesetError("follow_line", "follow_tables", kind=kind, line=line)
            for item in line:
                if not isinstance(item, str) or not _TABLE_ITEM.fullmatch(item):
                    raise RulesetError("follow_unit", "follow_tables", item=item, kind=kind)
            parsed.append(tuple(line))
        out.append((kind, tuple(parsed)))
    return tuple(out)


def _known(key: str) -> str:
    """A choice setting's values for an error message."""
    return ", ".join(m.value for m in _ENUMS[key])


def _choice(kind: type[StrEnum], value: Any) -> Any:
    """The member of ``kind`` whose value is ``value`` (JSON gives plain strings), else None."""
    try:
        return kind(value)
    except (ValueError, TypeError):
        return None


def _is_tractor_key(kind: Any) -> bool:
    return (
        isinstance(kind, str)
        and kind.startswith("tractor:")
        and kind[8:].isascii()
        and kind[8:].isdigit()
        and int(kind[8:]) >= 2
    )


def _band(value: Any) -> Band:
    if not isinstance(value, Mapping):
        raise RulesetError("band_not_object", "level_bands", value=value)
    unknown = set(value) - {"from", "side", "levels", "every"}
    if unknown:
        raise RulesetError("band_field", "level_bands", field=sorted(unknown)[0])
    low = value.get("from")
    side = _choice(BandSide, value.get("side"))
    if side is None:
        raise RulesetError("band_side", "level_bands", value=value.get("side"))
    every = value.get("every")
    return Band(
        None if low is None else _int("level_bands", low),
        side,
        _int("level_bands", value.get("levels")),
        None if every is None else _int("level_bands", every),
    )


def to_json(key: str, value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if key in ("ladder", "must_play"):
        return list(value)
    if key == "kitty_table":
        return dict(value)
    if key == "follow_tables":
        return {kind: [list(line) for line in lines] for kind, lines in value}
    if key == "level_bands":
        return None if value is None else [b.as_dict() for b in value]
    return value
