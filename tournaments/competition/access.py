"""Who may do what — the one home for access rules.

The tournament director (TD) reads and writes everything; a judge writes the matches assigned to them; a deal is
confirmed by a second person. Views, services, templates (through the ``access`` context processor) and tests
all ask here, never repeat a rule.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import Deal, Round, TableLink

DIRECTOR_GROUP = "director"
JUDGE_GROUP = "judge"
# A table device's account (``tournaments.table_links.services``) is named ``table:<round>:<table>:<random>``: no form
# accepts a colon in a user name, so no person's account can be mistaken for one.
TABLE_ACCOUNT_PREFIX = "table:"


def group_names(user) -> frozenset[str]:
    """The user's groups, read once per user object (a request asks several times)."""
    cached = getattr(user, "_group_names", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._group_names = cached
    return cached


def add_to_group(user, name: str) -> None:
    group, _created = Group.objects.get_or_create(name=name)
    user.groups.add(group)
    user.__dict__.pop("_group_names", None)


def is_director(user) -> bool:
    """A TD: a superuser or a member of the director group."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or DIRECTOR_GROUP in group_names(user)


def is_judge(user) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return JUDGE_GROUP in group_names(user)


def judge_accounts(*, include_inactive: bool = False):
    """The accounts the TD may put at a table, by user name: active judges (all of them for the judges' list)."""
    accounts = get_user_model().objects.filter(groups__name=JUDGE_GROUP).order_by("username")
    return accounts if include_inactive else accounts.filter(is_active=True)


def director_accounts():
    """Every TD's account, by user name: a superuser or a member of the director group."""
    accounts = get_user_model().objects.filter(Q(is_superuser=True) | Q(groups__name=DIRECTOR_GROUP))
    return accounts.distinct().order_by("username")


def is_judge_account(account) -> bool:
    """An account the desk's judges page manages (password, deactivation): a judge who is not a TD, so no
    director's account is ever reset or locked out from there."""
    return is_judge(account) and not account.is_superuser and DIRECTOR_GROUP not in group_names(account)


def is_captain_account(account) -> bool:
    """An account the desk's pairs pages give a pair's captain (link, new password, remove): none of a TD, a
    judge or the admin's staff, whose powers are wider than confirming a pair's deals and are managed elsewhere,
    nor a table device's."""
    if account.is_superuser or account.is_staff or is_table_account(account):
        return False
    return not group_names(account) & {DIRECTOR_GROUP, JUDGE_GROUP}


def is_table_account(user) -> bool:
    """The account a device signs in as by opening a table's link (the QR code on its card)."""
    return bool(getattr(user, "is_authenticated", False)) and user.get_username().startswith(
        TABLE_ACCOUNT_PREFIX
    )


def table_match_id(user) -> int | None:
    """The one match a table device's account records, while its link is live (not revoked, its round and
    tournament not finished); None for every other account. Read once per user object."""
    if not is_table_account(user):
        return None
    if not hasattr(user, "_table_match_id"):
        user._table_match_id = (
            TableLink.objects.live().filter(account=user).values_list("match_id", flat=True).first()
        )
    return user._table_match_id


def table_refusal(user, match) -> str:
    """Why a table device may not open this match's pages ("" when it may, and for every other account): a
    device records its own table only, and only while its link is live."""
    if not is_table_account(user):
        return ""
    own = table_match_id(user)
    if own is None:
        return _("This device's table link no longer works: ask the director for the table's new card.")
    if own != match.pk:
        return _("This device records only the table whose card it scanned.")
    return ""


# --- tournaments and their pages ---------------------------------------------------------------------------


def visible_tournaments(user, queryset):
    """Public tournaments for everyone; the TD sees the hidden ones too."""
    return queryset if is_director(user) else queryset.filter(is_public=True)


def can_read_tournament(user, tournament) -> bool:
    return tournament.is_public or is_director(user)


def can_use_desk(user) -> bool:
    """The scoring desk (pairing, import, export) is the TD's."""
    return is_director(user)


def can_see_page(user, tournament, switch: str) -> bool:
    """A public page of the tournament whose switch (``public_standings`` …) is on, or any page for the TD."""
    return is_director(user) or (tournament.is_public and bool(getattr(tournament, switch)))


def sees_drafts(user) -> bool:
    """Draft rounds (unpublished pairings) are shown to the TD only."""
    return is_director(user)


def published(matches):
    """The matches of published (or finished) rounds: a draft's tables are not anyone's yet."""
    return matches.exclude(round__state=Round.State.DRAFT)


# --- matches and deals -------------------------------------------------------------------------------------


def in_draft(match) -> bool:
    """A match of a draft round: the TD may still change or discard its pairing, so it takes no entries."""
    return match.round.state == Round.State.DRAFT


def is_captain(user, match) -> bool:
    """The account of a captain (first player) of either pair of the match."""
    return user.pk in {match.pair_ns.captain_id, match.pair_ew.captain_id} - {None}


def own_matches(user, matches):
    """The matches that are the user's by name: the tables they judge, and their pairs' as captain (what their
    home page lists, to record or confirm)."""
    return matches.filter(Q(judge=user) | Q(pair_ns__captain=user) | Q(pair_ew__captain=user))


def is_official(user, match) -> bool:
    """Who records or confirms the match's deals: the TD, the table's judge, any judge, a pair's captain."""
    if not getattr(user, "is_authenticated", False):
        return False
    # The table's own judge first: it needs no read of the user's groups (the common case, a play).
    if match.judge_id == user.pk:
        return True
    if is_table_account(user):
        return table_match_id(user) == match.pk
    return is_director(user) or is_judge(user) or is_captain(user, match)


def can_read_match(user, match) -> bool:
    """The match page: the TD always; anyone else once the round is published — its officials (the table's
    judge, another judge, a captain: they confirm deals, even in a hidden tournament) and, in a public
    tournament whose pairings are public, everybody."""
    if in_draft(match):
        return is_director(user)
    return is_official(user, match) or can_see_page(user, match.round.tournament, "public_pairings")


def can_read_results(user, match) -> bool:
    """The match's levels, banker and result: its officials, or everybody when results are public."""
    return is_official(user, match) or can_see_page(user, match.round.tournament, "public_results")


def can_read_deals(user, match) -> bool:
    """The match's deals (and the deal, review and state pages): officials, or everybody with the deal log."""
    if not can_read_match(user, match):
        return False
    return is_official(user, match) or can_see_page(user, match.round.tournament, "public_deal_log")


def can_record(user, match) -> bool:
    """The TD, the judge assigned to the table, or a device signed in by the table's live link writes a match,
    once its round is published and while its tournament is not finished."""
    if not getattr(user, "is_authenticated", False) or in_draft(match) or match.round.tournament.is_finished:
        return False
    # The table's own judge first: it needs no read of the user's groups (the common case, a play).
    if match.judge_id is not None and match.judge_id == user.pk:
        return True
    if is_table_account(user):
        return table_match_id(user) == match.pk
    return is_director(user)


def can_confirm(user, deal) -> bool:
    """A second person: another judge, the TD, or a captain (first player) of either pair — never the submitter.
    A deal the table's device submitted is not a captain's to confirm: one pair may have recorded it there alone,
    so both pairs' PINs confirm it on that device (``can_confirm_by_pin``), or an official does."""
    if not getattr(user, "is_authenticated", False) or deal.submitted_by_id == user.pk:
        return False
    if is_director(user) or is_judge(user):
        return True
    return is_captain(user, deal.match) and not (deal.submitted_by and is_table_account(deal.submitted_by))


def can_confirm_by_pin(user, deal) -> bool:
    """The players confirm a submitted deal on the table's own screen with both pairs' PINs: offered to whoever
    records the match (the table's device too, though it submitted: the two PINs are both sides' word)."""
    return deal.state == Deal.State.SUBMITTED and can_record(user, deal.match)


def can_reopen(user) -> bool:
    """Only the TD reopens a confirmed or submitted deal, forfeits a match or sees the change history."""
    return is_director(user)


def context(request) -> dict:
    """Template context: ``is_director`` for every page, the one name templates use for the TD's links."""
    user = getattr(request, "user", None)
    return {"is_director": bool(user and is_director(user))}
