"""Open a tournament for entries on line from the command line, through the desk page's own service."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournaments.competition.finishing import TournamentFinished
from tournaments.entries.links import own_page_path
from tournaments.entries.services import EntryError, open_entries
from tournaments.management.commands._desk import get_tournament


def closing_time(text: str | None):
    """``2026-05-01 18:00`` (the site's time zone unless an offset is given), or None."""
    if not text:
        return None
    when = parse_datetime(text)
    if when is None:
        raise CommandError(f"--closes: not a date and time: {text!r} (e.g. 2026-05-01 18:00)")
    return timezone.make_aware(when) if timezone.is_naive(when) else when


class Command(BaseCommand):
    help = "Open a tournament for entries on line at /t/SLUG/enter/ (or change its settings while open)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--capacity", type=int, required=True, help="places (pairs); more wait in order")
        parser.add_argument("--closes", help="when entries close, e.g. '2026-05-01 18:00'")
        parser.add_argument("--approval", action="store_true", help="the director accepts each entry")
        parser.add_argument("--fee", default="", help="the entry fee as shown, e.g. '100 yuan a pair'")

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        try:
            window = open_entries(
                tournament,
                capacity=o["capacity"],
                closes_at=closing_time(o["closes"]),
                approval=o["approval"],
                fee=o["fee"],
            )
        except (EntryError, TournamentFinished) as exc:
            raise CommandError(getattr(exc, "message", str(exc))) from None
        self.stdout.write(f"entries open: /t/{tournament.slug}/enter/ — {window.capacity} places")
        for entry in tournament.entries.filter(promoted_at__isnull=False, state="accepted"):
            self.stdout.write(f"  given a place: {entry.name}  {own_page_path(entry)}")
