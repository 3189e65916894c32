"""What a name typed by a stranger may be: the entry form is the one page where anyone at all writes text that the
desk, the projector and every public page will show, so it asks more than the director's own forms do.

A name is letters (any script), digits, spaces and ordinary punctuation. Refused, each with one sentence: an
empty name, a long one, one with no letter, invisible or control characters (a NUL, a right-to-left override, a
zero-width space: they make two names look alike or a page read backwards), and markup or a link (``<``, ``>``,
braces, backslashes, back quotes, ``://``) — the pages escape it anyway, but no player's name needs it.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from tournaments.people.registry import clean_name

MARKUP = set('<>{}\\`"')
INVISIBLE = {"Cc", "Cf", "Co", "Cs", "Cn"}


def name_problem(value: str, max_length: int) -> str | None:
    """Why ``value`` cannot be a name on the entry form, in the page's language; None when it can."""
    name = clean_name(value)
    if not name:
        return _("Type a name.")
    if len(name) > max_length:
        return _("At most %(n)s characters.") % {"n": max_length}
    if any(unicodedata.category(c) in INVISIBLE for c in name):
        return _("A name cannot hold invisible or control characters.")
    if any(c in MARKUP for c in name) or "://" in name:
        return _(
            "A name cannot hold markup or a link: letters, digits, spaces and ordinary punctuation only."
        )
    if not any(unicodedata.category(c).startswith("L") for c in name):
        return _("A name needs at least one letter.")
    return None


def contact_problem(value: str, max_length: int) -> str | None:
    """A phone number, an e-mail address or a messaging name: one line of visible text."""
    contact = " ".join(value.split())
    if not contact:
        return _("Give one way to reach you: a phone number or an e-mail address.")
    if len(contact) > max_length:
        return _("At most %(n)s characters.") % {"n": max_length}
    if any(unicodedata.category(c) in INVISIBLE for c in contact) or any(c in MARKUP for c in contact):
        return _("A contact is a phone number or an address: no markup or control characters.")
    return None
