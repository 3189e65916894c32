from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.competition.finishing import TournamentFinished
from tournaments.management.commands._desk import get_tournament
from tournaments.workbook.importing import ImportFileError, import_entries, parse


class Command(BaseCommand):
    help = "Import pairs and players from .xlsx or .csv (header pair,player1,player2,club): all or nothing."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")
        parser.add_argument("--dry-run", action="store_true", help="check the file, import nothing")

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        path = Path(o["file"])
        if not path.is_file():
            raise CommandError(f"no file {path}")
        parsed = parse(tournament, path.name, path.read_bytes())
        if not parsed.ok:
            lines = [
                f"row {p.row if p.row is not None else '-'}, column {p.column or '-'}: {p.message}"
                for p in parsed.problems
            ]
            raise CommandError("nothing imported:\n" + "\n".join(lines))
        if o["dry_run"]:
            self.stdout.write(f"{len(parsed.entries)} pairs would be imported")
            return
        try:
            created = import_entries(tournament, parsed.entries)
        except (ImportFileError, TournamentFinished) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"imported {len(created)} pairs into {tournament.slug}")
