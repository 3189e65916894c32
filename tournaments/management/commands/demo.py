from django.core.management.base import BaseCommand

from tournaments.demo import create_demo


class Command(BaseCommand):
    help = "Create the demo tournament (slug: demo) with its accounts; running it again changes nothing."

    def handle(self, *args, **options) -> None:
        result = create_demo()
        verb = "created" if result.created else "already present"
        self.stdout.write(f"{result.tournament.name} ({result.tournament.slug}): {verb}")
        self.stdout.write("demo accounts (change these passwords before a real event):")
        for username, password, group in result.accounts:
            self.stdout.write(f"  {group:9} {username:10} {password}")
