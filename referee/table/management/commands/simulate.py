from django.core.management.base import BaseCommand, CommandError

from referee.table.management.commands._common import operator
from referee.table.simulation import MAX_DEALS, simulate_round
from tournaments.management.commands._desk import get_tournament
from tournaments.models import Round
from tournaments.scoring.errors import RecordingError


class Command(BaseCommand):
    help = "Play every match of a round with the rules simulator, recording each deal through the service."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--round", type=int, required=True, dest="round_number")
        parser.add_argument("--seed", default="0")
        parser.add_argument("--max-deals", type=int, default=MAX_DEALS)
        parser.add_argument("--operator")

    def handle(self, *args, **options):
        tournament = get_tournament(options["slug"])
        try:
            done = simulate_round(
                tournament,
                options["round_number"],
                operator(options["operator"]),
                seed=options["seed"],
                max_deals=options["max_deals"],
            )
        except Round.DoesNotExist:
            raise CommandError(f"{tournament.slug} has no round {options['round_number']}") from None
        except RecordingError as exc:  # a draft round, a finished tournament: the service's refusal
            raise CommandError(exc.message, returncode=2) from None
        for table, deals in done.items():
            self.stdout.write(f"table {table}: {deals} deals")
