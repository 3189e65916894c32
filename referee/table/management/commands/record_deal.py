import json
import sys

from django.core.management.base import BaseCommand, CommandError

from referee.table.management.commands._common import get_match, operator
from referee.table.recording.records import record_deal
from tournaments.scoring.errors import RecordingError


class Command(BaseCommand):
    help = (
        "Record one DEAL-RECORD (FILE, or - for standard input) into a match, confirmed; print the verdict."
    )

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int)
        parser.add_argument("file")
        parser.add_argument("--operator", help="account to record as (default: the first director)")

    def handle(self, *args, **options):
        match = get_match(options["match_id"])
        try:
            text = (
                sys.stdin.read() if options["file"] == "-" else open(options["file"], encoding="utf-8").read()
            )
            record = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"{options['file']}: {exc}", returncode=2) from None
        if not isinstance(record, dict):
            raise CommandError(f"{options['file']}: a deal record must be a JSON object", returncode=2)
        try:
            deal = record_deal(match, record, operator(options["operator"]))
        except RecordingError as exc:
            raise CommandError(exc.message, returncode=2) from None
        self.stdout.write(json.dumps(deal.verdict, ensure_ascii=False))
