"""django-tables2 grids of the tournament overview: sortable lists of pairs, matches, standings and results, shared
by the desk and the public pages (a "table" is the furniture)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from rules.ranks import rank_text
from tournaments.competition.accounts import display_name
from tournaments.competition.display import match_status
from tournaments.models import Adjustment, Match, Pair

NOWRAP = {"td": {"class": "nowrap"}}  # "2 : 3" on one line
WIDE_ONLY = {"td": {"class": "wide-only"}, "th": {"class": "wide-only"}}  # left out on a phone


def pair_name(pair, tag: str = "span") -> str:
    """A pair's name that a narrow screen may cut short: the whole name on hover (``title``)."""
    return format_html('<{} class="name" title="{}">{}</{}>', tag, pair, pair, tag)


class PairGrid(tables.Table):
    """The pairs; each name a link to the pair's page when ``slug`` is given (results public), so a player on
    a phone finds their pair's matches in one tap."""

    seed = tables.Column(verbose_name=_("seed"))
    name = tables.Column(verbose_name=_("pair name"))
    players = tables.Column(
        verbose_name=_("players"), accessor="players", order_by=("player1__name",), attrs=NOWRAP
    )
    club = tables.Column(verbose_name=_("club"), attrs=WIDE_ONLY)
    withdrawn = tables.Column(verbose_name=_("withdrawn"))

    class Meta:
        model = Pair
        fields = ("seed", "name", "players", "club", "withdrawn")
        attrs = {"class": "table"}
        empty_text = _("No pairs yet.")

    def __init__(self, *args, slug: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.slug = slug

    def render_name(self, record: Pair, value: str) -> str:
        if self.slug is None:
            return value
        return format_html('<a href="{}">{}</a>', reverse("pair", args=[self.slug, record.pk]), value)

    def render_withdrawn(self, value: bool) -> str:
        """A mark for a withdrawn pair only: an active pair's cell stays empty (no ✘ beside every pair)."""
        return format_html('<span class="badge">{}</span>', _("withdrawn")) if value else ""


class MatchGrid(tables.Table):
    round = tables.Column(verbose_name=_("round"), accessor="round__number")
    table = tables.Column(verbose_name=_("table"), linkify=lambda record: record.get_absolute_url())
    pair_ns = tables.Column(verbose_name=_("North–South"))
    pair_ew = tables.Column(verbose_name=_("East–West"))
    levels = tables.Column(verbose_name=_("levels"), empty_values=(), orderable=False, attrs=NOWRAP)
    state = tables.Column(verbose_name=_("state"))
    judge = tables.Column(verbose_name=_("judge"), attrs=WIDE_ONLY)

    class Meta:
        model = Match
        fields = ("round", "table", "pair_ns", "pair_ew", "levels", "state", "judge")
        attrs = {"class": "table"}
        empty_text = _("No matches yet.")

    def render_judge(self, value) -> str:
        return display_name(value)

    def render_levels(self, record: Match) -> str:
        return f"{rank_text(record.level_ns)} : {rank_text(record.level_ew)}"

    def render_pair_ns(self, value):
        return pair_name(value)

    def render_pair_ew(self, value):
        return pair_name(value)


NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class StandingsGrid(tables.Table):
    """Standings rows (``tournaments.standings.compute.Line.as_row``); the tie-break columns are added per tournament."""

    rank = tables.Column(verbose_name=_("rank"))
    name = tables.Column(verbose_name=_("pair name"))
    players = tables.Column(verbose_name=_("players"))
    club = tables.Column(verbose_name=_("club"))
    played = tables.Column(verbose_name=_("played"), attrs=NUM)
    wins = tables.Column(verbose_name=_("wins"), attrs=NUM)
    draws = tables.Column(verbose_name=_("draws"), attrs=NUM)
    losses = tables.Column(verbose_name=_("losses"), attrs=NUM)
    match_points = tables.Column(
        verbose_name=_("match points"), attrs={"td": {"class": "num strong"}, "th": {"class": "num"}}
    )

    class Meta:
        attrs = {"class": "table standings"}
        empty_text = _("No pairs yet.")
        row_attrs = {"class": lambda record: "withdrawn" if record["withdrawn"] else ""}
        # The body is built by body_html: 512 pairs render in a few milliseconds, not a third of a second.
        template_name = "tournaments/standings/table.html"

    def __init__(self, data, *, tie_breaks=(), pair_url=None, **kwargs):
        extra = [(code, tables.Column(verbose_name=label, attrs=NUM)) for code, label in tie_breaks]
        self.pair_url = pair_url
        super().__init__(data, extra_columns=extra, **kwargs)

    def body_html(self) -> str:
        """The rows (sorted as asked) as HTML: the same cells as django-tables2 would render, much faster."""
        columns = [(c.name, c.attrs.get("td", {}).get("class", "")) for c in self.columns]
        out = []
        for record in self.data:
            cells = []
            for name, css in columns:
                value = self.render_name(record["name"], record) if name == "name" else record[name]
                cell = conditional_escape("" if value is None else value)
                cells.append(f'<td class="{css}">{cell}</td>' if css else f"<td>{cell}</td>")
            tr = '<tr class="withdrawn">' if record["withdrawn"] else "<tr>"
            out.append(tr + "".join(cells) + "</tr>")
        return mark_safe("\n".join(out))  # noqa: S308 - every cell is escaped above

    def render_name(self, value, record):
        mark = (
            format_html(' <span class="badge">{}</span>', _("withdrawn"))
            if record["withdrawn"]
            else mark_safe("")
        )
        if record.get("adjusted"):
            mark += format_html(' <span class="badge warn">{}</span>', _("adjusted result"))
        if self.pair_url:
            return format_html('<a href="{}">{}</a>{}', self.pair_url(record["pair"]), pair_name(value), mark)
        return format_html("{}{}", pair_name(value), mark)


class PairingGrid(tables.Table):
    """A round's pairing list: table, seats, pairs, judge (and the result once known)."""

    table = tables.Column(verbose_name=_("table"), linkify=lambda record: record.get_absolute_url())
    pair_ns = tables.Column(verbose_name=_("North–South"), order_by=("pair_ns__name",))
    pair_ew = tables.Column(verbose_name=_("East–West"), order_by=("pair_ew__name",))
    judge = tables.Column(verbose_name=_("judge"), attrs=WIDE_ONLY)

    class Meta:
        model = Match
        fields = ("table", "pair_ns", "pair_ew", "judge")
        attrs = {"class": "table pairing"}
        empty_text = _("No matches in this round.")

    def render_judge(self, value) -> str:
        return display_name(value)

    def render_pair_ns(self, record):
        return format_html(
            '{}<br><span class="muted">{}</span>', pair_name(record.pair_ns, "strong"), record.pair_ns.players
        )

    def render_pair_ew(self, record):
        return format_html(
            '{}<br><span class="muted">{}</span>', pair_name(record.pair_ew, "strong"), record.pair_ew.players
        )


class ResultGrid(tables.Table):
    """Match results of a tournament, with a link to each match's deal log."""

    round = tables.Column(verbose_name=_("round"), accessor="round__number")
    table = tables.Column(verbose_name=_("table"))
    pair_ns = tables.Column(verbose_name=_("North–South"), order_by=("pair_ns__name",))
    pair_ew = tables.Column(verbose_name=_("East–West"), order_by=("pair_ew__name",))
    levels = tables.Column(verbose_name=_("levels"), empty_values=(), orderable=False, attrs=NOWRAP)
    result = tables.Column(verbose_name=_("result"), empty_values=(), orderable=False)
    ended_by = tables.Column(verbose_name=_("ended by"))
    deals = tables.Column(verbose_name=_("deal log"), empty_values=(), orderable=False)

    class Meta:
        model = Match
        fields = ("round", "table", "pair_ns", "pair_ew", "levels", "result", "ended_by", "deals")
        attrs = {"class": "table results"}
        empty_text = _("No results yet.")

    def __init__(self, data, *, deal_log_url=None, **kwargs):
        self.deal_log_url = deal_log_url
        super().__init__(data, **kwargs)
        if deal_log_url is None:
            self.columns.hide("deals")
        self.voided = Adjustment.objects.voided_deal_numbers(m.pk for m in data)

    def render_levels(self, record):
        return f"{rank_text(record.level_ns)} : {rank_text(record.level_ew)}"

    def render_result(self, record):
        """The result, and each deal voided by the director marked beside it (as on the match page)."""
        marks = format_html_join(
            "",
            ' <span class="badge warn">{}</span>',
            ((_("Deal %(n)s void") % {"n": n},) for n in self.voided.get(record.pk, ())),
        )
        return format_html("{}{}", match_status(record), marks)

    def render_pair_ns(self, value):
        return pair_name(value)

    def render_pair_ew(self, value):
        return pair_name(value)

    def render_deals(self, record):
        return format_html('<a href="{}">{}</a>', self.deal_log_url(record), _("deals"))


class PairMatchGrid(ResultGrid):
    """One pair's matches (the per-pair page)."""

    class Meta(ResultGrid.Meta):
        empty_text = _("No matches yet.")
