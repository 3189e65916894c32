"""Setting a tournament up: a new tournament's address (slug), saving its settings and ruleset, deleting one
created by mistake, and the engine's ruleset refusals in the director's language.

A change to the ruleset of a tournament whose deals are recorded changes how each of those deals scores: saving
calls ``scoring.rescoring.rescore_tournament`` inside the save's transaction, which scores every deal again and
recomputes every match, or refuses (``SettingsError``) and nothing is saved. A finished tournament keeps its rules and scoring settings
(``finishing.require_open``); its name, dates and what the public sees may still change.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.utils.translation import gettext as _

from rules.ruleset import Ruleset, RulesetError
from tournaments.competition.finishing import require_open
from tournaments.duplicate.movement import DuplicateError
from tournaments.duplicate.settings import save_duplicate_settings
from tournaments.models import Deal, Round, Tournament
from tournaments.people.pairs import delete_pairs
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.rescoring import rescore_tournament

# The tournament's own settings that decide its results and standings, with the ruleset: a finished tournament
# keeps them.
SCORING_SETTINGS = (
    "match_time_limit",
    "points_win",
    "points_draw",
    "points_loss",
    "bye_points",
    "tie_breaks",
)


class SettingsError(Exception):
    """Settings that cannot be saved; ``message`` is for the director (translated)."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def slug_base(name: str) -> str:
    """A readable address from a name: Chinese written in pinyin (``春季公开赛`` → ``chun-ji-gong-kai-sai``),
    Latin letters and digits as they are (``Spring Cup`` → ``spring-cup``); ``tournament`` when nothing is left."""
    from pypinyin import lazy_pinyin  # at first use: its dictionaries cost 0.2 s at every start

    words = lazy_pinyin(name)
    return slugify("-".join(words))[:70].strip("-") or "tournament"


def unique_slug(name: str, model=Tournament) -> str:
    """The address of a new tournament (or series: ``model``) from its name, numbered when taken:
    ``chun-ji-sai``, ``chun-ji-sai-2`` …"""
    base = slug_base(name)
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def effective_rules(tournament: Tournament) -> tuple[str, int | None]:
    """What decides how a deal scores: the ruleset (as JSON) and the tournament's time limit. A stored ruleset
    the engine refuses is its JSON as stored: any ruleset saved in its place changes it."""
    try:
        spec = Ruleset.from_spec(tournament.ruleset).to_spec()
    except RulesetError:
        spec = tournament.ruleset
    return json.dumps(spec, sort_keys=True), tournament.match_time_limit


def recorded_deals(tournament: Tournament) -> tuple[int, int]:
    """How many deals are recorded, and in how many matches: what a change of the ruleset scores again."""
    deals = Deal.objects.of(tournament)
    return deals.count(), deals.values("match").distinct().count()


def rules_change(tournament: Tournament, spec: Any) -> bool:
    """Would saving ``spec`` (and the form's time limit, already on the instance) change how deals score?"""
    if tournament.pk is None:
        return False
    stored = Tournament.objects.get(pk=tournament.pk)
    return effective_rules(stored) != (
        json.dumps(Ruleset.from_spec(spec).to_spec(), sort_keys=True),
        tournament.match_time_limit,
    )


@transaction.atomic
def save_settings(
    tournament: Tournament, spec: Any, user, *, duplicate: tuple[str, int] | None = None
) -> Tournament:
    """Save a new or edited tournament (its form already applied to the instance) with the ruleset ``spec``.

    An edited ruleset re-scores the recorded deals (``rescore_tournament``) in this transaction: a refusal
    (``SettingsError``) leaves the tournament as it was. A finished tournament's ruleset and scoring settings are
    refused (``finishing.TournamentFinished``). ``duplicate``: a duplicate's movement and boards a round (for
    duplicate teams, its team event of two tables a match too). The setup form and ``create_tournament`` both
    save here."""
    changed = rules_change(tournament, spec)
    if tournament.pk is None:
        tournament.slug = tournament.slug or unique_slug(tournament.name)  # the command names its own
    else:
        stored = get_object_or_404(Tournament.objects.select_for_update(), pk=tournament.pk)
        if changed or any(getattr(stored, name) != getattr(tournament, name) for name in SCORING_SETTINGS):
            require_open(stored)
        # Finishing and reopening are not the settings form's: a form read before either keeps them.
        tournament.finished_at, tournament.finished_by_id = stored.finished_at, stored.finished_by_id
    tournament.ruleset = spec
    tournament._history_user = user
    tournament.save()
    if duplicate is not None:
        try:
            save_duplicate_settings(
                tournament, movement=duplicate[0], boards_per_round=duplicate[1], user=user
            )
        except DuplicateError as exc:
            raise SettingsError(exc.message) from exc
    if changed:
        try:
            rescore_tournament(tournament, user)
        except RecordingError as exc:
            raise SettingsError(exc.message) from exc
    return tournament


# ---------------------------------------------------------------- deleting a tournament created by mistake


def why_not_delete_tournament(tournament: Tournament) -> str | None:
    """Why the tournament cannot be deleted, in words; None when it can: it has no round at all, so nothing was
    played (or even paired) in it."""
    rounds = tournament.rounds.order_by("number")
    paired = rounds.exclude(state=Round.State.DRAFT).first()
    if paired is not None:
        return _("Round %(n)s is paired: a tournament with rounds cannot be deleted.") % {"n": paired.number}
    draft = rounds.first()
    if draft is not None:
        return _("Round %(n)s is a draft: discard it first, then the tournament can be deleted.") % {
            "n": draft.number
        }
    return None


@transaction.atomic
def delete_tournament(tournament: Tournament, user) -> None:
    """Delete a tournament created by mistake, with its pairs and their players no other tournament's pair uses,
    while it has no round. Checked again under the tournament's lock, which pairing a round takes too; the
    history of the tournament and of each pair keeps who (``user``) deleted it and when."""
    locked = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if locked is None:
        raise SettingsError(_("%(name)s is already deleted.") % {"name": tournament.name})
    if reason := why_not_delete_tournament(locked):
        raise SettingsError(reason)
    delete_pairs(list(locked.pairs.select_for_update()), user)
    locked._history_user = user
    locked.delete()
