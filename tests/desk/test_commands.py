"""A whole event from the command line: create_tournament, import_pairs, pair_round, export_standings."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from tests.desk.helpers import finish
from tournaments.models import Round, Tournament


@pytest.mark.django_db
def test_a_whole_event_runs_from_the_command_line(tmp_path, capsys):
    call_command(
        "create_tournament", "cup", "--name", "杯赛", "--preset", "club-competition", "--rounds", "3"
    )
    t = Tournament.objects.get(slug="cup")
    assert (t.name, t.preset_name, t.num_rounds, t.format) == ("杯赛", "club-competition", 3, "swiss")
    f = tmp_path / "pairs.csv"
    f.write_text(
        "pair,player1,player2,club\n" + "".join(f"P{i},a{i},b{i},\n" for i in range(5)), encoding="utf-8"
    )
    call_command("import_pairs", "cup", str(f))
    assert t.pairs.count() == 5
    for n in (1, 2, 3):
        call_command("pair_round", "cup", str(n), "--publish")
        rnd = t.rounds.get(number=n)
        assert rnd.state == Round.State.PUBLISHED and rnd.matches.count() == 2 and rnd.byes.count() == 1
        for m in rnd.matches.all():
            finish(m, m.pair_ew)
    out = capsys.readouterr().out
    assert "round 3 (published)" in out and "table   1" in out and "bye" in out
    with pytest.raises(CommandError):
        call_command("pair_round", "cup", "4")
    call_command("export_standings", "cup", str(tmp_path / "cup.xlsx"))
    assert (tmp_path / "cup.xlsx").stat().st_size > 0


@pytest.mark.django_db
def test_create_tournament_refuses_bad_input():
    with pytest.raises(CommandError):
        call_command("create_tournament", "x", "--name", "X", "--preset", "nonsense")
    call_command(
        "create_tournament", "x", "--name", "X", "--format", "round_robin", "--rounds", "7", "--hidden"
    )
    assert not Tournament.objects.get(slug="x").is_public
    with pytest.raises(CommandError, match="exists"):
        call_command("create_tournament", "x", "--name", "X")
    with pytest.raises(CommandError, match="no tournament"):
        call_command("pair_round", "nope", "1")
