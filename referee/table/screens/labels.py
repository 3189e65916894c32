"""The words the trick-entry script shows, in the judge's language: the page, the picker and the violations."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def entry_labels() -> dict[str, str]:
    """The words the trick-entry script shows, in the judge's language (seats by name, cards by face)."""
    return {
        "trick": _("Trick %(n)s"),
        "bury": _("Tap the %(n)s cards the banker buried, then save the kitty: play starts after that."),
        "cards_left": _("%(n)s cards left in each hand"),
        "all_tricks": _("%(n)s tricks"),
        "turn": _("to play: %(seat)s"),
        "won": _("won by %(seat)s, %(points)s points"),
        "done": _("All tricks are played."),
        "review_settled": _("All tricks recorded: open the review"),
        "saved": _("Saved."),
        "undone_play": _("Undone: %(seat)s's %(cards)s."),
        "undone_trick": _("Undone: trick %(n)s."),
        "network": _("The server did not answer; nothing was lost — try again."),
        "retrying": _("Network lost, retrying… (%(n)s of %(max)s)"),
        "recovered": _("The network is back: saved."),
        "gave_up": _(
            "The network is still down. What you entered is still on the page: send it again when the network "
            "is back — it is never recorded twice."
        ),
        "nothing": _("Tap or type the cards first."),
        "read_as": _("Read as: %(cards)s"),
        "not_a_card": _("“%(token)s” is not a card"),
        "leader": _("lead"),
        **picker_labels(),
        "throw": _("Failed throw, challenged by %(seat)s: penalty %(penalty)s points."),
        "attempted": _("tried"),
        "shown": _("shown"),
        "forced": _("actually played"),
        **violation_labels(),
        **{f"stored_{action}": words for action, words in done_words().items()},
    }


def done_words() -> dict[str, str]:
    """What the page says once an action is stored, by action: the action by name, so a judge tapping fast
    knows which one went in (a bare "Saved." for each left them guessing)."""
    return {
        "kitty": _("Kitty saved."),
        "penalty": _("The penalty is recorded."),
        "remove_penalty": _("The penalty is taken off."),
        "played": _("Kept as played."),
        "apply": _("The fault's penalty is applied."),
        "dismiss": _("The fault is dismissed."),
        "undismiss": _("The fault is back on the list."),
        "out_of_turn": _("The play out of turn is recorded."),
        "winner": _("The trick's winner is recorded."),
        "submit": _("The deal is submitted."),
        "confirm": _("The deal is confirmed."),
        "pin_confirm": _("The deal is confirmed with both pairs' PINs."),
        "reopen": _("The deal is reopened."),
        "call-time": _("Time is called."),
    }


def done_sentence(action: str) -> str:
    """``done_words``' sentence for ``action``, else "Saved."."""
    return done_words().get(action) or _("Saved.")


def picker_labels() -> dict[str, str]:
    """The words of the picker, the record button's countdown and a finished trick's banner."""
    return {
        "trump_mark": pgettext("the picker's row of jokers and level cards", "Tr"),
        "left": _("%(card)s, %(n)s left in the hands"),  # a picker button's name to a screen reader
        "record": _("Record play"),
        "sending": _("Sending… tap to cancel"),
        "cancelled": _("Not sent: the cards stay selected; tap “Record play” to send them."),
        "outcome_won": _("Trick %(n)s: %(seat)s wins (%(side)s)"),
        "outcome_points": _("%(points)s points in the trick"),
        "outcome_total": _("attackers %(points)s in all"),
        "outcome_next": _("next lead: %(seat)s"),
        "attackers": _("attackers"),
        "banker_side": _("banker side"),
    }


def violation_labels() -> dict[str, str]:
    """The words of the trick-entry page's list of violations."""
    return {
        "violations_open": _("Violations to settle: %(n)s"),
        "violations_none": _("No open violations."),
        "consequence": _("Penalty: %(penalty)s — %(effect)s"),
        "ruled_played": _("Recorded as played: settle it (apply the penalty) before submitting."),
        "played": _("Recorded as played"),
        "undo_play": _("Undo this play"),
        "apply": _("Apply the penalty"),
        "proven": _(
            "Saved. This play proves a fault (see the list): confirm it was played as recorded, or undo the play."
        ),
    }
