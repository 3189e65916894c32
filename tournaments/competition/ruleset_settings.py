"""The ruleset's settings in words: each setting's label and help, each choice's name, and the two settings
written as text (the kitty table and the level table) read and written in the active language.

The settings form is built from the ``Ruleset`` dataclass itself; only the words live here, so a setting the
engine gains appears on the form at once (and ``tests/desk/test_setup_forms.py`` asks for its words).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# setting → (label, help).
SETTING_WORDS: dict[str, tuple[Any, Any]] = {
    "decks": (gettext_lazy("decks"), gettext_lazy("Packs of 54 cards shuffled together.")),
    "clockwise": (
        gettext_lazy("play clockwise"),
        gettext_lazy("Off: play goes counter-clockwise, North → West → South → East."),
    ),
    "permanent_twos": (
        gettext_lazy("twos always trump"),
        gettext_lazy("Every 2 is a permanent trump, just below the level cards."),
    ),
    "trump_throws": (
        gettext_lazy("throws in trumps allowed"),
        gettext_lazy("A player may lead several trump units at once."),
    ),
    "ladder": (
        gettext_lazy("levels played"),
        gettext_lazy("The ranks the sides climb, one at a time, from the first level to the target."),
    ),
    "start_level": (gettext_lazy("first level"), gettext_lazy("Both sides start every match here.")),
    "target_level": (
        gettext_lazy("target level"),
        gettext_lazy("Winning a deal as the banker side at this level wins the match."),
    ),
    "must_play": (
        gettext_lazy("must-play levels"),
        gettext_lazy(
            "Levels a side cannot jump over: it must win a deal there as the banker side (the target always is)."
        ),
    ),
    "kitty_scheme": (
        gettext_lazy("kitty multiplier"),
        gettext_lazy("How the kitty's points are multiplied when the attackers win the last trick."),
    ),
    "kitty_cap": (
        gettext_lazy("largest kitty multiplier"),
        gettext_lazy("The multiplier never goes above this (counting by cards)."),
    ),
    "kitty_table": (
        gettext_lazy("kitty multiplier table"),
        gettext_lazy("With the table: the multiplier for each kind of last lead."),
    ),
    "throws_as_single": (
        gettext_lazy("a throw captures the kitty as a single"),
        gettext_lazy("A throw in the last trick multiplies the kitty by 2, whatever it holds."),
    ),
    "level_step": (
        gettext_lazy("points per level"),
        gettext_lazy("Empty: 20 × decks (40 with two decks). Used when there is no level table."),
    ),
    "level_bands": (
        gettext_lazy("level table"),
        gettext_lazy("Bands of the attackers' points and the levels each gives; empty: by points per level."),
    ),
    "level_cap": (gettext_lazy("most levels in one deal"), gettext_lazy("Empty: no limit.")),
    "failed_throw": (
        gettext_lazy("a failed throw costs"),
        gettext_lazy("What a throw that does not stand costs the thrower's side."),
    ),
    "failed_throw_points": (
        gettext_lazy("points for a failed throw"),
        gettext_lazy("Points per card taken back, or per attempt, as chosen above."),
    ),
    "misplay_points": (
        gettext_lazy("points for a misplay"),
        gettext_lazy("Points a misplay gives the opponents."),
    ),
    "signal_points": (
        gettext_lazy("points for a signal"),
        gettext_lazy("Points a signal to the partner gives the opponents; empty: a warning only."),
    ),
    "revoke": (
        gettext_lazy("a revoke costs"),
        gettext_lazy("Not following suit, pair or tractor while able to."),
    ),
    "renege": (gettext_lazy("a renege costs"), gettext_lazy("Taking back a played card.")),
    "wrong_card_count": (
        gettext_lazy("wrong card count"),
        gettext_lazy("How a hand with too many or too few cards ends the deal."),
    ),
    "strikes_to_forfeit": (
        gettext_lazy("strikes that lose the match"),
        gettext_lazy("A side with this many strikes in one match loses it; empty: never."),
    ),
    "j_rule": (
        gettext_lazy("J rule"),
        gettext_lazy(
            "Banker side at J and the attackers win the last trick with a J: the banker side goes back to the "
            "first level."
        ),
    ),
    "time_limit_minutes": (
        gettext_lazy("time limit (minutes)"),
        gettext_lazy("No new deal after the limit; empty: no limit. The tournament's own limit replaces it."),
    ),
    "time_rule": (
        gettext_lazy("when time is called"),
        gettext_lazy(
            "A deal already started is played out first. Then the match ends with the higher level winning, or "
            "ends scored 2 match points to the side ahead and 1 each at equal levels, or both sides go to the "
            "target level and play on, the side ahead holding the bank, until a side wins."
        ),
    ),
    "time_tie": (
        gettext_lazy("equal levels when time is called"),
        gettext_lazy("Who wins when time is called with both sides at the same level."),
    ),
    "mercy_levels": (
        gettext_lazy("mercy rule (levels ahead)"),
        gettext_lazy("A side this many levels ahead wins the match at once; empty: never."),
    ),
    "kitty_cards": (
        gettext_lazy("cards in the kitty"),
        gettext_lazy(
            "Empty: what is left after an even deal (8 with two decks, 6 with one or three); 0: no kitty."
        ),
    ),
    "chain_skips_level": (
        gettext_lazy("chains run over the level rank"),
        gettext_lazy("Off: only truly consecutive ranks make a tractor (four decks)."),
    ),
    "bombs": (
        gettext_lazy("bombs"),
        gettext_lazy(
            "On a lead of one tractor, a set of four or a chain of sets of as many cards beats any tractor."
        ),
    ),
    "follow_tables": (
        gettext_lazy("follow orders"),
        gettext_lazy(
            "For a lead of one set or chain: what the follower plays, the first line they can form."
        ),
    ),
}

# A choice setting's values (rules.ruleset's enums, by value) in words.
CHOICE_WORDS: dict[str, Any] = {
    "unit_power": gettext_lazy("by the unit: single ×2, pair ×4, tractor ×8 and up"),
    "card_power": gettext_lazy("by the cards in the unit: ×2 for each card"),
    "table": gettext_lazy("by the table below"),
    "per_card": gettext_lazy("points for each card taken back"),
    "per_attempt": gettext_lazy("points once per attempt"),
    "misplay": gettext_lazy("as a misplay"),
    "lose_deal": gettext_lazy("the deal is lost"),
    "level": gettext_lazy("one level down and a strike"),
    "standard": gettext_lazy("the side at fault loses the deal"),
    "jj": gettext_lazy("as the JJ competition rules"),
    "higher_level": gettext_lazy("the higher level wins"),
    "points": gettext_lazy("the side ahead scores 2, a tie 1 each"),
    "sudden_death": gettext_lazy("both sides to the target level, the side ahead banks, play on"),
    "banker_side": gettext_lazy("the banker side wins"),
    "draw": gettext_lazy("a draw"),
    "banker": gettext_lazy("banker side"),
    "attackers": gettext_lazy("attackers"),
}

KITTY_KINDS: dict[str, Any] = {
    "single": gettext_lazy("single"),
    "pair": gettext_lazy("pair of cards"),
    "tractor": gettext_lazy("tractor"),
}


class TextFormatError(ValueError):
    """A kitty table or level table the director typed that cannot be read; the message is for them."""


def setting_label(name: str) -> str:
    return str(SETTING_WORDS[name][0]) if name in SETTING_WORDS else name.replace("_", " ")


def setting_help(name: str) -> str:
    return str(SETTING_WORDS[name][1]) if name in SETTING_WORDS else ""


def choice_name(value: str) -> str:
    return str(CHOICE_WORDS.get(value, value))


def _both_languages(words: Iterable[Any]) -> set[str]:
    """Each word as typed in either language (and its code), lower case: a director may type either."""
    out: set[str] = set()
    for lang in ("en", "zh-hans", "zh-hant"):
        with translation.override(lang):
            out.update(str(w).lower() for w in words)
    return out


# ---- the kitty table: "single ×2, pair ×4, tractor ×16, tractor 3 ×32"

# Numbers of at most six digits: a longer one is no multiplier or band (and Python refuses huge int strings).
KITTY_ITEM = re.compile(r"^(?P<kind>.*?)\s*(?P<pairs>\d{1,3})?\s*[×xX*]\s*(?P<mult>-?\d{1,6})$")
NUMBER = re.compile(r"-?\d{1,6}")
SEPARATORS = re.compile(r"[,，;；、\n]+")


def kitty_table_text(table: Mapping[str, int] | None) -> str:
    """The table as the form shows it, in the active language."""
    items = []
    for kind, mult in (table or {}).items():
        base, _sep, pairs = kind.partition(":")
        word = str(KITTY_KINDS.get(base, base))
        items.append(f"{word} {pairs} ×{mult}" if pairs else f"{word} ×{mult}")
    return ", ".join(items)


def read_kitty_table(text: str) -> dict[str, int]:
    """The typed table as the engine's ``kitty_table`` value; TextFormatError names a bad item."""
    out: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in SEPARATORS.split(text or ""))):
        match = KITTY_ITEM.match(item)
        kind = _kitty_kind(match["kind"]) if match else None
        if match is None or kind is None:
            raise TextFormatError(_("“%(item)s” is not a kind and its multiplier.") % {"item": item})
        if match["pairs"]:
            kind = f"{kind}:{match['pairs']}"
        out[kind] = int(match["mult"])
    return out


def _kitty_kind(word: str) -> str | None:
    word = word.strip().lower()
    return next((code for code, name in KITTY_KINDS.items() if word in _both_languages([code, name])), None)


# ---- the level table, one band a line: "below: banker side +4", "100: attackers +1, one more every 20"


def level_bands_text(bands: Iterable[Mapping[str, Any]] | None) -> str:
    """The bands as the form shows them, one a line, in the active language."""
    lines = []
    for band in bands or ():
        low = _("below") if band.get("from") is None else str(band["from"])
        line = _("%(low)s: %(side)s +%(levels)s") % {
            "low": low,
            "side": choice_name(band["side"]),
            "levels": band["levels"],
        }
        if band.get("every"):
            line += _(", one more every %(every)s points") % {"every": band["every"]}
        lines.append(line)
    return "\n".join(lines)


def read_level_bands(text: str) -> list[dict[str, Any]] | None:
    """The typed bands as the engine's ``level_bands`` value (None when empty); TextFormatError names a line."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if not lines:
        return None
    attackers = _both_languages(["attackers", CHOICE_WORDS["attackers"]])
    banker = _both_languages(["banker", CHOICE_WORDS["banker"]])
    bands = []
    for line in lines:
        low_text, sep, rest = line.replace("：", ":").partition(":")
        numbers = [int(n) for n in NUMBER.findall(rest)]
        said = rest.lower()
        side = next(
            (s for s, words in (("attackers", attackers), ("banker", banker)) if _says(said, words)), None
        )
        if not sep or side is None or not numbers or len(numbers) > 3:
            raise TextFormatError(_("Line “%(line)s” is not a band.") % {"line": line})
        low = NUMBER.search(low_text)
        band: dict[str, Any] = {"from": int(low[0]) if low else None, "side": side, "levels": numbers[0]}
        if len(numbers) > 1:
            band["every"] = numbers[-1]
        bands.append(band)
    return bands


def _says(text: str, words: set[str]) -> bool:
    return any(word and word in text for word in words)


# ---- the follow orders: one lead a line, "3x2: 3x2 / 2x2 / 3x1 3x1 / … / —"

FOLLOW_LINE = re.compile(r"^(?P<lead>[^:：]+)[:：](?P<lines>.*)$")
NO_UNIT = "—"


def follow_tables_text(tables: Mapping[str, Any] | None) -> str:
    """The follow orders as the form shows them: a lead a line, its follow lines separated by “/”."""
    return "\n".join(
        f"{lead}: " + " / ".join(" ".join(units) or NO_UNIT for units in lines)
        for lead, lines in (tables or {}).items()
    )


def read_follow_tables(text: str) -> dict[str, list[list[str]]]:
    """The typed follow orders as the engine's ``follow_tables`` (the engine checks each unit); TextFormatError
    names a line without its lead."""
    out: dict[str, list[list[str]]] = {}
    for row in filter(None, (line.strip() for line in (text or "").splitlines())):
        match = FOLLOW_LINE.match(row)
        if match is None:
            raise TextFormatError(
                _("“%(item)s” is not a lead, a colon and its follow lines.") % {"item": row}
            )
        lines = [part.strip() for part in match["lines"].split("/")]
        out[match["lead"].strip()] = [[] if line in (NO_UNIT, "-", "") else line.split() for line in lines]
    return out
