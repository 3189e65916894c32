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

# The ruleset presets (rules.ruleset.PRESETS) by name, each with one line on what it plays.
PRESET_NAMES = {
    "standard": gettext_lazy("standard rules"),
    "permanent-twos": gettext_lazy("twos always trump"),
    "jj-competition": gettext_lazy("JJ competition rules"),
    "club-competition": gettext_lazy("club competition rules"),
    "one-deck": gettext_lazy("one deck"),
    "three-deck": gettext_lazy("three decks"),
    "four-deck": gettext_lazy("four decks"),
}
PRESET_DESCRIPTIONS = {
    "standard": gettext_lazy(
        "Two decks, 2 to A; the kitty doubles by the last lead's unit; a level per 40 points."
    ),
    "permanent-twos": gettext_lazy("Two decks, 2s always trump, 3 to A; kitty ×2, pair ×4, tractor ×16."),
    "jj-competition": gettext_lazy(
        "Two decks, first past 10 wins; a revoke or renege costs a level, three lose the match; one hour."
    ),
    "club-competition": gettext_lazy(
        "Two decks, levels 2, 5, 10, J, Q, K, A; at most 3 levels a deal; the J rule."
    ),
    "one-deck": gettext_lazy("One deck: 12 cards each, a kitty of 6, singles only; a level per 20 points."),
    "three-deck": gettext_lazy(
        "Three decks: 39 cards each, a kitty of 6, triples and Titanic chains; a level per 60 points."
    ),
    "four-deck": gettext_lazy(
        "Four decks: 54 cards each and no kitty, 2s always trump, quads, bombs and bulldozers; "
        "a level per 80 points, at most 3 a deal."
    ),
}


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


def preset_choices() -> list[tuple[str, str]]:
    """Every preset the engine has, as a form's choices: its code and "name — one line" in the active language."""
    return [
        (name, " — ".join(filter(None, (preset_name(name), preset_description(name))))) for name in PRESETS
    ]


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
    return match_result(match.winner)


def kitty_bonus(attackers_points: Mapping[str, Any] | None) -> str:
    """The kitty bonus as its sum (``15 × 2 = 30``), ``0`` when the banker side won the last trick."""
    if not attackers_points:
        return ""
    bonus = attackers_points.get("kitty_bonus") or 0
    if not bonus:
        return "0"
    return f"{attackers_points.get('kitty')} × {attackers_points.get('multiplier')} = {bonus}"
