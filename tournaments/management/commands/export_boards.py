from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.duplicate.dealing import boards_file
from tournaments.duplicate.movement import DuplicateError
from tournaments.management.commands._desk import get_tournament


class Command(BaseCommand):
    help = (
        "Write a duplicate session's boards file (tractor-boards/1); its seed only once the session is over."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file", help="the file to write ('-': standard output)")

    def handle(self, *args, **o) -> None:
        try:
            text = boards_file(get_tournament(o["slug"])).dumps()
        except DuplicateError as exc:
            raise CommandError(exc.message) from None
        if o["file"] == "-":
            self.stdout.write(text)
        else:
            Path(o["file"]).write_text(text + "\n", encoding="utf-8")
