from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = _("Referee")

    def ready(self) -> None:
        # The desk announces a ruleset change; the table side scores the recorded deals again.
        from referee.recording import rescoring  # noqa: F401
