"""Entries on line: a tournament opened for entries (its capacity, closing time, approval and fee) and each pair's
entry, with its place (accepted, on the waiting list, awaiting approval) until the director closes entries and
the accepted entries become the tournament's pairs.

An entry's order is its ``pk`` (entries are made one at a time under the tournament's lock, so ids rise in the
order they came); the waiting list is the waiting entries in that order.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.competition.models import Pair, Tournament
from tournaments.competition.stamps import by_user
from tournaments.teams.models import Team


class EntryWindow(models.Model):
    """A tournament open (or once opened) for entries on line: one per tournament, kept after closing so the
    entries' pages still say what became of them."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="entry_window", verbose_name=_("tournament")
    )
    capacity = models.PositiveSmallIntegerField(_("places"))
    closes_at = models.DateTimeField(
        _("entries close at"), null=True, blank=True, help_text=_("leave empty to close them by hand")
    )
    approval = models.BooleanField(
        _("entries need approval"), default=False, help_text=_("the director accepts each entry")
    )
    fee = models.CharField(
        _("entry fee"),
        max_length=100,
        blank=True,
        help_text=_("as shown to the players, e.g. 100 yuan a pair"),
    )
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    opened_by = by_user(_("opened by"))
    # Set when the director closes entries and the accepted entries become pairs; entries are taken no more.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True, editable=False)
    closed_by = by_user(_("closed by"), editable=False)

    class Meta:
        verbose_name = _("entries on line")
        verbose_name_plural = _("entries on line")

    def __str__(self) -> str:
        return str(self.tournament)


class Entry(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("awaiting approval")
        ACCEPTED = "accepted", _("accepted")
        WAITING = "waiting", _("on the waiting list")
        WITHDRAWN = "withdrawn", _("withdrawn")
        REFUSED = "refused", _("refused")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    # The form's one-time key: a second post of the same form (a double tap, a retry) finds this entry.
    key = models.CharField(_("form key"), max_length=64, editable=False)
    name = models.CharField(_("name"), max_length=100)  # the pair's, or the team's in a team event
    player1 = models.CharField(_("player 1"), max_length=100, blank=True)
    player2 = models.CharField(_("player 2"), max_length=100, blank=True)
    # A team event's entry: its captain's name and its pairs' two players each ([["张三", "李四"], …]).
    captain = models.CharField(_("captain"), max_length=100, blank=True)
    roster = models.JSONField(_("pairs"), default=list, blank=True)
    club = models.CharField(_("club"), max_length=100, blank=True)
    contact = models.CharField(_("contact"), max_length=200)
    state = models.CharField(_("state"), max_length=10, choices=State.choices)
    made_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    # When a withdrawal gave this waiting entry a place: its page tells it so.
    promoted_at = models.DateTimeField(_("given a place at"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    paid_at = models.DateTimeField(_("fee paid at"), null=True, blank=True)
    paid_by = by_user(_("fee taken by"))
    pair = models.OneToOneField(
        Pair,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entry",
        verbose_name=_("pair"),
    )
    team = models.OneToOneField(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entry",
        verbose_name=_("team"),
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="entry_key_unique_in_tournament"),
            models.UniqueConstraint(
                fields=["tournament", "name"],
                condition=Q(state__in=["pending", "accepted", "waiting"]),
                name="entry_live_name_unique_in_tournament",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> str:
        if self.roster:
            return " · ".join(f"{one} / {two}" for one, two in self.roster)
        return f"{self.player1} / {self.player2}"

    @property
    def names(self) -> list[str]:
        """Every player the entry names (a team's: its roster's)."""
        if self.roster:
            return [name for pair in self.roster for name in pair]
        return [self.player1, self.player2]

    @property
    def is_live(self) -> bool:
        """Still in the running: accepted, waiting or awaiting approval."""
        return self.state in (Entry.State.PENDING, Entry.State.ACCEPTED, Entry.State.WAITING)
