"""Who may do what — the one home for access rules.

An organisation's admins and directors (and a tournament's chief director) read and write everything of its
events; its scorers enter and confirm results, and set nothing up; the site's admin (a superuser) may do anything
anywhere. A judge writes the matches assigned to them; a deal is confirmed by a second person. Views, services, templates (through the ``access`` context processor) and tests
all ask here, never repeat a rule.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import DIRECTING, Deal, Membership, Organisation, Role, Round, TableLink, Tournament

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


def memberships(user) -> dict[int, str]:
    """The user's role in each organisation, by its id, read once per user object."""
    if not getattr(user, "is_authenticated", False):
        return {}
    cached = getattr(user, "_memberships", None)
    if cached is None:
        cached = dict(Membership.objects.filter(user=user).values_list("organisation_id", "role"))
        user._memberships = cached
    return cached


def forget_memberships(user) -> None:
    user.__dict__.pop("_memberships", None)
    user.__dict__.pop("_chief_of", None)


def chief_of(user) -> frozenset[int]:
    """The ids of the tournaments the user is the chief director of, read once per user object."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    cached = getattr(user, "_chief_of", None)
    if cached is None:
        cached = frozenset(Tournament.objects.filter(chief_director=user).values_list("pk", flat=True))
        user._chief_of = cached
    return cached


def is_director(user) -> bool:
    """Someone with a desk at all: the site's admin, or an admin or director of some organisation (what the
    header's links and the desk's lists ask; whose events they may change is ``directs``)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or DIRECTOR_GROUP in group_names(user):
        return True
    return any(role in DIRECTING for role in memberships(user).values()) or bool(chief_of(user))


def has_desk(user) -> bool:
    """A director, or a scorer of some organisation: the desk's home lists their events."""
    return is_director(user) or Role.SCORER in memberships(user).values()


def directs(user, tournament) -> bool:
    """The tournament's director: the site's admin, its chief director, or an admin or director of its
    organisation. A tournament of no organisation is the site admin's alone."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or (
        tournament.chief_director_id is not None and tournament.chief_director_id == user.pk
    ):
        return True
    return (
        tournament.organisation_id is not None
        and memberships(user).get(tournament.organisation_id) in DIRECTING
    )


def scores(user, tournament) -> bool:
    """Enters and confirms the tournament's results, runs its board and calls: its directors and its
    organisation's scorers."""
    if directs(user, tournament):
        return True
    return (
        tournament.organisation_id is not None
        and memberships(user).get(tournament.organisation_id) == Role.SCORER
    )


def directed_organisations(user) -> list[int]:
    """The ids of the organisations whose events the user directs as an admin or a director."""
    return [org for org, role in memberships(user).items() if role in DIRECTING]


def directing_organisations(user):
    """The organisations a new tournament or series of the user's may belong to."""
    if getattr(user, "is_authenticated", False) and user.is_superuser:
        return Organisation.objects.all()
    return Organisation.objects.filter(pk__in=directed_organisations(user))


def directed_tournaments(user, queryset):
    """The tournaments of ``queryset`` the user directs."""
    if not getattr(user, "is_authenticated", False):
        return queryset.none()
    if user.is_superuser:
        return queryset
    return queryset.filter(Q(organisation_id__in=directed_organisations(user)) | Q(chief_director_id=user.pk))


def directs_series(user, series) -> bool:
    """A series is run by its organisation's admins and directors (the site's admin: any)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or (
        series.organisation_id is not None and memberships(user).get(series.organisation_id) in DIRECTING
    )


def visible_series(user, queryset):
    """Public series for everyone; a hidden one for its organisation's members too."""
    if getattr(user, "is_authenticated", False) and user.is_superuser:
        return queryset
    return queryset.filter(Q(is_public=True) | Q(organisation_id__in=list(memberships(user))))


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


def tournament_directors(tournament) -> list:
    """Who runs the tournament, each with what they may do: its chief director, then its organisation's members
    by role (``role_label`` on each account)."""
    found = []
    if tournament.chief_director_id is not None:
        chief = get_user_model().objects.get(pk=tournament.chief_director_id)
        setattr(chief, "role_label", _("chief director"))  # noqa: B010 (a label for the page, not a field)
        found.append(chief)
    if tournament.organisation_id is None:
        for admin in get_user_model().objects.filter(is_superuser=True, is_active=True).order_by("username"):
            if admin.pk != tournament.chief_director_id:
                setattr(admin, "role_label", _("the site's admin"))  # noqa: B010
                found.append(admin)
    else:
        for membership in Membership.objects.filter(
            organisation_id=tournament.organisation_id
        ).select_related("user"):
            if membership.user_id != tournament.chief_director_id:
                setattr(membership.user, "role_label", membership.get_role_display())  # noqa: B010
                found.append(membership.user)
    return found


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
    """Public tournaments for everyone; its directors and scorers see a hidden one too."""
    if getattr(user, "is_authenticated", False) and user.is_superuser:
        return queryset
    mine = list(memberships(user))
    if not mine and not getattr(user, "is_authenticated", False):
        return queryset.filter(is_public=True)
    return queryset.filter(Q(is_public=True) | Q(organisation_id__in=mine) | Q(chief_director_id=user.pk))


def can_read_tournament(user, tournament) -> bool:
    return tournament.is_public or scores(user, tournament)


def can_use_desk(user, tournament=None) -> bool:
    """The scoring desk (pairing, import, export) of a tournament is its directors'; without one, whether the
    user has a desk at all."""
    return is_director(user) if tournament is None else directs(user, tournament)


def can_see_page(user, tournament, switch: str) -> bool:
    """A public page of the tournament whose switch (``public_standings`` …) is on, or any page for those who
    run it."""
    return scores(user, tournament) or (tournament.is_public and bool(getattr(tournament, switch)))


def sees_drafts(user, tournament) -> bool:
    """Draft rounds (unpublished pairings) are shown to those who run the tournament only."""
    return scores(user, tournament)


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
    return scores(user, match.round.tournament) or is_judge(user) or is_captain(user, match)


def can_read_match(user, match) -> bool:
    """The match page: the TD always; anyone else once the round is published — its officials (the table's
    judge, another judge, a captain: they confirm deals, even in a hidden tournament) and, in a public
    tournament whose pairings are public, everybody."""
    if in_draft(match):
        return scores(user, match.round.tournament)
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
    return scores(user, match.round.tournament)


def can_confirm(user, deal) -> bool:
    """A second person: another judge, the TD, or a captain (first player) of either pair — never the submitter.
    A deal the table's device submitted is not a captain's to confirm: one pair may have recorded it there alone,
    so both pairs' PINs confirm it on that device (``can_confirm_by_pin``), or an official does."""
    if not getattr(user, "is_authenticated", False) or deal.submitted_by_id == user.pk:
        return False
    if scores(user, deal.match.round.tournament) or is_judge(user):
        return True
    return is_captain(user, deal.match) and not (deal.submitted_by and is_table_account(deal.submitted_by))


def can_confirm_by_pin(user, deal) -> bool:
    """The players confirm a submitted deal on the table's own screen with both pairs' PINs: offered to whoever
    records the match (the table's device too, though it submitted: the two PINs are both sides' word)."""
    return deal.state == Deal.State.SUBMITTED and can_record(user, deal.match)


def can_reopen(user, tournament) -> bool:
    """Only the tournament's director reopens a confirmed or submitted deal, forfeits a match or sees the change
    history."""
    return directs(user, tournament)


def context(request) -> dict:
    """Template context: ``is_director`` (a desk of one's own) and ``is_site_admin`` (the admin site's link) for
    every page."""
    user = getattr(request, "user", None)
    return {
        "is_director": bool(user and is_director(user)),
        "is_site_admin": bool(user and getattr(user, "is_authenticated", False) and user.is_superuser),
    }
