from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation

from tournaments.management.commands._desk import get_tournament
from tournaments.teams.sheets import team_sheets
from tournaments.workbook.export import write_workbook


class Command(BaseCommand):
    help = "Write the official workbook (standings, rounds, deals, penalties; a team event's team sheets) to OUT.xlsx."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("out")
        parser.add_argument(
            "--language", default=settings.LANGUAGE_CODE, choices=[code for code, _n in settings.LANGUAGES]
        )

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        with translation.override(o["language"]):
            write_workbook(tournament, o["out"], extra=team_sheets)
        self.stdout.write(f"wrote {o['out']}")
