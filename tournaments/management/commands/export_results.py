from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.duplicate.movement import DuplicateError
from tournaments.duplicate.venues import dumps_results
from tournaments.management.commands._desk import get_tournament


class Command(BaseCommand):
    help = (
        "Write a duplicate session's results for the other venues of a simultaneous session "
        "(tractor-results/1): the boards' fingerprints and every table's result with this venue's pair names."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file", help="the file to write ('-': standard output)")

    def handle(self, *args, **o) -> None:
        try:
            text = dumps_results(get_tournament(o["slug"]))
        except DuplicateError as exc:
            raise CommandError(exc.message) from None
        if o["file"] == "-":
            self.stdout.write(text)
        else:
            Path(o["file"]).write_text(text + "\n", encoding="utf-8")
