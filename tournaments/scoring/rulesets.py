"""The tournament's ruleset, built once per spec: every check of every play needs it, and building it is pure."""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache

from rules.ruleset import Ruleset
from tournaments.models import Match


def ruleset_for(match: Match) -> Ruleset:
    """The tournament's ruleset, with its own match time limit when the TD set one."""
    tournament = match.round.tournament
    return tournament_ruleset(json.dumps(tournament.ruleset, sort_keys=True), tournament.match_time_limit)


@lru_cache(maxsize=256)
def tournament_ruleset(spec: str, time_limit: int | None) -> Ruleset:
    """``ruleset_for`` by the spec's JSON: ``Ruleset.from_spec`` is pure and a Ruleset frozen, so each is built once."""
    rs = Ruleset.from_spec(json.loads(spec))
    if time_limit:
        rs = dataclasses.replace(rs, time_limit_minutes=time_limit)
    return rs
