from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("tournament")

    def ready(self) -> None:
        # Every write the public pages show gives its tournament a new generation (their cache keys).
        from tournaments.public import generation

        generation.connect()
        from tournaments.live.screen import live_panels
        from tournaments.public.screen_data import register_panels
        from tournaments.teams.screen import team_panels

        register_panels(team_panels)  # a team event's screen shows its zone tables and fixtures
        register_panels(live_panels, added=True)  # and any screen the featured table the director put on it
