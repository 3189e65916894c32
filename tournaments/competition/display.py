"""How results and the engine's codes are worded, in one place for the judges' pages, the public pages and the
workbook: no code (``revoke_suit``, ``standard``) ever reaches a screen or a sheet.

A *deal's outcome* is what one deal did to the bank and the levels ("banker holds +2"); a *match's result* is who
won the match ("East won", "draw"). The kitty bonus is written as the sum it is (``kitty × multiplier = bonus``).
A violation the engine finds and a ruleset preset have a name each. Every function takes plain values (a
verdict's dicts, a winner's name, a code), so the workbook can word rows it reads as tuples, and the templates
use the same functions through the ``wording`` template filters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.cards import CARD_BY_TEXT, CARD_SYMBOL
from rules.ruleset import PRESETS

# The engine's violation codes (rules.messages) by name: what the judge calls the fault.
VIOLATION_NAMES = {
    "not_held": gettext_lazy("card not held"),
    "deck_count": gettext_lazy("card played too often"),
    "card_count": gettext_lazy("wrong card count"),
    "kitty_count": gettext_lazy("wrong kitty size"),
    "mixed_lead": gettext_lazy("mixed lead"),
    "trump_throw": gettext_lazy("trump throw"),
    "wrong_leader": gettext_lazy("wrong leader"),
    "wrong_order": gettext_lazy("out of turn"),
    "play_size": gettext_lazy("wrong number of cards"),
    "revoke_suit": gettext_lazy("revoke (suit not followed)"),
    "revoke_pair": gettext_lazy("revoke (pair not followed)"),
    "revoke_tractor": gettext_lazy("revoke (tractor not followed)"),
    "throw_should_fail": gettext_lazy("throw that should have failed"),
    "bad_challenge": gettext_lazy("challenge that does not hold"),
    "wrong_forced_unit": gettext_lazy("wrong unit after a failed throw"),
    "incomplete_trick": gettext_lazy("unfinished trick"),
    "incomplete_deal": gettext_lazy("unfinished deal"),
}

# The ruleset presets (rules.ruleset.PRESETS) by name.
PRESET_NAMES = {
    "standard": gettext_lazy("standard rules"),
    "permanent-twos": gettext_lazy("twos always trump"),
    "jj-competition": gettext_lazy("JJ competition rules"),
    "club-competition": gettext_lazy("club competition rules"),
    "one-deck": gettext_lazy("one deck"),
    "three-deck": gettext_lazy("three decks"),
    "four-deck": gettext_lazy("four decks"),
}
# What each preset is, in one line, naming the rules it follows (docs/rules.md cites their documents).
PRESET_DESCRIPTIONS = {
    "standard": gettext_lazy(
        "Two decks, levels 2 to A, one level per 40 points, kitty ×2, ×4, ×8 — the common tractor rules."
    ),
    "permanent-twos": gettext_lazy(
        "Twos always trump, levels 3 to A, kitty ×2, ×4, tractor ×16 — the two-deck tractor rules."
    ),
    "jj-competition": gettext_lazy(
        "First past 10 wins and 10 must be played, a revoke costs a level, three strikes lose, one hour a "
        "match — the JJ competition rules."
    ),
    "club-competition": gettext_lazy(
        "Levels 2, 5, 10, J, Q, K, A with 2 and A must-play, the J rule, at most 3 levels a deal — the "
        "club competition rules."
    ),
    "one-deck": gettext_lazy(
        "One deck: 12 cards each, a kitty of 6, singles only, one level per 20 points — the game with one "
        "deck."
    ),
    "three-deck": gettext_lazy(
        "Three decks: 39 cards each, a kitty of 6, triples and Titanic chains, one level per 60 points — "
        "the rules for three decks."
    ),
    "four-deck": gettext_lazy(
        "Four decks: 54 cards each and no kitty, twos always trump, quads, bombs and bulldozers, one level "
        "per 80 points, at most 3 a deal — the competition rules for four decks."
    ),
}

# The standings' tie-breaks (rules.standings.TIEBREAKS) by name.
TIE_BREAK_NAMES = {
    "level_diff": gettext_lazy("level difference"),
    "buchholz": gettext_lazy("Buchholz"),
    "head_to_head": gettext_lazy("head-to-head"),
    "banker_wins": gettext_lazy("deals won as banker"),
    "attackers_points": gettext_lazy("attackers' points"),
}


def tie_break_name(code: str) -> str:
    """A tie-break's name (``buchholz`` → "Buchholz"); an unknown code as it is."""
    return str(TIE_BREAK_NAMES.get(code, code))


def ruleset_presets() -> list[tuple[str, str, str]]:
    """Every preset of the engine (``rules.ruleset.PRESETS``, in its order) as (code, name, one-line
    description) in the active language, so a preset the engine gains appears wherever presets are offered."""
    return [(code, preset_name(code), str(PRESET_DESCRIPTIONS.get(code, ""))) for code in PRESETS]


def card_face(text: str) -> str:
    """A card (canonical text) as players read it: ``ST`` → ♠10, ``BJ`` → big joker."""
    if text == "BJ":
        return _("Big joker")
    if text == "LJ":
        return _("Small joker")
    return CARD_SYMBOL[CARD_BY_TEXT[text]] if text in CARD_BY_TEXT else text


def card_faces(cards: str | None) -> str:
    """Cards as stored (canonical text, ``SA SA HT``) as players read them: ``♠A ♠A ♥10``."""
    return " ".join(card_face(text) for text in (cards or "").split())


def violation_name(code: str | None) -> str:
    """A violation code's name (``revoke_suit`` → "revoke (suit not followed)"); an unknown code as it is."""
    return str(VIOLATION_NAMES.get(code or "", code or ""))


def preset_name(name: str | None) -> str:
    """A ruleset preset's name (``standard`` → "standard rules")."""
    return str(PRESET_NAMES.get(name or "", name or ""))


def preset_description(name: str | None) -> str:
    """One line on what a preset plays (decks, hand and kitty, its units, its level step); '' when unknown."""
    return str(PRESET_DESCRIPTIONS.get(name or "", ""))


def penalty_note(note: str | None) -> str:
    """A penalty's note: the review page notes the violation a penalty answers by its code, shown by name."""
    return violation_name(note) if note in VIOLATION_NAMES else (note or "")


def deal_outcome(result: Mapping[str, Any] | None) -> str:
    """A verdict's ``result`` in words: who keeps or takes the bank and how many levels they go up."""
    if not result:
        return ""
    outcome, levels = result.get("outcome"), result.get("levels")
    if outcome == "match_won":
        return _("match won")
    if "next_banker" in result and result["next_banker"] is None:
        return _("void deal: the bank is contested")
    if outcome == "takeover":
        return _("takeover +%(n)s") % {"n": levels} if levels else _("takeover")
    if outcome == "banker_holds":
        return _("banker holds +%(n)s") % {"n": levels} if levels else _("banker holds")
    return str(outcome or "")


def match_result(winner: object | None) -> str:
    """A finished match's result: the winning pair (a name or a ``Pair``) won, or a draw when there is none."""
    if not winner:
        return _("draw")
    return _("%(pair)s won") % {"pair": winner}


def match_status(match) -> str:
    """A match in a list of results: its result once finished, else its state (not started, in progress)."""
    if match.state != match.State.FINISHED:
        return str(match.get_state_display())
    if match.ended_by == match.EndedBy.BOARDS:  # a duplicate table: its results are its boards'
        return str(match.get_ended_by_display())
    return match_result(match.winner)


def kitty_bonus(attackers_points: Mapping[str, Any] | None) -> str:
    """The kitty bonus as its sum (``15 × 2 = 30``), ``0`` when the banker side won the last trick."""
    if not attackers_points:
        return ""
    bonus = attackers_points.get("kitty_bonus") or 0
    if not bonus:
        return "0"
    return f"{attackers_points.get('kitty')} × {attackers_points.get('multiplier')} = {bonus}"
