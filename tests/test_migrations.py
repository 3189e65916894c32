"""Data migrations: stored tournaments keep loading after a change of codes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("tournaments", "0003_time_called")
AFTER = ("tournaments", "0004_engine_tie_break_codes")


def migrate(*targets):
    """Migrate to ``targets`` (none: to the latest of every app) and return the models as they were then."""
    executor = MigrationExecutor(connection)
    targets = list(targets) or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_stored_tie_breaks_take_the_engine_codes_and_back():
    old = migrate(BEFORE).get_model("tournaments", "Tournament")
    old.objects.create(name="T", slug="t", tie_breaks=["banker_deals", "buchholz", "level_difference"])
    old.objects.create(name="U", slug="u", tie_breaks=[])
    new = migrate(AFTER).get_model("tournaments", "Tournament")
    assert new.objects.get(slug="t").tie_breaks == ["banker_wins", "buchholz", "level_diff"]
    assert new.objects.get(slug="u").tie_breaks == []
    back = migrate(BEFORE).get_model("tournaments", "Tournament")
    assert back.objects.get(slug="t").tie_breaks == ["banker_deals", "buchholz", "level_difference"]
    migrate()


@pytest.mark.django_db
def test_a_migrated_tournament_ranks_by_its_tie_breaks(tournament):
    from tournaments.standings.compute import compute_standings, tie_break_columns

    tournament.tie_breaks = ["banker_wins", "level_diff"]
    tournament.full_clean()
    assert [code for code, _label in tie_break_columns(tournament)] == ["banker_wins", "level_diff"]
    assert compute_standings(tournament) == []


@pytest.mark.django_db(transaction=True)
def test_stored_deals_get_their_start_levels_from_the_fold(match, director, judge):
    """Deals recorded before ``Deal.start_levels`` existed get the fold of the played deals before each."""
    from referee.table.recording import deal_entry, records
    from rules.simulate import simulate_deal
    from tournaments.scoring import fold

    ruleset = match.round.tournament.ruleset
    for seed in range(100):  # a first deal the banker side holds, so the second starts above the start level
        record = {**simulate_deal(ruleset, banker="N", level="2", seed=seed), "ruleset": ruleset}
        first = records.record_deal(match, record, director)
        if first.banker_held:
            break
        first.delete()
    deal_entry.start_deal(match, judge, trump="S")
    expected = [fold.levels_before(d) for d in match.deals.order_by("number")]
    migrate(("tournaments", "0004_engine_tie_break_codes"))
    # The deals read as the models were then: a column added since would be missing from the table.
    then = migrate(("tournaments", "0005_deal_start_levels")).get_model("tournaments", "Deal")
    stored = list(
        then.objects.filter(match_id=match.pk).order_by("number").values_list("start_levels", flat=True)
    )
    assert stored == expected
    assert stored[1] != {"NS": "2", "EW": "2"}
    migrate()
