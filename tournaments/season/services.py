"""A series' writes (create, change its settings and tournaments) and seeding a new tournament's pairs by
rating: one function each, shared by the director's pages, commands and tests."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.competition.finishing import lock_open
from tournaments.models import Pair, Series, Tournament, by_seed
from tournaments.season import ratings
from tournaments.setup.services import unique_slug


class SeasonError(Exception):
    """A write the director's pages refuse; ``message`` is for the director (translated)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@transaction.atomic
def save_series(
    name: str,
    points: list[int],
    best_of: int | None,
    is_public: bool,
    tournaments: list[Tournament],
    series: Series | None = None,
    by=None,
    *,
    organisation=None,
) -> Series:
    """Create a series (its address from its name: pinyin for Chinese) or change one; the history keeps who
    and when."""
    new = series is None
    series = series or Series()
    series.name, series.points, series.best_of, series.is_public = name, points, best_of, is_public
    if by is not None:
        series._history_user = by
    if new and organisation is None and by is not None:
        organisation = access.directing_organisations(by).first()
    if Series.objects.filter(name=name).exclude(pk=series.pk).exists():
        raise SeasonError(name_taken(name))
    try:
        if new:
            series.organisation = organisation
            _save_new(series)
        else:
            with transaction.atomic():
                series.save()
    except IntegrityError:  # saved by another request since the look above
        raise SeasonError(name_taken(name)) from None
    series.tournaments.set(tournaments)
    return series


def name_taken(name: str) -> str:
    return _("A series named %(name)s exists already: open it from the list of series.") % {"name": name}


def _save_new(series: Series, tries: int = 5) -> None:
    """A new series under the first free address from its name: when another series took that address between
    the look and the write (two saved at once), the next one (a savepoint each, so PostgreSQL goes on)."""
    for _try in range(tries):
        series.slug = unique_slug(series.name, Series)
        try:
            with transaction.atomic():
                series.save()
            return
        except IntegrityError:
            series.pk = None
            if Series.objects.filter(name=series.name).exists():
                raise  # the name, not the address, was taken: ``save_series`` says so
    raise SeasonError(_("Another series was saved at the same moment: save it again."))


def why_not_seed(tournament: Tournament) -> str | None:
    """Seeding by rating is for a tournament not paired yet (the seeds decide the first round's draw)."""
    if tournament.is_finished:
        return _("The tournament is finished: its seeds stay as they were.")
    if tournament.rounds.exists():
        return _("Round 1 is paired already: seed the pairs by rating before pairing it.")
    if not tournament.pairs.exists():
        return _("No pair is entered yet.")
    return None


@transaction.atomic
def seed_by_rating(tournament: Tournament, by=None) -> list[Pair]:
    """Seeds 1, 2, 3 … by the pairs' combined rating (their players' mu − 3σ added), the strongest first; equal
    ratings keep their seed order. Returns the pairs in their new order."""
    tournament = lock_open(tournament.pk)
    if reason := why_not_seed(tournament):
        raise SeasonError(reason)
    rated = ratings.current()
    pairs = by_seed(tournament.pairs.select_for_update())
    ordered = sorted(pairs, key=lambda p: -rated.team(p.player1_id, p.player2_id))
    for seed, pair in enumerate(ordered, start=1):
        if pair.seed != seed:
            pair.seed = seed
            if by is not None:
                pair._history_user = by
            pair.save(update_fields=["seed"])
    return ordered
