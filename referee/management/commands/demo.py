from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from referee.simulation import simulate_match, simulate_round
from tournaments.demo import create_demo

OPEN_TABLE = 4  # left in progress with a few deals, so a visitor can carry on as its judge
OPEN_DEALS = 3


class Command(BaseCommand):
    help = "Create the demo tournament (slug: demo) with its accounts and round 1 played; running it again changes nothing."

    def handle(self, *args, **options) -> None:
        result = create_demo()
        tournament = result.tournament
        if result.created:
            director = get_user_model().objects.get(username="director")
            simulate_round(tournament, 1, director, seed="demo", skip_tables=frozenset({OPEN_TABLE}))
            open_match = tournament.rounds.get(number=1).matches.get(table=OPEN_TABLE)
            simulate_match(open_match, director, seed="demo", max_deals=OPEN_DEALS)
        verb = "created" if result.created else "already present"
        self.stdout.write(f"{tournament.name} ({tournament.slug}): {verb}")
        self.stdout.write("demo accounts (change these passwords before a real event):")
        for username, password, group in result.accounts:
            self.stdout.write(f"  {group:9} {username:10} {password}")
        open_match = tournament.rounds.get(number=1).matches.get(table=OPEN_TABLE)
        self.stdout.write(
            f"round 1 is played; table {OPEN_TABLE} is in progress: log in as {open_match.judge} to carry on "
            f"at /match/{open_match.pk}/"
        )
