"""Cards on the judges' screens: each card's label in the active language, the card picker's rows (copies left),
and a challenged throw as the judge saw it."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules.cards import ALL_CARDS, CARD_SYMBOL, CARD_TEXT
from rules.order import TRUMP, trump_from_text
from rules.scoring import failed_throw_points
from tournaments.competition.display import card_face
from tournaments.models import Deal

FACES = {CARD_TEXT[c]: CARD_SYMBOL[c] for c in range(52)}  # ♠10, ♥A …: the engine's own symbols


def card_label(text: str, labels: dict[str, dict] | None = None) -> dict:
    """How a card shows on screen: ``{"code": "ST", "face": "♠10", "suit": "S"}``, a fresh copy of its label in
    ``labels`` (``card_labels``; the active language's when not given)."""
    return dict((labels or card_labels(get_language()))[text])


@lru_cache(maxsize=16)
def card_labels(language: str | None) -> dict[str, dict]:
    """Every card's label in ``language`` (the active one when it is worked out), worked out once: a screen asks
    for the language once, not once per card (asking costs more than the label)."""
    labels = {"BJ": {"code": "BJ", "face": card_face("BJ"), "suit": "J", "short": _("BJ")}}
    labels["LJ"] = {"code": "LJ", "face": card_face("LJ"), "suit": "J", "short": _("LJ")}
    for text, face in FACES.items():
        labels[text] = {"code": text, "face": face, "suit": text[0], "short": face}
    return labels


def throw_info(trick, plays, rs, labels: dict[str, dict] | None = None) -> dict:
    """A challenged throw as the judge saw it, with the unit played and the penalty it costs."""
    played = len(plays[0].cards.split()) if plays else 0
    taken_back = max(len(trick.throw_attempted.split()) - played, 0)
    return {
        "attempted": [card_label(c, labels) for c in trick.throw_attempted.split()],
        "challenger": trick.throw_challenger,
        "shown": [card_label(c, labels) for c in trick.throw_shown.split()],
        "forced": [card_label(c, labels) for c in plays[0].cards.split()] if plays else [],
        "penalty": failed_throw_points(rs, taken_back),
    }


def picker_rows(deal: Deal, played: Counter, decks: int, permanent_twos: bool) -> list[dict]:
    """The card picker, one button a face with the copies left: the jokers and level cards (and permanent 2s)
    first, then the trump suit's own cards (``trump``), then each plain suit, high to low."""
    language = get_language()
    labels = card_labels(language)
    return [
        {
            "suit": suit,
            "name": name,
            "trump": is_trump,
            "cards": [{**labels[text], "left": max(decks - played[text], 0)} for text in texts],
        }
        for suit, name, is_trump, texts in picker_layout(deal.level, deal.trump, permanent_twos, language)
    ]


@lru_cache(maxsize=256)
def picker_layout(level: str, trump: str, permanent_twos: bool, language: str | None) -> tuple:
    """The picker's rows for a level and trump, in ``language``: (suit, its name, trump or not, the cards high to
    low); the trump group split in two short rows, its top cards and the trump suit's own run (a row a suit, as
    the hand is held). Worked out once, as the judges' pages ask for it on every play."""
    t = trump_from_text(level, trump, permanent_twos)
    groups: dict[int, list[int]] = {}
    for card in t.sort(ALL_CARDS):
        groups.setdefault(t.suit_of(card), []).append(card)
    names = {TRUMP: _("Trumps"), 0: _("Spades"), 1: _("Hearts"), 2: _("Clubs"), 3: _("Diamonds")}
    rows = []
    for suit in [TRUMP, 0, 1, 2, 3]:
        if suit not in groups:
            continue
        cards = groups[suit]
        run = trump_suit_run(cards, t) if suit == TRUMP and t.trump is not None else 0
        if run and t.trump is not None:
            rows.append(("T", names[TRUMP], True, tuple(CARD_TEXT[c] for c in cards[: len(cards) - run])))
            rows.append(("SHCD"[t.trump], names[t.trump], True, tuple(CARD_TEXT[c] for c in cards[-run:])))
            continue
        rows.append(
            (
                "T" if suit == TRUMP else "SHCD"[suit],
                names[suit],
                suit == TRUMP,
                tuple(CARD_TEXT[c] for c in cards),
            )
        )
    return tuple(rows)


def trump_suit_run(cards: list[int], t) -> int:
    """How many of the trump group's last cards (high to low) are the trump suit's plain ranks: neither the level
    card nor a permanent 2."""
    run = 0
    for card in reversed(cards):
        rank = card % 13 if card < 52 else -1
        if card >= 52 or card // 13 != t.trump or rank == t.level or (t.permanent_twos and rank == 0):
            break
        run += 1
    return run


def held_rows(deal: Deal, left: Counter, permanent_twos: bool) -> list[dict]:
    """A board's picker (RULES §14.6): only the cards the seat to play still holds (``left``: copies by card
    text), in the picker's rows; a card the seat does not hold has no button, so a single is one tap."""
    language = get_language()
    labels = card_labels(language)
    rows = []
    for suit, name, is_trump, texts in picker_layout(deal.level, deal.trump, permanent_twos, language):
        cards = [{**labels[text], "left": left[text]} for text in texts if left[text] > 0]
        if cards:
            rows.append({"suit": suit, "name": name, "trump": is_trump, "cards": cards})
    return rows
