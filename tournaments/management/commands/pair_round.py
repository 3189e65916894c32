from django.core.management.base import BaseCommand, CommandError

from tournaments.checkin.forfeits import publish_round
from tournaments.competition.finishing import TournamentFinished
from tournaments.management.commands._desk import get_tournament
from tournaments.pairing.services import PairingError, pair_round


class Command(BaseCommand):
    help = "Pair round N of a tournament as a draft (--publish to publish it at once) and print the pairing list."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("number", type=int)
        parser.add_argument("--publish", action="store_true")

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        try:
            rnd = pair_round(tournament, o["number"])
            if o["publish"]:
                publish_round(rnd)
        except (PairingError, TournamentFinished) as exc:
            raise CommandError(str(exc)) from None
        for note in rnd.gave_way_notes:
            self.stderr.write(note)
        rnd.refresh_from_db()
        self.stdout.write(f"round {rnd.number} ({rnd.state})")
        for m in rnd.matches.select_related("pair_ns", "pair_ew").order_by("table"):
            self.stdout.write(f"  table {m.table:3}  NS {m.pair_ns.name}  —  EW {m.pair_ew.name}")
        for bye in rnd.byes.select_related("pair"):
            self.stdout.write(f"  bye        {bye.pair.name} ({bye.points} points)")
