import json

from django.core.management.base import BaseCommand

from referee.table.management.commands._common import get_match
from referee.table.recording.records import export_deals


class Command(BaseCommand):
    help = "Print a match's deals as DEAL-RECORD documents (a JSON list)."

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int)

    def handle(self, *args, **options):
        records = export_deals(get_match(options["match_id"]))
        self.stdout.write(json.dumps(records, ensure_ascii=False, indent=1))
