from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from rules.ruleset import PRESETS
from tournaments.models import DuplicateEvent, Organisation, Tournament
from tournaments.setup.services import SettingsError, save_settings


class Command(BaseCommand):
    help = (
        "Create a tournament: manage.py create_tournament SLUG --name NAME --preset PRESET --rounds N "
        "[--format knockout | --knockout-size 8] [--third-place] "
        "[--format duplicate --movement mitchell --boards-per-round N] "
        "[--format duplicate-teams --boards-per-round N]"
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument(
            "--format", default=Tournament.Format.SWISS, choices=[c for c, _l in Tournament.Format.choices]
        )
        parser.add_argument(
            "--knockout-size",
            type=int,
            choices=[4, 8, 16],
            help="a Swiss or round robin: its top N then play a knockout after --rounds rounds",
        )
        parser.add_argument("--third-place", action="store_true", help="a knockout's third-place match")
        parser.add_argument(
            "--movement", default=DuplicateEvent.Movement.MITCHELL, choices=DuplicateEvent.Movement.values
        )
        parser.add_argument(
            "--boards-per-round", type=int, default=2, help="a duplicate's boards a round (2-4)"
        )
        parser.add_argument("--venue", default="")
        parser.add_argument("--avoid-same-club", action="store_true")
        parser.add_argument("--hidden", action="store_true", help="not public until the TD switches it on")
        parser.add_argument("--organisation", default="", help="the slug of the organisation that runs it")

    def handle(self, *args, **o) -> None:
        if Tournament.objects.filter(slug=o["slug"]).exists():
            raise CommandError(f"a tournament with slug {o['slug']!r} exists already")
        if o["rounds"] < 1:
            raise CommandError("--rounds must be at least 1")
        organisation = None
        if o["organisation"]:
            organisation = Organisation.objects.filter(slug=o["organisation"]).first()
            if organisation is None:
                raise CommandError(f"no organisation with slug {o['organisation']!r}")
        t = Tournament(
            organisation=organisation,
            slug=o["slug"],
            name=o["name"],
            venue=o["venue"],
            ruleset={"preset": o["preset"]},
            format=o["format"],
            num_rounds=o["rounds"],
            knockout_size=o["knockout_size"],
            third_place_match=o["third_place"],
            avoid_same_club=o["avoid_same_club"],
            is_public=not o["hidden"],
        )
        try:
            t.full_clean()
        except ValidationError as exc:
            raise CommandError(
                "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
            ) from None
        try:  # the setup form's service: a duplicate's settings, duplicate teams' two tables a match
            save_settings(t, t.ruleset, None, duplicate=(o["movement"], o["boards_per_round"]))
        except SettingsError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"created {t.slug}: {t.name} ({t.format}, {t.rounds_planned} rounds, preset {o['preset']})"
        )
