from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    """The table side: the judges' pages and the recording service."""

    name = "referee.table"
    label = "table"
    verbose_name = _("Referee")

    def ready(self) -> None:
        # The desk announces a ruleset change; the table side scores the recorded deals again.
        # The desk publishes a round with pairs absent at check-in: the table side records their forfeits.
        from referee.table import checkin_forfeits  # noqa: F401
        from referee.table.recording import rescoring  # noqa: F401
