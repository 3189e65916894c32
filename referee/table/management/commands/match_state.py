import json

from django.core.management.base import BaseCommand

from referee.table.management.commands._common import get_match
from tournaments.models import Match
from tournaments.scoring.fold import match_summary


class Command(BaseCommand):
    help = "Print a match's state as JSON (every match, one per line, without an id)."

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int, nargs="?")

    def handle(self, *args, **options):
        if options["match_id"] is not None:
            matches = [get_match(options["match_id"])]
        else:
            matches = Match.objects.select_related("round__tournament").order_by("pk")
        for match in matches:
            self.stdout.write(json.dumps(match_summary(match), ensure_ascii=False))
