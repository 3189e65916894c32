"""django-tables2 tables of the tournament overview (sortable, shared by the desk and the public pages)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournaments.models import Match, Pair


class PairTable(tables.Table):
    seed = tables.Column(verbose_name=_("seed"))
    name = tables.Column(verbose_name=_("pair name"))
    players = tables.Column(verbose_name=_("players"), accessor="players", order_by=("player1__name",))
    club = tables.Column(verbose_name=_("club"))
    withdrawn = tables.BooleanColumn(verbose_name=_("withdrawn"))

    class Meta:
        model = Pair
        fields = ("seed", "name", "players", "club", "withdrawn")
        attrs = {"class": "table"}
        empty_text = _("No pairs yet.")


class MatchTable(tables.Table):
    round = tables.Column(verbose_name=_("round"), accessor="round__number")
    table = tables.Column(verbose_name=_("table"))
    pair_ns = tables.Column(verbose_name=_("North–South"))
    pair_ew = tables.Column(verbose_name=_("East–West"))
    levels = tables.Column(verbose_name=_("levels"), empty_values=(), orderable=False)
    state = tables.Column(verbose_name=_("state"))
    judge = tables.Column(verbose_name=_("judge"))

    class Meta:
        model = Match
        fields = ("round", "table", "pair_ns", "pair_ew", "levels", "state", "judge")
        attrs = {"class": "table"}
        empty_text = _("No matches yet.")

    def render_levels(self, record: Match) -> str:
        show = {"T": "10"}
        return f"{show.get(record.level_ns, record.level_ns)} : {show.get(record.level_ew, record.level_ew)}"
