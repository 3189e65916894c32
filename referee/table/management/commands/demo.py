from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from referee.table.simulation import simulate_match, simulate_round
from rules.ruleset import PRESETS
from tournaments.competition.access import DIRECTOR_GROUP
from tournaments.setup.demo import create_demo, demo_data


class Command(BaseCommand):
    help = "Create the demo tournament (slug: demo) with its accounts and round 1 played; running it again changes nothing."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--preset",
            choices=sorted(PRESETS),
            help="the ruleset preset (default: the demo file's, standard)",
        )

    def handle(self, *args, **options) -> None:
        result = create_demo(options["preset"])
        tournament = result.tournament
        # One table is left in progress with a few deals, so a visitor can carry on as its judge.
        sim = demo_data()["simulation"]
        open_table = sim["open_table"]
        if result.created:
            director_name = next(name for name, _, group in result.accounts if group == DIRECTOR_GROUP)
            director = get_user_model().objects.get(username=director_name)
            simulate_round(tournament, 1, director, seed=sim["seed"], skip_tables=frozenset({open_table}))
            open_match = tournament.rounds.get(number=1).matches.get(table=open_table)
            simulate_match(open_match, director, seed=sim["seed"], max_deals=sim["open_deals"])
        verb = "created" if result.created else "already present"
        self.stdout.write(f"{tournament.name} ({tournament.slug}, preset {tournament.preset_name}): {verb}")
        self.stdout.write("demo accounts (change these passwords before a real event):")
        for username, password, group in result.accounts:
            self.stdout.write(f"  {group:9} {username:10} {password}")
        open_match = tournament.rounds.get(number=1).matches.get(table=open_table)
        self.stdout.write(
            f"round 1 is played; table {open_table} is in progress: log in as {open_match.judge} to carry on "
            f"at /match/{open_match.pk}/"
        )
